/**
 * A what-if survives a shutdown mid-recording (issue 37, item 4): the change of endpoint
 * context is written with its pending record before it, and a store closed before the
 * comparison ran records it when opened again, from what the pending record kept, exactly as an
 * uninterrupted recording of the same change on the same data does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Inventory } from '../../contracts/inventory.js';
import { Store } from '../store/store.js';
import { smallInventory } from './support/fixtures.js';

const nowMs = Date.UTC(2026, 11, 1, 9, 30);
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** A store on `dataDir` (in memory without one) with one local organization, `acme`. */
async function storeWith(inventory: Inventory, dataDir?: string) {
  const store = await Store.open({ clock: () => nowMs, dataDir });
  const org =
    store.organizations.bySlug('acme')?.rowId ??
    store.write(
      (writes) => {
        const organization = store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' });
        writes.replace(organization.inventoryId, inventory);
        return organization.rowId;
      },
      { changes: ['organizations', 'inventory'] },
    );
  return { store, org };
}

/** The endpoint with the most open findings: tagging it exposed changes outcomes. */
function busiest(inventory: Inventory): string {
  const counts = new Map<string, number>();
  for (const f of inventory.findings) if (f.status === 'open' && f.endpoint_id) counts.set(f.endpoint_id, (counts.get(f.endpoint_id) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}

describe('a what-if cut short by a shutdown', () => {
  it('is recorded at the next open from its pending record, as an uninterrupted recording records it', async () => {
    const inventory = smallInventory(1);
    const endpointId = busiest(inventory);
    const cause = `endpoint ${endpointId}: tags internet-facing, criticality high`;
    const change = (store: Store, org: number) => () => store.endpointContext.update(org, endpointId, { tags: ['internet-facing'], criticality: 'high' });

    // Uninterrupted, in memory: the feed's entry once the comparison ran.
    const live = await storeWith(inventory);
    await live.store.fixBy.recording(live.org, cause, change(live.store, live.org));
    await live.store.fixBy.recorded(live.org);
    const [expected] = live.store.fixBy.changes.list(live.org);
    live.store.close();
    expect(expected).toMatchObject({ cause });
    expect(expected!.findings_changed).toBeGreaterThan(0);

    // On disk, closed as soon as the change is written: the comparison never runs.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-fix-by-pending-'));
    folders.push(dataDir);
    const first = await storeWith(inventory, dataDir);
    await first.store.fixBy.columns(first.org);
    await first.store.fixBy.recording(first.org, cause, change(first.store, first.org));
    first.store.close();

    const reopened = await storeWith(inventory, dataDir);
    expect(reopened.org).toBe(first.org);
    // The change is there, its record pending, the feed without it.
    expect((await reopened.store.endpointContext.contextOf(reopened.org, endpointId))?.criticality).toBe('high');
    expect(reopened.store.fixBy.changes.pendingOf(reopened.org)).toHaveLength(1);
    expect(reopened.store.fixBy.changes.list(reopened.org)).toEqual([]);
    await reopened.store.fixBy.completePending(reopened.org);
    expect(reopened.store.fixBy.changes.pendingOf(reopened.org)).toEqual([]);
    const [recorded] = reopened.store.fixBy.changes.list(reopened.org);
    expect({ ...recorded, id: 0 }).toEqual({ ...expected, id: 0 });
    reopened.store.close();
  });

  it('leaves nothing pending when the change is refused', async () => {
    const { store, org } = await storeWith(smallInventory(1));
    const refused = store.fixBy.recording(org, 'refused', () => {
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    expect(store.fixBy.changes.pendingOf(org)).toEqual([]);
    store.close();
  });
});
