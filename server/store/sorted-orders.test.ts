import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConsoleQuery, collectionSchemas } from '../../contracts/collections.js';
import type { Inventory } from '../../contracts/inventory.js';
import { demoInventory } from '../test/support/fixtures.js';
import { findingMatchesText, inSortOrder } from '../test/support/sort-oracle.js';
import { Store } from './store.js';
import { sliceMs } from './time-slices.js';

/**
 * The console's sorted and searched findings, computed in chunks of 2,048 rows and slices of
 * time (sorted-orders.ts, finding-search.ts), against the order the API promises written
 * plainly (sort-oracle.ts), over the 20,000 findings of a demo dataset: many chunks, and their
 * boundaries.
 */
const inventory: Inventory = demoInventory(5);

let store: Store;
let org: number;
beforeAll(async () => {
  store = await Store.open();
  org = store.write((writes) => {
    const organization = store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' });
    writes.replace(organization.rowId, inventory);
    return organization.rowId;
  });
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
      store.write((writes) => writes.merge(org, { endpoints: [], remediationTargets: [], scopes: [], findings: [finding] }));
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
