import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleInventory } from './support/console-inventory.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { consoleLists, findingMatchesText, inSortOrder, sortParameters } from './support/sort-oracle.js';

let server: ConsoleTestServer;
const inventory = consoleInventory();

beforeAll(async () => {
  server = await startConsoleTestServer([{ slug: 'acme', inventory }]);
});
afterAll(() => server.close());

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

/** A status filter each list understands, and whether an item passes it. */
const statuses: Record<string, readonly string[]> = {
  endpoints: [],
  remediationTargets: ['active', 'stale', 'resolved'],
  scopes: ['active', 'paused', 'archived'],
  findings: ['open', 'remediated'],
};

describe.each(consoleLists(inventory))('paging through the sorted $path', ({ path, collection, items }) => {
  it('yields each matching item exactly once, in the sort order, with a steady total', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...sortParameters(collection)),
        fc.integer({ min: 1, max: 60 }),
        statuses[collection]!.length ? optional(fc.constantFrom(...statuses[collection]!)) : fc.constant(undefined),
        collection === 'findings' ? optional(fc.constantFrom('host-0', 'cve-2024-101', 'finding 2', 'x')) : fc.constant(undefined),
        async (sort, limit, status, q) => {
          const matching = items.filter(
            (item) =>
              (status === undefined || (item as { status?: string }).status === status) &&
              (q === undefined || findingMatchesText(inventory, item as (typeof inventory.findings)[number], q)),
          );
          const expected = inSortOrder(collection, sort, matching).map((item) => item.id);
          const query = new URLSearchParams({ sort, ...(status ? { status } : {}), ...(q ? { q } : {}) });
          const seen: string[] = [];
          const totals = new Set<number>();
          for (let offset = 0; offset <= expected.length; offset += limit) {
            const response = await server.app(`/orgs/acme/${path}?${query}&limit=${limit}&offset=${offset}`);
            expect(response.status).toBe(200);
            totals.add(response.body.total);
            seen.push(...response.body.data.map((item: { id: string }) => item.id));
          }
          expect([...totals]).toEqual([expected.length]);
          expect(new Set(seen).size).toBe(seen.length);
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: 12 },
    );
  });
});
