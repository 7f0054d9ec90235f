import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFileSealer } from '../../secrets/key-file-sealer.js';
import { type ConsoleTestServer, startConsoleTestServer } from '../../test/support/console-test-server.js';
import { type FakeRemote, startFakeRemote } from '../../test/support/fake-remote.js';
import { sampleInventory } from '../../test/support/sample-inventory.js';
import { fastPolicy } from '../../test/support/sync-fixtures.js';

// A replica's deadlines are a record of the organization, not of its inventory: a full sync,
// which stages a new inventory and swaps the organization to it, keeps them, and the figures
// of the new data are computed under them.
let server: ConsoleTestServer;
let remote: FakeRemote;
let sealerDir: string;
const nowMs = Date.UTC(2025, 11, 1);
const policy = { critical: 3, high: 5, medium: 7, low: 9, info: 11, kev: 2 };

beforeAll(async () => {
  sealerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-deadline-routes-'));
  remote = await startFakeRemote({ inventory: sampleInventory() });
  server = await startConsoleTestServer([], { sealer: keyFileSealer(path.join(sealerDir, 'sealing.key')), syncPolicy: fastPolicy, clock: () => nowMs });
  expect((await server.app('/organizations', { method: 'POST', body: { slug: 'replica', remoteUrl: remote.url, apiKey: remote.apiKey } })).status).toBe(201);
  await server.syncEnded('replica');
});
afterAll(async () => {
  await server.close();
  await remote.close();
  fs.rmSync(sealerDir, { recursive: true, force: true });
});

/** The ids of the replica's overdue findings, as the console lists them. */
const overdueIds = async () => (await server.appAll('/orgs/replica/vulnerability-findings?overdue=true')).map((f: { id: string }) => f.id);

describe("a replica's deadlines", () => {
  it('are kept across a full sync, and the new data is judged by them', async () => {
    expect((await server.app('/orgs/replica/sla-policy', { method: 'PUT', body: policy })).status).toBe(200);
    const before = await overdueIds();
    expect(before.length).toBeGreaterThan(1);

    // The remote remediates one of the overdue findings; a full sync brings the new inventory.
    const remediated = remote.options.inventory.findings.find((f) => f.id === before[0])!;
    Object.assign(remediated, { status: 'remediated', remediated_at: new Date(nowMs - 3_600_000).toISOString(), updated_at: new Date(nowMs).toISOString() });
    expect((await server.app('/orgs/replica/sync?full=true', { method: 'POST' })).status).toBe(202);
    expect((await server.syncEnded('replica')).state).toMatchObject({ lastSuccessMode: 'full', lastError: null });

    expect((await server.app('/orgs/replica/sla-policy')).body).toEqual({ ...policy, updated_at: new Date(nowMs).toISOString() });
    const performance = (await server.app('/orgs/replica/remediation-performance')).body;
    expect(performance.policy).toEqual(policy);
    expect(await overdueIds()).toEqual(before.slice(1));
    expect(performance.totals.open_overdue).toBe(before.length - 1);
  });
});
