import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncChanges, SyncChangesList } from '../../../contracts/console/sync-changes.js';
import type { SyncStatus } from '../../../contracts/console/sync.js';
import { keyFileSealer } from '../../secrets/key-file-sealer.js';
import { buildAppOpenApiDocument } from '../openapi/app-document.js';
import { OpenApiResponseValidator } from '../../test/support/openapi-validator.js';
import { type ConsoleTestServer, startConsoleTestServer } from '../../test/support/console-test-server.js';
import { type FakeRemote, startFakeRemote } from '../../test/support/fake-remote.js';
import { smallInventory } from '../../test/support/fixtures.js';
import { sampleInventory } from '../../test/support/sample-inventory.js';
import { fastPolicy } from '../../test/support/sync-fixtures.js';

// The sync changes through the app the product builds, for a replica "replica" of a fake remote
// connected through /app (its first sync runs then) and a local organization "home".
let server: ConsoleTestServer;
let remote: FakeRemote;
let sealerDir: string;
const validator = new OpenApiResponseValidator(buildAppOpenApiDocument() as never);

/** `GET /app<path>`, its answer checked against the /app OpenAPI document. */
async function get(path: string) {
  const response = await server.app(path);
  expect(validator.check('GET', `/app${path}`, response.status, response.body)).toEqual([]);
  return response;
}

beforeAll(async () => {
  sealerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-sync-changes-routes-'));
  remote = await startFakeRemote({ inventory: sampleInventory() });
  server = await startConsoleTestServer([{ slug: 'home', inventory: smallInventory(5, 5) }], {
    sealer: keyFileSealer(path.join(sealerDir, 'sealing.key')),
    syncPolicy: fastPolicy,
  });
  expect((await server.app('/organizations', { method: 'POST', body: { slug: 'replica', remoteUrl: remote.url, apiKey: remote.apiKey } })).status).toBe(201);
  // Joins the first sync, which connecting started.
  await server.sync!.syncNow('replica');
});
afterAll(async () => {
  await server.close();
  await remote.close();
  fs.rmSync(sealerDir, { recursive: true, force: true });
});

describe('GET /app/orgs/:slug/sync-changes', () => {
  it("lists a replica's syncs that changed something, newest first, and one of them by id; the sync status names the latest", async () => {
    const first = (await get('/orgs/replica/sync-changes')).body as SyncChangesList;
    expect(first.data).toEqual([expect.objectContaining({ mode: 'full', firstSync: true })]);

    // An open finding becomes KEV on the remote.
    const { findings } = remote.options.inventory;
    const index = findings.findIndex((finding) => finding.status === 'open' && !finding.is_kev && finding.severity !== 'critical');
    findings[index] = { ...findings[index]!, is_kev: true, updated_at: new Date().toISOString() };
    await server.sync!.syncNow('replica');
    const status = (await get('/orgs/replica/sync')).body as SyncStatus;

    const response = await get('/orgs/replica/sync-changes');
    expect(response.status).toBe(200);
    const { data } = response.body as SyncChangesList;
    expect(data.map((changes) => changes.mode)).toEqual(['incremental', 'full']);
    const [latest] = data as [SyncChanges];
    expect(latest.counts.findings).toEqual({ created: 0, updated: 1, removed: 0 });
    expect(latest.newlyOpen).toMatchObject({ total: 1, kev: 1, findings: [{ id: findings[index]!.id, is_kev: true, endpoint_hostname: expect.any(String) }] });
    expect(status.latestChanges).toEqual({ id: latest.id, finishedAt: latest.finishedAt, newlyOpen: { total: 1, critical: 0, kev: 1 } });

    const one = await get(`/orgs/replica/sync-changes/${latest.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(latest);
  });

  it('answers 409 for a local organization, 404 for changes it does not keep, 400 for an id that is not one', async () => {
    expect(await get('/orgs/home/sync-changes')).toMatchObject({ status: 409, body: { error: '"home" is a local organization; only replicas sync' } });
    expect((await get('/orgs/replica/sync-changes/999999')).status).toBe(404);
    expect(await get('/orgs/replica/sync-changes/abc')).toMatchObject({ status: 400, body: { error: 'Invalid path parameter "changesId": must be a positive whole number' } });
    expect((await server.app('/orgs/nowhere/sync-changes')).status).toBe(404);
  });
});
