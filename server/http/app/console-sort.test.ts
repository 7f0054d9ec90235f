import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleInventory } from '../../test/support/console-inventory.js';
import { type ConsoleTestServer, startConsoleTestServer } from '../../test/support/console-test-server.js';
import { consoleLists, findingMatchesText, inSortOrder, sortParameters } from '../../test/support/sort-oracle.js';

let server: ConsoleTestServer;
const inventory = consoleInventory();

/** Names whose UTF-16 order differs from SQLite's (UTF-8, code point) order: the emoji is a surrogate pair. */
const names = ['\u{1F600} smile', '\uFF5E wave', 'Zulu', 'alpha', 'Alpha', 'ß'];

beforeAll(async () => {
  const unicode = consoleInventory();
  unicode.scopes = unicode.scopes.slice(0, names.length).map((scope, i) => ({ ...scope, name: names[i]! }));
  server = await startConsoleTestServer([
    { slug: 'acme', inventory },
    { slug: 'unicode', inventory: unicode },
  ]);
});
afterAll(() => server.close());

/** Every item of a console list, a page of `limit` at a time, with the totals it reported. */
async function everyPage(path: string, limit = 100) {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let offset = 0; ; offset += limit) {
    const response = await server.app(`/orgs/acme/${path}${path.includes('?') ? '&' : '?'}limit=${limit}&offset=${offset}`);
    expect(response.status).toBe(200);
    totals.add(response.body.total);
    ids.push(...response.body.data.map((item: { id: string }) => item.id));
    if (response.body.data.length < limit) return { ids, totals: [...totals] };
  }
}

describe.each(consoleLists(inventory))('sorting $path', ({ path, collection, items }) => {
  it.each(sortParameters(collection))('sort=%s orders by the column, then id, over every page', async (sort) => {
    const expected = inSortOrder(collection, sort, items).map((item) => item.id);
    const { ids, totals } = await everyPage(`${path}?sort=${sort}`, 7);
    expect(totals).toEqual([items.length]);
    expect(ids).toEqual(expected);
  });

  it('exports the CSV in the same order', async () => {
    const sort = sortParameters(collection).at(-3)!;
    const response = await fetch(`${server.url}/app/orgs/acme/export/${path}.csv?sort=${sort}`, { headers: { 'x-console-token': server.consoleToken } });
    const lines = (await response.text()).trim().split('\r\n');
    expect(lines.slice(1).map((line) => line.slice(0, 36))).toEqual(inSortOrder(collection, sort, items).map((item) => item.id));
  });

  it('refuses an unknown sort with a message listing the valid ones', async () => {
    for (const sort of ['ip', '--created_at', 'created_at,id', '']) {
      const response = await server.app(`/orgs/acme/${path}?sort=${encodeURIComponent(sort)}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe(`Invalid query parameter "sort": must be one of ${sortParameters(collection).join(', ')}`);
    }
  });
});

describe('sorting text', () => {
  it('compares names without ASCII case, by code point as SQLite does, then by id', async () => {
    const response = await server.app('/orgs/unicode/scopes?sort=name');
    expect(response.body.data.map((scope: { name: string }) => scope.name)).toEqual(['alpha', 'Alpha', 'Zulu', 'ß', '\uFF5E wave', '\u{1F600} smile']);
  });
});

describe('free text over findings', () => {
  it.each(['cve-2024-1003', 'FINDING 1', 'host-05', 'inding 29', '2024-10', 'no such thing', '%'])('q=%s matches the CVE id, title or endpoint hostname', async (q) => {
    const expected = inSortOrder('findings', 'created_at', inventory.findings.filter((f) => findingMatchesText(inventory, f, q)));
    const { ids, totals } = await everyPage(`vulnerability-findings?q=${encodeURIComponent(q)}`);
    expect(totals).toEqual([expected.length]);
    expect(ids).toEqual(expected.map((f) => f.id));
  });

  it('combines with the filters and a sort', async () => {
    const expected = inSortOrder(
      'findings',
      '-cvss_score',
      inventory.findings.filter((f) => f.status === 'open' && findingMatchesText(inventory, f, 'host-1')),
    );
    expect(expected.length).toBeGreaterThan(10);
    const { ids } = await everyPage('vulnerability-findings?q=host-1&status=open&sort=-cvss_score', 9);
    expect(ids).toEqual(expected.map((f) => f.id));
  });
});

describe('the findings view’s first pages, riskiest first', () => {
  it('are answered before the order of every finding is kept, as that order answers them after', async () => {
    const open = inventory.findings.filter((f) => f.status === 'open');
    const expected = inSortOrder('findings', '-risk', open).map((f) => f.id);
    const kev = open.filter((f) => f.is_kev).length;
    expect(kev).toBeGreaterThan(6);
    // A server of its own: nothing has asked for this order yet, so the first pages among the KEV findings come before it.
    const fresh = await startConsoleTestServer([{ slug: 'acme', inventory }]);
    try {
      const page = async (offset: number) => {
        const response = await fresh.app(`/orgs/acme/vulnerability-findings?status=open&sort=-risk&limit=3&offset=${offset}`);
        expect(response.status).toBe(200);
        expect(response.body.total).toBe(open.length);
        return response.body.data.map((item: { id: string }) => item.id);
      };
      const first = [...(await page(0)), ...(await page(3))];
      expect(first).toEqual(expected.slice(0, 6));
      // Past the KEV findings, the kept order answers; then it answers the first pages too.
      expect(await page(kev)).toEqual(expected.slice(kev, kev + 3));
      expect([...(await page(0)), ...(await page(3))]).toEqual(first);
    } finally {
      await fresh.close();
    }
  });
});
