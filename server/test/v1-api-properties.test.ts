import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, rawRequest } from './support/api-client.js';
import { inDefaultOrder, smallInventory } from './support/fixtures.js';
import { type TestServer, startTestServer } from './support/test-server.js';

let server: TestServer;
let key: string;
const inventory = smallInventory(7);

beforeAll(async () => {
  server = await startTestServer([{ slug: 'acme', inventory }]);
  key = server.orgs[0]!.apiKey;
});
afterAll(() => server.close());

type Item = { id: string; created_at: string } & Record<string, unknown>;

/** Pages through a list with `limit`, returning every item seen and the totals reported. */
async function pageThrough(path: string, limit: number) {
  const seen: Item[] = [];
  const totals = new Set<number>();
  for (let offset = 0; ; offset += limit) {
    const response = await apiGet(server.url, `${path}${path.includes('?') ? '&' : '?'}limit=${limit}&offset=${offset}`, { key });
    expect(response.status).toBe(200);
    totals.add(response.body.total);
    seen.push(...response.body.data);
    if (response.body.data.length < limit) break;
  }
  return { seen, totals };
}

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const endpointIds = inventory.endpoints.map((e) => e.id);
const targetIds = inventory.remediationTargets.map((t) => t.id);
const cveIds = [...new Set(inventory.findings.map((f) => f.cve_id))];

const lists = {
  endpoints: {
    path: '/v1/endpoints',
    items: inventory.endpoints as unknown as Item[],
    filters: fc.record({ osFamily: optional(fc.constantFrom('macos', 'windows', 'linux')), hasAgent: optional(fc.boolean()) }),
    matches: (e: any, q: any) =>
      (q.osFamily === undefined || e.operating_system.family === q.osFamily) &&
      (q.hasAgent === undefined || (e.agent_id !== null) === q.hasAgent),
  },
  remediationTargets: {
    path: '/v1/remediation-targets',
    items: inventory.remediationTargets as unknown as Item[],
    filters: fc.record({
      endpointId: optional(fc.constantFrom(...endpointIds)),
      targetType: optional(fc.constantFrom('software', 'os_patch', 'configuration', 'service')),
      status: optional(fc.constantFrom('active', 'stale', 'resolved')),
    }),
    matches: (t: any, q: any) =>
      (q.endpointId === undefined || t.endpoint_id === q.endpointId) &&
      (q.targetType === undefined || t.target_type === q.targetType) &&
      (q.status === undefined || t.status === q.status),
  },
  scopes: {
    path: '/v1/scopes',
    items: inventory.scopes as unknown as Item[],
    filters: fc.record({ status: optional(fc.constantFrom('active', 'paused', 'archived')) }),
    matches: (s: any, q: any) => q.status === undefined || s.status === q.status,
  },
  findings: {
    path: '/v1/vulnerability-findings',
    items: inventory.findings as unknown as Item[],
    filters: fc.record({
      endpointId: optional(fc.constantFrom(...endpointIds)),
      remediationTargetId: optional(fc.constantFrom(...targetIds)),
      severity: optional(fc.constantFrom('critical', 'high', 'medium', 'low', 'info')),
      status: optional(fc.constantFrom('open', 'remediated')),
      isKev: optional(fc.boolean()),
      cveId: optional(fc.constantFrom(...cveIds).map((id) => (id.length % 2 ? id.toLowerCase() : id))),
    }),
    matches: (f: any, q: any) =>
      (q.endpointId === undefined || f.endpoint_id === q.endpointId) &&
      (q.remediationTargetId === undefined || f.remediation_target_id === q.remediationTargetId) &&
      (q.severity === undefined || f.severity === q.severity) &&
      (q.status === undefined || f.status === q.status) &&
      (q.isKev === undefined || f.is_kev === q.isKev) &&
      (q.cveId === undefined || f.cve_id.toUpperCase() === q.cveId.toUpperCase()),
  },
};

function toQuery(filters: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value !== undefined) params.set(name, String(value));
  return params.toString();
}

describe.each(Object.entries(lists))('paging through %s', (_name, list) => {
  it('returns each matching item exactly once, in order, with total equal to their number', async () => {
    await fc.assert(
      fc.asyncProperty(list.filters, fc.integer({ min: 1, max: 100 }), async (filters, limit) => {
        const query = toQuery(filters);
        const expected = inDefaultOrder(list.items.filter((item) => list.matches(item, filters)));
        const { seen, totals } = await pageThrough(`${list.path}${query ? `?${query}` : ''}`, Math.max(limit, Math.ceil(expected.length / 40)));
        expect([...totals]).toEqual([expected.length]);
        expect(seen.map((item) => item.id)).toEqual(expected.map((item) => item.id));
        expect(new Set(seen.map((item) => item.id)).size).toBe(seen.length);
        for (const item of seen) expect(list.matches(item, filters)).toBe(true);
      }),
      { numRuns: 15 },
    );
  });

  it('answers a single get equal to the list item', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: list.items.length - 1 }), async (index) => {
        const item = inDefaultOrder(list.items)[index]!;
        const page = await apiGet(server.url, `${list.path}?limit=1&offset=${index}`, { key });
        const single = await apiGet(server.url, `${list.path}/${item.id}`, { key });
        expect(single.body).toEqual(page.body.data[0]);
        expect(single.body).toEqual(item);
      }),
      { numRuns: 15 },
    );
  });
});

describe('malformed requests never make the server fail', () => {
  const paths = ['/v1/endpoints', '/v1/remediation-targets', '/v1/scopes', '/v1/vulnerability-findings'];
  const names = ['limit', 'offset', 'osFamily', 'hasAgent', 'endpointId', 'targetType', 'status', 'remediationTargetId', 'severity', 'isKev', 'cveId', 'updatedSince', 'x'];
  const junk = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.constantFrom('%', '%zz', '%00', '%E0%A4%A', '-0', '1e2', '99999999999999999999', 'null', '[]', '{}', '..%2f', 'true%00'),
  );

  it('answers every random query string with 200 or 400 and a JSON body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.array(fc.tuple(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 8 })), junk), { maxLength: 5 }),
        async (path, pairs) => {
          // Raw bytes as a client might send them: only what HTTP cannot carry at all is escaped.
          const escape = (text: string) => text.replace(/[^\x21-\x7e]|#/gu, (c) => encodeURIComponent(c));
          const query = pairs.map(([name, value]) => `${escape(name)}=${escape(value)}`).join('&');
          const response = await rawRequest(server.port, { path: `${path}?${query}`, headers: { authorization: `Bearer ${key}` } });
          expect([200, 400, 414]).toContain(response.status);
          const body = JSON.parse(response.body);
          if (response.status !== 200) expect(body).toEqual({ error: expect.any(String) });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers every random path id with 400 or 404, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), junk, async (path, id) => {
        const encoded = encodeURIComponent(id).replace(/%25/g, '%');
        const response = await rawRequest(server.port, { path: `${path}/${encoded || 'x'}`, headers: { authorization: `Bearer ${key}` } });
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(JSON.parse(response.body)).toEqual({ error: expect.any(String) });
      }),
      { numRuns: 200 },
    );
  });

  it('answers random headers without failing', async () => {
    const headerValue = fc.string({ maxLength: 60 }).map((v) => v.replace(/[^\x20-\x7e]/g, ''));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.dictionary(fc.constantFrom('authorization', 'accept', 'content-type', 'x-console-token', 'range', 'if-none-match', 'origin', 'cookie'), headerValue),
        async (path, headers) => {
          const response = await rawRequest(server.port, { path, headers });
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});
