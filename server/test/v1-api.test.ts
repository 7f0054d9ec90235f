import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet } from './support/api-client.js';
import { demoInventory, inDefaultOrder } from './support/fixtures.js';
import { type TestServer, startTestServer } from './support/test-server.js';

let server: TestServer;
let key: string;
const inventory = demoInventory(1);
const get = (path: string, options: { method?: string; headers?: Record<string, string> } = {}) =>
  apiGet(server.url, path, { key, ...options });

beforeAll(async () => {
  server = await startTestServer([{ slug: 'acme', inventory }]);
  key = server.orgs[0]!.apiKey;
});
afterAll(() => server.close());

type Item = { id: string; created_at: string };
const lists: { path: string; items: () => readonly Item[] }[] = [
  { path: '/v1/endpoints', items: () => inventory.endpoints },
  { path: '/v1/remediation-targets', items: () => inventory.remediationTargets },
  { path: '/v1/scopes', items: () => inventory.scopes },
  { path: '/v1/vulnerability-findings', items: () => inventory.findings },
];

describe('health and OpenAPI document', () => {
  it('answers /health without a key, revealing nothing', async () => {
    const response = await apiGet(server.url, '/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('serves the OpenAPI document without a key', async () => {
    const response = await apiGet(server.url, '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(Object.keys(response.body.paths)).toEqual(
      expect.arrayContaining(['/v1/endpoints', '/v1/endpoints/{endpointId}', '/v1/vulnerability-findings/{findingId}', '/health']),
    );
  });

  it('answers 503 on /health when the store does not answer', async () => {
    const other = await startTestServer([]);
    other.store.close();
    const response = await apiGet(other.url, '/health');
    expect(response.status).toBe(503);
    expect(response.body.error).toMatch(/store/);
    await other.server.close();
  });
});

describe('authentication', () => {
  const paths = [
    '/v1/endpoints',
    '/v1/endpoints/not-a-uuid',
    '/v1/remediation-targets?limit=0',
    '/v1/scopes/00000000-0000-4000-8000-000000000000',
    '/v1/vulnerability-findings?isKev=maybe',
    '/v1/agent/config',
    '/v1/no-such-thing',
  ];
  it.each(paths)('answers 401 with WWW-Authenticate to %s without a key, whatever else is wrong', async (path) => {
    const response = await apiGet(server.url, path);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(response.body).toEqual({ error: expect.stringMatching(/API key/) });
  });

  it('answers 401 to an invalid key, a malformed header, and a POST without a key', async () => {
    for (const authorization of ['Bearer rc_wrong', 'Basic abc', 'Bearer', `Bearer ${key}x`, key]) {
      const response = await apiGet(server.url, '/v1/endpoints', { headers: { Authorization: authorization } });
      expect(response.status, authorization).toBe(401);
    }
    expect((await apiGet(server.url, '/v1/endpoints', { method: 'POST' })).status).toBe(401);
  });

  it('accepts the scheme in any case', async () => {
    const response = await apiGet(server.url, '/v1/scopes', { headers: { Authorization: `bearer ${key}` } });
    expect(response.status).toBe(200);
  });

  it('refuses a revoked key', async () => {
    const organization = server.orgs[0]!.organization;
    const created = server.store.write(() => server.store.apiKeys.create(organization.rowId, 'to revoke'), { changes: ['api-keys'] });
    expect((await apiGet(server.url, '/v1/scopes', { key: created.key })).status).toBe(200);
    server.store.write(() => server.store.apiKeys.revoke(organization.rowId, created.info.id), { changes: ['api-keys'] });
    expect((await apiGet(server.url, '/v1/scopes', { key: created.key })).status).toBe(401);
  });
});

describe.each(lists)('list $path', ({ path, items }) => {
  it('pages with limit 50 and offset 0 by default, in created_at then id order, with the total', async () => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const expected = inDefaultOrder(items());
    expect(response.body.total).toBe(expected.length);
    expect(response.body.limit).toBe(50);
    expect(response.body.offset).toBe(0);
    expect(response.body.data).toEqual(expected.slice(0, 50));
  });

  it('honours limit and offset, including past the end', async () => {
    const expected = inDefaultOrder(items());
    const response = await get(`${path}?limit=7&offset=5`);
    expect(response.body.data).toEqual(expected.slice(5, 12));
    expect(response.body).toMatchObject({ limit: 7, offset: 5, total: expected.length });
    const last = await get(`${path}?limit=100&offset=${expected.length - 3}`);
    expect(last.body.data).toEqual(expected.slice(-3));
    const beyond = await get(`${path}?offset=${expected.length + 1000}`);
    expect(beyond.body).toMatchObject({ data: [], total: expected.length, offset: expected.length + 1000 });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=1e3', 'offset'],
    ['offset=x', 'offset'],
    ['limit=5&limit=6', 'limit'],
    ['offset=5&offset=6', 'offset'],
    ['offset=5&offset', 'offset'],
    ['offset=5&limit=0', 'limit'],
    ['limit=abc&offset=3', 'limit'],
    ['offset=99999999999999999', 'offset'],
    ['updatedSince=yesterday', 'updatedSince'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    const response = await get(`${path}?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(`"${name}"`);
  });

  it('answers the same page whatever the order and spelling of its offset', async () => {
    const expected = inDefaultOrder(items()).slice(5, 12);
    for (const query of ['limit=7&offset=5', 'offset=5&limit=7', 'offset=05&limit=7&', 'limit=7&%6Fffset=5', 'limit=7&offset=5&colour=offset']) {
      const response = await get(`${path}?${query}`);
      expect(response.body.data, query).toEqual(expected);
      expect(response.body, query).toMatchObject({ limit: 7, offset: 5 });
    }
  });

  it('ignores unknown parameters', async () => {
    const response = await get(`${path}?limit=3&colour=blue&limit_=9`);
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(3);
  });

  it('answers a single get equal to the list item, 404 for an unknown id and 400 for a malformed one', async () => {
    const item = inDefaultOrder(items())[3]!;
    expect((await get(`${path}/${item.id}`)).body).toEqual(item);
    expect((await get(`${path}/${item.id.toUpperCase()}`)).body).toEqual(item);
    const missing = await get(`${path}/00000000-0000-4000-8000-000000000000`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/not found/);
    for (const bad of ['123', 'not-a-uuid', `${item.id}x`, '%20']) {
      const response = await get(`${path}/${bad}`);
      expect(response.status, bad).toBe(400);
      expect(response.body.error).toMatch(/must be a UUID/);
    }
  });

  it('answers 405 with Allow to other methods, and HEAD like GET without a body', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const response = await get(path, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(response.body.error).toContain(method);
    }
    const head = await get(path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('sends no-store and nosniff', async () => {
    const response = await get(path);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('filters', () => {
  const endpoint = inventory.endpoints.find((e) => inventory.findings.some((f) => f.endpoint_id === e.id))!;
  const target = inventory.remediationTargets.find((t) => inventory.findings.some((f) => f.remediation_target_id === t.id))!;
  const cve = inventory.findings[0]!.cve_id;

  async function expectFilter<T extends { id: string; created_at: string }>(path: string, all: readonly T[], keep: (item: T) => boolean) {
    const expected = inDefaultOrder(all.filter(keep));
    const response = await get(`${path}${path.includes('?') ? '&' : '?'}limit=100`);
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(expected.length);
    expect(response.body.data.map((item: T) => item.id)).toEqual(expected.slice(0, 100).map((item) => item.id));
  }

  it.each(['macos', 'windows', 'linux'] as const)('endpoints by osFamily=%s', (family) =>
    expectFilter(`/v1/endpoints?osFamily=${family}`, inventory.endpoints, (e) => e.operating_system.family === family));
  it.each([true, false])('endpoints by hasAgent=%s', (hasAgent) =>
    expectFilter(`/v1/endpoints?hasAgent=${hasAgent}`, inventory.endpoints, (e) => (e.agent_id !== null) === hasAgent));
  it('endpoints by osFamily and hasAgent together', () =>
    expectFilter('/v1/endpoints?osFamily=windows&hasAgent=false', inventory.endpoints,
      (e) => e.operating_system.family === 'windows' && e.agent_id === null));

  it('remediation targets by endpointId, targetType and status', async () => {
    await expectFilter(`/v1/remediation-targets?endpointId=${endpoint.id}`, inventory.remediationTargets, (t) => t.endpoint_id === endpoint.id);
    for (const type of ['software', 'os_patch', 'configuration', 'service']) {
      await expectFilter(`/v1/remediation-targets?targetType=${type}`, inventory.remediationTargets, (t) => t.target_type === type);
    }
    for (const status of ['active', 'stale', 'resolved']) {
      await expectFilter(`/v1/remediation-targets?status=${status}&targetType=software`, inventory.remediationTargets,
        (t) => t.status === status && t.target_type === 'software');
    }
  });

  it.each(['active', 'paused', 'archived'])('scopes by status=%s', (status) =>
    expectFilter(`/v1/scopes?status=${status}`, inventory.scopes, (s) => s.status === status));

  it('findings by each filter and by combinations', async () => {
    const findings = inventory.findings;
    await expectFilter(`/v1/vulnerability-findings?endpointId=${endpoint.id}`, findings, (f) => f.endpoint_id === endpoint.id);
    await expectFilter(`/v1/vulnerability-findings?remediationTargetId=${target.id}`, findings, (f) => f.remediation_target_id === target.id);
    for (const severity of ['critical', 'high', 'medium', 'low', 'info']) {
      await expectFilter(`/v1/vulnerability-findings?severity=${severity}`, findings, (f) => f.severity === severity);
    }
    await expectFilter('/v1/vulnerability-findings?status=remediated', findings, (f) => f.status === 'remediated');
    await expectFilter('/v1/vulnerability-findings?isKev=true', findings, (f) => f.is_kev);
    await expectFilter('/v1/vulnerability-findings?severity=critical&status=open&isKev=true', findings,
      (f) => f.severity === 'critical' && f.status === 'open' && f.is_kev);
    await expectFilter(`/v1/vulnerability-findings?cveId=${cve.toLowerCase()}`, findings, (f) => f.cve_id === cve);
    await expectFilter(`/v1/vulnerability-findings?cveId=${cve}&endpointId=${endpoint.id}&isKev=false`, findings,
      (f) => f.cve_id === cve && f.endpoint_id === endpoint.id && !f.is_kev);
    await expectFilter('/v1/vulnerability-findings?cveId=CVE-1999-0001', findings, () => false);
  });

  it('filters by updatedSince, an instant whatever its offset', async () => {
    const sorted = [...inventory.endpoints].sort((a, b) => Date.parse(a.updated_at) - Date.parse(b.updated_at));
    const since = sorted[sorted.length - 10]!.updated_at;
    const withOffset = new Date(Date.parse(since)).toISOString().replace('Z', '+00:00');
    await expectFilter(`/v1/endpoints?updatedSince=${encodeURIComponent(withOffset)}`, inventory.endpoints,
      (e) => Date.parse(e.updated_at) >= Date.parse(since));
  });

  it.each([
    ['/v1/endpoints?osFamily=other', 'osFamily'],
    ['/v1/endpoints?osFamily=MacOS', 'osFamily'],
    ['/v1/endpoints?hasAgent=1', 'hasAgent'],
    ['/v1/endpoints?hasAgent=TRUE', 'hasAgent'],
    ['/v1/remediation-targets?endpointId=abc', 'endpointId'],
    ['/v1/remediation-targets?targetType=firmware', 'targetType'],
    ['/v1/remediation-targets?status=open', 'status'],
    ['/v1/scopes?status=deleted', 'status'],
    ['/v1/vulnerability-findings?remediationTargetId=1', 'remediationTargetId'],
    ['/v1/vulnerability-findings?severity=severe', 'severity'],
    ['/v1/vulnerability-findings?status=closed', 'status'],
    ['/v1/vulnerability-findings?isKev=yes', 'isKev'],
    ['/v1/vulnerability-findings?severity=high&severity=low', 'severity'],
  ])('answers 400 naming the parameter: %s', async (path, name) => {
    const response = await get(path);
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(`"${name}"`);
  });
});

describe('unknown paths', () => {
  it('answers 404 with an error body', async () => {
    for (const path of ['/v1/nothing', '/v1/endpoints/a/b', '/nothing-here.json']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.body).toEqual({ error: expect.any(String) });
    }
  });
});
