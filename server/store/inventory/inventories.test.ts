import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VulnerabilityFinding } from '../../../contracts/vulnerability-finding.js';
import { demoInventory, inDefaultOrder } from '../../test/support/fixtures.js';
import { Database } from '../engine/database.js';
import { Store } from '../store.js';

const stores: Store[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

async function emptyStore(): Promise<Store> {
  const store = await Store.open();
  stores.push(store);
  return store;
}

/** A deterministic shuffle. */
function shuffled<T>(items: readonly T[]): T[] {
  const result = [...items];
  let state = 42;
  for (let i = result.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

describe('Inventories', () => {
  it('hands out ids nobody uses, and leaves a staging alone until it is released', async () => {
    const store = await emptyStore();
    const organization = store.write(() => store.organizations.insert({ slug: 'a', name: 'A', kind: 'local' }), { changes: ['organizations', 'inventory'] });
    const staged = store.inventories.stage();
    expect(staged).not.toBe(organization.inventoryId);
    const endpoints = demoInventory(3).endpoints.slice(0, 5);
    store.write((writes) => writes.append(staged, 'endpoints', endpoints, []), { changes: ['inventory'] });
    expect(store.inventories.orphans()).toEqual([]);
    // A new organization never gets an id staged under, nor one that holds rows.
    const other = store.write(() => store.organizations.insert({ slug: 'b', name: 'B', kind: 'local' }), { changes: ['organizations', 'inventory'] });
    expect([organization.inventoryId, staged]).not.toContain(other.inventoryId);
    store.inventories.release(staged);
    expect(store.inventories.orphans()).toEqual([staged]);
  });

  it('tells a staged page that repeats an id, and one that breaks the default order', async () => {
    const store = await emptyStore();
    const staged = store.inventories.stage();
    const [first, second, third] = inDefaultOrder(demoInventory(3).endpoints);
    expect(store.write((writes) => writes.append(staged, 'endpoints', [first!, second!], []), { changes: ['inventory'] })).toEqual({ inOrder: true });
    expect(store.write((writes) => writes.append(staged, 'endpoints', [third!, { ...first!, id: first!.id.toUpperCase() }], []), { changes: ['inventory'] })).toEqual({
      inOrder: false,
      repeatedId: first!.id.toLowerCase(),
    });
    expect(store.write((writes) => writes.append(staged, 'endpoints', [], [second!.id]), { changes: ['inventory'] })).toEqual({ inOrder: true, repeatedId: second!.id });
  });

  it('puts a staged collection that came in any order in the default order', async () => {
    const store = await emptyStore();
    // Instants written with another offset, and many findings created at one instant (the id decides).
    const findings: VulnerabilityFinding[] = demoInventory(3).findings.map((finding, i) =>
      i % 3 === 0
        ? { ...finding, created_at: '2023-05-01T12:00:00+02:00' }
        : i % 3 === 1
          ? { ...finding, created_at: new Date(Date.parse(finding.created_at) + 3600_000).toISOString().replace('Z', '+01:00') }
          : finding,
    );
    expect(findings.length).toBeGreaterThan(10_000);
    const staged = store.inventories.stage();
    const arrival = shuffled(findings);
    for (let start = 0; start < arrival.length; start += 1_000) {
      store.write((writes) => writes.append(staged, 'findings', arrival.slice(start, start + 1_000), []), { changes: ['inventory'] });
    }
    await store.inventories.putInDefaultOrder(staged, 'findings');
    const organization = store.write(() => store.organizations.insert({ slug: 'a', name: 'A', kind: 'local' }), { changes: ['organizations', 'inventory'] });
    store.write(() => store.organizations.setInventory(organization.rowId, staged), { changes: ['organizations', 'inventory'] });
    store.inventories.release(staged);
    const ids: string[] = [];
    for (let offset = 0; offset < findings.length; offset += 1_000) {
      ids.push(...store.inventory.list(organization.rowId, 'findings', { limit: 1_000, offset }).items.map((json) => (JSON.parse(json) as { id: string }).id));
    }
    expect(ids).toEqual(inDefaultOrder(findings).map((finding) => finding.id));
    // The originals went: only the copies, moved back under the staged id, are left.
    expect(store.inventories.orphans()).toEqual([]);
  });

  it('collects in as many rows a write as its pace lets a write take', async () => {
    const findings = demoInventory(3).findings.slice(0, 2_900);
    const rowsPerDelete = async (writeMs: number) => {
      const store = await emptyStore();
      const orphan = store.inventories.stage();
      store.write((writes) => writes.append(orphan, 'findings', findings, []), { changes: ['inventory'] });
      store.inventories.release(orphan);
      const run = vi.spyOn(Database.prototype, 'run');
      try {
        await store.inventories.collect(writeMs);
        return run.mock.calls.filter(([sql]) => sql.startsWith('DELETE FROM findings')).map(([, params]) => (params as number[])[1]);
      } finally {
        run.mockRestore();
        expect(store.inventories.orphans()).toEqual([]);
      }
    };
    // Every write here takes more than a hundredth of a millisecond and less than five seconds.
    expect(await rowsPerDelete(0.01)).toEqual(Array<number>(12).fill(250));
    expect(await rowsPerDelete(10_000)).toEqual([250, 500, 1_000, 2_000]);
  });
});
