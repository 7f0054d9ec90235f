import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet } from './support/api-client.js';
import { smallInventory } from './support/fixtures.js';
import { type TestOrganization, type TestServer, startTestServer } from './support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer([
    { slug: 'org-a', inventory: smallInventory(11, 25) },
    { slug: 'org-b', inventory: smallInventory(12, 25) },
  ]);
});
afterAll(() => server.close());

const collections = [
  ['/v1/endpoints', 'endpoints'],
  ['/v1/remediation-targets', 'remediationTargets'],
  ['/v1/scopes', 'scopes'],
  ['/v1/vulnerability-findings', 'findings'],
] as const;

function pairs(): [TestOrganization, TestOrganization][] {
  const [a, b] = server.orgs as [TestOrganization, TestOrganization];
  return [[a, b], [b, a]];
}

describe('organizations are isolated', () => {
  it.each(collections)('%s lists only the key\'s organization', async (path, collection) => {
    for (const [self, other] of pairs()) {
      const response = await apiGet(server.url, `${path}?limit=100`, { key: self.apiKey });
      expect(response.body.total).toBe(self.inventory[collection].length);
      const otherIds = new Set(other.inventory[collection].map((item) => item.id));
      for (const item of response.body.data) expect(otherIds.has(item.id)).toBe(false);
    }
  });

  it.each(collections)('%s/{id} of the other organization answers 404, exactly as an unknown id', async (path, collection) => {
    for (const [self, other] of pairs()) {
      const foreign = other.inventory[collection][0]!;
      const response = await apiGet(server.url, `${path}/${foreign.id}`, { key: self.apiKey });
      expect(response.status).toBe(404);
      const unknown = await apiGet(server.url, `${path}/00000000-0000-4000-8000-000000000000`, { key: self.apiKey });
      expect(response.body.error.replace(foreign.id, '<id>')).toBe(unknown.body.error.replace('00000000-0000-4000-8000-000000000000', '<id>'));
      const own = await apiGet(server.url, `${path}/${self.inventory[collection][0]!.id}`, { key: self.apiKey });
      expect(own.status).toBe(200);
    }
  });

  it('filters by the other organization\'s ids find nothing', async () => {
    for (const [self, other] of pairs()) {
      const endpointId = other.inventory.endpoints[0]!.id;
      const targetId = other.inventory.remediationTargets[0]!.id;
      for (const path of [
        `/v1/remediation-targets?endpointId=${endpointId}`,
        `/v1/vulnerability-findings?endpointId=${endpointId}`,
        `/v1/vulnerability-findings?remediationTargetId=${targetId}`,
      ]) {
        const response = await apiGet(server.url, path, { key: self.apiKey });
        expect(response.body, path).toMatchObject({ data: [], total: 0 });
      }
    }
  });
});
