import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../http/create-http-app.js';
import { acceptedHosts } from '../http/loopback-guard.js';
import { V1Answers } from '../http/v1/v1-answers.js';
import { v1FastPath } from '../http/v1/v1-fast-path.js';
import { apiGet, rawRequest } from './support/api-client.js';
import { smallInventory } from './support/fixtures.js';
import { type TestServer, startTestServer } from './support/test-server.js';

let server: TestServer;
let key: string;
const inventory = smallInventory(3, 30);

beforeAll(async () => {
  server = await startTestServer([{ slug: 'acme', inventory }]);
  key = server.orgs[0]!.apiKey;
});
afterAll(() => server.close());

const orgRowId = () => server.orgs[0]!.organization.rowId;

describe('answers remembered until the data changes', () => {
  it('shows a write through the store in the next list page and get', async () => {
    const endpoint = inventory.endpoints[0]!;
    const before = await apiGet(server.url, '/v1/endpoints?limit=100', { key });
    expect(before.body.data.find((item: { id: string }) => item.id === endpoint.id).hostname).toBe(endpoint.hostname);
    expect((await apiGet(server.url, `/v1/endpoints/${endpoint.id}`, { key })).body.hostname).toBe(endpoint.hostname);

    const renamed = { ...endpoint, hostname: 'renamed-by-a-sync', updated_at: new Date().toISOString() };
    server.store.write((writes) => writes.merge(orgRowId(), { endpoints: [renamed], remediationTargets: [], scopes: [], findings: [] }));

    const after = await apiGet(server.url, '/v1/endpoints?limit=100', { key });
    expect(after.body.data.find((item: { id: string }) => item.id === endpoint.id).hostname).toBe('renamed-by-a-sync');
    expect((await apiGet(server.url, `/v1/endpoints/${endpoint.id}`, { key })).body.hostname).toBe('renamed-by-a-sync');
  });

  it('shows new totals once items are added', async () => {
    const before = await apiGet(server.url, '/v1/scopes?limit=1', { key });
    const scope = { ...inventory.scopes[0]!, id: '0b7a5c4e-1f3d-4e2a-9c8b-7d6e5f4a3b2c', name: 'Added after the first read' };
    server.store.write((writes) => writes.merge(orgRowId(), { endpoints: [], remediationTargets: [], scopes: [scope], findings: [] }));
    const after = await apiGet(server.url, '/v1/scopes?limit=1', { key });
    expect(after.body.total).toBe(before.body.total + 1);
    expect((await apiGet(server.url, `/v1/scopes/${scope.id}`, { key })).body.name).toBe('Added after the first read');
  });

  it('drops an answer read inside a transaction that was then rolled back', async () => {
    const endpoint = inventory.endpoints[1]!;
    const path = `/v1/endpoints/${endpoint.id}`;
    const answers = V1Answers.of(server.store);
    expect(() =>
      server.store.write((writes) => {
        writes.merge(orgRowId(), { endpoints: [{ ...endpoint, hostname: 'never-committed' }], remediationTargets: [], scopes: [], findings: [] });
        const read = answers.get(orgRowId(), 'endpoints', endpoint.id).toString();
        expect(JSON.parse(read).hostname).toBe('never-committed');
        throw new Error('the sync failed half-way');
      }),
    ).toThrow('half-way');
    expect((await apiGet(server.url, path, { key })).body.hostname).toBe(endpoint.hostname);
  });

  it('refuses a revoked key at once, though it was just used', async () => {
    const { key: second, info } = server.store.apiKeys.create(orgRowId(), 'to revoke');
    expect((await apiGet(server.url, '/v1/endpoints?limit=1', { key: second })).status).toBe(200);
    expect((await apiGet(server.url, '/v1/endpoints?limit=1', { key: second })).status).toBe(200);
    expect(server.store.apiKeys.revoke(orgRowId(), info.id)).toBe(true);
    const refused = await apiGet(server.url, '/v1/endpoints?limit=1', { key: second });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'The API key is not valid' });
    expect((await apiGet(server.url, '/v1/endpoints?limit=1', { key })).status).toBe(200);
  });
});

