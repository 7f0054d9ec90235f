import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { smallInventory } from './support/fixtures.js';
import { coverageColumns } from '../store/basics/coverage-columns.js';
import { exceptedFindings } from '../store/basics/excepted-findings.js';
import { Store } from '../store/store.js';
import { DerivedCache } from '../store/derived/derived-cache.js';
import { onOneVersion } from '../store/derived/one-version.js';

// The consistency rule on the product's own store: values read through onOneVersion are of one
// version of the kinds their definitions declare, whatever write lands between them.
const stores: Store[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

async function storeWith(endpoints: number) {
  const store = await Store.open();
  stores.push(store);
  const organization = store.write((writes) => {
    const created = store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' });
    writes.replace(created.inventoryId, smallInventory(3, endpoints));
    return created;
  }, { changes: ['organizations', 'inventory'] });
  return { store, org: organization.rowId, inventoryId: organization.inventoryId };
}

describe('onOneVersion', () => {
  it('reads the excepted findings and the coverage columns again when a write of the inventory lands between them', async () => {
    const { store, org, inventoryId } = await storeWith(10);
    const smaller = smallInventory(4, 4);
    let reads = 0;
    const read = await onOneVersion(store.changes, [exceptedFindings, coverageColumns], async () => {
      reads++;
      const excepted = await store.exceptions.excepted(org);
      // The first read is overtaken by a sync's write of the inventory.
      if (reads === 1) store.write((writes) => writes.replace(inventoryId, smaller), { changes: ['inventory'] });
      const columns = await store.coverage.currentColumns(org);
      return { excepted, columns };
    });
    expect(reads).toBe(2);
    expect(read.columns.count).toBe(smaller.findings.length);
    expect(read.excepted.key).toBe(store.exceptions.keyOf(org));
  });

  it('keeps what it read across a write of another kind', async () => {
    const { store, org } = await storeWith(10);
    let reads = 0;
    await onOneVersion(store.changes, [exceptedFindings, coverageColumns], async () => {
      reads++;
      await store.exceptions.excepted(org);
      store.apiKeys.create(org, 'landed between');
      return store.coverage.currentColumns(org);
    });
    expect(reads).toBe(1);
  });

  it('reads again when the read throws VersionMoved, and passes any other error on', async () => {
    const { store } = await storeWith(2);
    let reads = 0;
    const value = await onOneVersion(store.changes, [coverageColumns], async (version) => {
      reads++;
      if (reads === 1) {
        store.write(() => undefined, { changes: ['inventory'] });
        version.check();
      }
      return 'read';
    });
    expect([value, reads]).toEqual(['read', 2]);
    await expect(onOneVersion(store.changes, [coverageColumns], () => Promise.reject(new Error('no such scope')))).rejects.toThrow('no such scope');
  });

  it("raises a record's kinds again when the write it ran inside ends, committed or rolled back", async () => {
    const { store } = await storeWith(2);
    const before = store.changes.written(['api-keys']);
    let inside = 0;
    expect(() =>
      store.write(() => {
        store.write(() => undefined, { changes: ['api-keys'] });
        inside = store.changes.written(['api-keys']);
        throw new Error('rolled back');
      }, { changes: ['sync-records'] }),
    ).toThrow('rolled back');
    expect(inside).toBeGreaterThan(before);
    expect(store.changes.written(['api-keys'])).toBeGreaterThan(inside);
  });

  it("reads a value's kinds from its definition only: the type checker refuses kinds written by hand", async () => {
    const { store } = await storeWith(2);
    const handWritten = () => {
      // @ts-expect-error a cache is built from a value's definition, not from a name and kinds
      new DerivedCache(store.changes, { name: 'by hand', dependsOn: ['inventory'] }, { bound: { entries: 1 } });
      // @ts-expect-error a version is of values, by their definitions
      store.changes.version(['inventory']);
      // @ts-expect-error nor are several values read on one version by their kinds
      return onOneVersion(store.changes, [['inventory']], async () => undefined);
    };
    // Checked by tsc (npm run typecheck), not run; the definitions carry what is read instead.
    expect(typeof handWritten).toBe('function');
    expect(new DerivedCache(store.changes, coverageColumns, { bound: { entries: 1 } }).dependsOn).toEqual(['inventory']);
  });

  it('finds every definition declared once, at the top of the module of its value, under a name of its own', () => {
    const server = path.resolve(import.meta.dirname, '..');
    const modules = fs.readdirSync(server, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith('test/'));
    const names: string[] = [];
    for (const file of modules) {
      if (file === path.join('store', 'derived', 'change-kinds.ts')) continue;
      const text = fs.readFileSync(path.join(server, file), 'utf8');
      const calls = text.match(/derivedValue\(/g)?.length ?? 0;
      const declared = [...text.matchAll(/^(?:export )?const \w+ = derivedValue\('([^']+)'/gm)].map((match) => match[1]!);
      expect(declared.length, `${file}: derivedValue called other than in a top-level declaration`).toBe(calls);
      names.push(...declared);
    }
    expect(names.length).toBeGreaterThan(25);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });
});
