import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1Answers } from '../http/v1/v1-answers.js';
import { apiGet } from './support/api-client.js';
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
const inventoryId = () => server.orgs[0]!.organization.inventoryId;

describe('answers remembered until the data changes', () => {
  it('shows a write through the store in the next list page and get', async () => {
    const endpoint = inventory.endpoints[0]!;
    const before = await apiGet(server.url, '/v1/endpoints?limit=100', { key });
    expect(before.body.data.find((item: { id: string }) => item.id === endpoint.id).hostname).toBe(endpoint.hostname);
    expect((await apiGet(server.url, `/v1/endpoints/${endpoint.id}`, { key })).body.hostname).toBe(endpoint.hostname);

    const renamed = { ...endpoint, hostname: 'renamed-by-a-sync', updated_at: new Date().toISOString() };
    server.store.write((writes) => writes.merge(inventoryId(), { endpoints: [renamed], remediationTargets: [], scopes: [], findings: [] }), { changes: ['inventory'] });

    const after = await apiGet(server.url, '/v1/endpoints?limit=100', { key });
    expect(after.body.data.find((item: { id: string }) => item.id === endpoint.id).hostname).toBe('renamed-by-a-sync');
    expect((await apiGet(server.url, `/v1/endpoints/${endpoint.id}`, { key })).body.hostname).toBe('renamed-by-a-sync');
  });

  it('shows new totals once items are added', async () => {
    const before = await apiGet(server.url, '/v1/scopes?limit=1', { key });
    const scope = { ...inventory.scopes[0]!, id: '0b7a5c4e-1f3d-4e2a-9c8b-7d6e5f4a3b2c', name: 'Added after the first read' };
    server.store.write((writes) => writes.merge(inventoryId(), { endpoints: [], remediationTargets: [], scopes: [scope], findings: [] }), { changes: ['inventory'] });
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
        writes.merge(inventoryId(), { endpoints: [{ ...endpoint, hostname: 'never-committed' }], remediationTargets: [], scopes: [], findings: [] });
        const read = answers.get(orgRowId(), 'endpoints', endpoint.id).toString();
        expect(JSON.parse(read).hostname).toBe('never-committed');
        throw new Error('the sync failed half-way');
      }, { changes: ['inventory'] }),
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