describe('the fast path', () => {
  let expressOnly: http.Server;
  let expressPort: number;

  beforeAll(async () => {
    // The same store behind express alone, and a record of which requests the test server's fast path answered.
    let accepted = new Set<string>();
    const app = createHttpApp({ store: server.store, acceptedHosts: () => accepted });
    expressOnly = http.createServer(app);
    await new Promise<void>((resolve) => expressOnly.listen(0, '127.0.0.1', resolve));
    expressPort = (expressOnly.address() as AddressInfo).port;
    accepted = acceptedHosts('127.0.0.1', expressPort);
  });
  afterAll(() => new Promise<void>((resolve) => expressOnly.close(() => resolve())));

  const endpoint = inventory.endpoints[2]!;
  const finding = inventory.findings[0]!;
  const answered: [string, string, Record<string, string>?][] = [
    ['GET', '/v1/endpoints'],
    ['GET', '/v1/endpoints?limit=3&offset=2&osFamily=linux'],
    ['GET', '/v1/endpoints?hasAgent=true&unknown=1'],
    ['HEAD', '/v1/endpoints?limit=5'],
    ['GET', '/v1/remediation-targets?targetType=software&status=active'],
    ['GET', '/v1/scopes?status=active'],
    ['GET', `/v1/vulnerability-findings?endpointId=${finding.endpoint_id}&limit=10`],
    ['GET', '/v1/vulnerability-findings?severity=critical&isKev=true'],
    ['GET', `/v1/endpoints/${endpoint.id}`],
    ['GET', `/v1/endpoints/${endpoint.id.toUpperCase()}`],
    ['HEAD', `/v1/endpoints/${endpoint.id}`],
    ['GET', `/v1/vulnerability-findings/${finding.id}?ignored=yes`],
  ];
  const leftToExpress: [string, string, Record<string, string>?][] = [
    ['GET', '/v1/endpoints?limit=0'],
    ['GET', '/v1/endpoints?limit=abc'],
    ['GET', '/v1/endpoints?limit=1&limit=2'],
    ['GET', `/v1/endpoints?osFamily=${'x'.repeat(3000)}`],
    ['GET', '/v1/vulnerability-findings?endpointId=not-a-uuid'],
    ['GET', '/v1/endpoints/not-a-uuid'],
    ['GET', '/v1/endpoints/00000000-0000-4000-8000-000000000000'],
    ['GET', `/v1/endpoints/${endpoint.id}%20`],
    ['GET', '/v1/endpoints/'],
    ['GET', '/V1/endpoints'],
    ['GET', '/v1/nothing-here'],
    ['POST', '/v1/endpoints'],
    ['GET', '/v1/endpoints', { authorization: '' }],
    ['GET', '/v1/endpoints', { authorization: 'Bearer rc_not-a-key' }],
    ['GET', '/v1/endpoints', { host: 'evil.example' }],
    ['GET', '/v1/endpoints', { 'if-none-match': '*' }],
    ['GET', '/health'],
  ];

  async function both(method: string, path: string, headers: Record<string, string> = {}) {
    const to = (port: number) => ({ method, path, headers: { authorization: `Bearer ${key}`, host: `127.0.0.1:${port}`, ...headers } });
    const fast = await rawRequest(server.port, to(server.port));
    const plain = await rawRequest(expressPort, to(expressPort));
    // What node:http itself writes, the same on both servers but for the time.
    const perConnection = new Set(['date', 'connection', 'keep-alive']);
    const comparable = ({ status, headers: h, body }: typeof fast) => ({
      status,
      headers: Object.fromEntries(Object.entries(h).filter(([name]) => !perConnection.has(name))),
      body,
    });
    return { fast: comparable(fast), plain: comparable(plain) };
  }

  it('answers the v1 lists and gets byte for byte as express does', async () => {
    for (const [method, path, headers] of answered) {
      const { fast, plain } = await both(method, path, headers);
      expect(fast, `${method} ${path}`).toEqual(plain);
      expect(fast.status, `${method} ${path}`).toBe(200);
    }
  });

  it('answers errors, and paths and methods that are not its own, as express does', async () => {
    for (const [method, path, headers] of leftToExpress) {
      const { fast, plain } = await both(method, path, headers);
      expect(fast, `${method} ${path}`).toEqual(plain);
    }
  });

  it('takes only the successful v1 lists and gets, leaving everything else to express', async () => {
    const fastPath = v1FastPath(server.store, () => acceptedHosts('127.0.0.1', expressPort));
    // What the fast path does not answer is answered 599 here, where express would take it.
    const recorder = http.createServer((req, res) => {
      if (!fastPath(req, res)) {
        res.statusCode = 599;
        res.end();
      }
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    const port = (recorder.address() as AddressInfo).port;
    try {
      const send = ([method, path, headers = {}]: [string, string, Record<string, string>?]) =>
        rawRequest(port, { method, path, headers: { authorization: `Bearer ${key}`, host: `127.0.0.1:${expressPort}`, ...headers } });
      for (const request of answered) expect((await send(request)).status, request[1]).toBe(200);
      for (const request of leftToExpress) expect((await send(request)).status, request[1]).toBe(599);
    } finally {
      await new Promise<void>((resolve) => recorder.close(() => resolve()));
    }
  });
});
