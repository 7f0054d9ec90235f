import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConsoleQuery, collectionSchemas } from '../../../contracts/collections.js';
import type { Inventory } from '../../../contracts/inventory.js';
import { demoInventory } from '../../test/support/fixtures.js';
import { findingMatchesText, inSortOrder } from '../../test/support/sort-oracle.js';
import { Store } from '../store.js';
import { sliceMs } from '../derived/time-slices.js';

/**
 * The console's sorted and searched findings, computed in chunks of 2,048 rows and slices of
 * time (sorted-orders.ts, finding-search.ts), against the order the API promises written
 * plainly (sort-oracle.ts), over the 20,000 findings of a demo dataset: many chunks, and their
 * boundaries.
 */
const inventory: Inventory = demoInventory(5);

let store: Store;
let org: number;
let orgInventory: number;
beforeAll(async () => {
  store = await Store.open();
  ({ rowId: org, inventoryId: orgInventory } = store.write((writes) => {
    const organization = store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' });
    writes.replace(organization.inventoryId, inventory);
    return organization;
  }, { changes: ['organizations', 'inventory'] }));
});
afterAll(() => store.close());
afterEach(() => vi.restoreAllMocks());

const query = (search: string): ConsoleQuery<'findings'> => collectionSchemas.findings.console.parse(Object.fromEntries(new URLSearchParams(search)));

async function everyId(search: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const chunk of store.console.listAllIds(org, 'findings', query(search), 5000)) ids.push(...chunk);
  return ids;
}

describe('sorted and searched findings', () => {
  it.each(['cvss_score', '-cvss_score', 'cve_id', '-first_detected_at', 'severity', '-status', 'created_at'])('sort=%s lists every finding in order', async (sort) => {
    expect(await everyId(`sort=${sort}`)).toEqual(inSortOrder('findings', sort, inventory.findings).map((finding) => finding.id));
  });

  it.each([
    ['lt-eng', 'created_at'],
    ['LT-ENG', '-cvss_score'],
    ['cve-2021', '-created_at'],
    ['cve-2021', 'first_detected_at'],
    ['remote', 'cve_id'],
  ])('q=%s, sort=%s: the matching findings, open ones only too, in order, with their total', async (q, sort) => {
    for (const status of [undefined, 'open']) {
      const matching = inventory.findings.filter((finding) => findingMatchesText(inventory, finding, q) && (status === undefined || finding.status === status));
      const expected = inSortOrder('findings', sort, matching).map((finding) => finding.id);
      const search = `q=${q}&sort=${sort}${status ? `&status=${status}` : ''}`;
      expect(expected.length).toBeGreaterThan(0);
      expect(await everyId(search)).toEqual(expected);
      const page = await store.console.listIds(org, 'findings', query(`${search}&limit=50&offset=${Math.floor(expected.length / 2)}`));
      expect(page).toEqual({ ids: expected.slice(Math.floor(expected.length / 2), Math.floor(expected.length / 2) + 50), total: expected.length });
    }
  });

  it('answers for the data after a write that lands while an order is computed', async () => {
    // Every look at the clock finds a slice's time gone: the computation pauses at every chunk.
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (now += sliceMs));
    const [first] = inventory.findings;
    const changed = { ...first!, cvss_score: 10.5 };
    const write = (finding: Inventory['findings'][number]) =>
      store.write((writes) => writes.merge(orgInventory, { endpoints: [], remediationTargets: [], scopes: [], findings: [finding] }), { changes: ['inventory'] });
    // A write first, so that the order kept by the tests above is dropped.
    write(first!);
    let answered = false;
    const pending = store.console.listIds(org, 'findings', query('sort=-cvss_score&limit=3')).finally(() => (answered = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    write(changed);
    try {
      const page = await pending;
      expect(page.ids[0]).toBe(changed.id);
      expect(page.total).toBe(inventory.findings.length);
    } finally {
      write(first!);
    }
  });
});

describe('a sync that swaps the inventory while an order is computed', () => {
  // The next replica: the first finding scored highest, the last thousand gone.
  const [first] = inventory.findings;
  const next: Inventory = { ...inventory, findings: [{ ...first!, cvss_score: 10.5 }, ...inventory.findings.slice(1, -1_000)] };
  const expected = (sort: string, q?: string) =>
    inSortOrder('findings', sort, q === undefined ? next.findings : next.findings.filter((finding) => findingMatchesText(next, finding, q))).map(
      (finding) => finding.id,
    );

  it.each([
    ['sort=-cvss_score', undefined],
    ['sort=created_at', undefined],
    ['sort=cve_id&q=cve-2021', 'cve-2021'],
  ])('%s answers for the inventory swapped in, not the one collected behind it', async (search, q) => {
    const swapped = await Store.open();
    try {
      const organization = swapped.write((writes) => {
        const inserted = swapped.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' });
        writes.replace(inserted.inventoryId, inventory);
        return inserted;
      }, { changes: ['organizations', 'inventory'] });
      // Staged as a full sync stages it: quietly, under an inventory nobody points at.
      const staged = swapped.inventories.stage();
      swapped.write((writes) => writes.replace(staged, next), { changes: ['staged-inventory'] });
      // Every look at the clock finds a slice's time gone: the computation pauses at every chunk.
      let now = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => (now += sliceMs));
      // The request's computation starts on the current inventory and pauses at its first chunk;
      // then the swap, and the collection of the replaced inventory, whose deletes keep the version.
      const pending = swapped.console.listIds(organization.rowId, 'findings', query(`${search}&limit=3`));
      swapped.write(() => swapped.organizations.setInventory(organization.rowId, staged), { changes: ['organizations', 'inventory'] });
      swapped.inventories.release(staged);
      const collected = swapped.inventories.collect();
      const page = await pending;
      const sort = new URLSearchParams(search).get('sort')!;
      expect(page).toEqual({ ids: expected(sort, q).slice(0, 3), total: expected(sort, q).length });
      await collected;
      expect(swapped.inventories.orphans()).toEqual([]);
    } finally {
      swapped.close();
    }
  });
});
