import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../../contracts/console/sync.js';
import { keyFileSealer } from '../../secrets/key-file-sealer.js';
import { type ConsoleTestServer, startConsoleTestServer } from '../../test/support/console-test-server.js';
import { type FakeRemote, startFakeRemote } from '../../test/support/fake-remote.js';
import { smallInventory } from '../../test/support/fixtures.js';
import { sampleInventory } from '../../test/support/sample-inventory.js';
import { fastPolicy } from '../../test/support/sync-fixtures.js';

// The sync routes through the app the product builds (createHttpApp with /app, as
// startConsoleServer wires it): its query parser is off, so `?full=` is read only where the
// route parses the query itself. A replica "replica" of a fake remote, connected through /app
// (which runs its first, full, sync), and a local organization "home".
let server: ConsoleTestServer;
let remote: FakeRemote;
let sealerDir: string;
/** Delay of each list page of the remote, so that a sync can be caught running. */
let pageDelayMs = 0;

beforeAll(async () => {
  sealerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-sync-routes-'));
  remote = await startFakeRemote({ inventory: sampleInventory(), fault: () => (pageDelayMs ? { delayMs: pageDelayMs } : undefined) });
  server = await startConsoleTestServer([{ slug: 'home', inventory: smallInventory(5, 5) }], {
    sealer: keyFileSealer(path.join(sealerDir, 'sealing.key')),
    syncPolicy: fastPolicy,
  });
  const connected = await server.app('/organizations', { method: 'POST', body: { slug: 'replica', remoteUrl: remote.url, apiKey: remote.apiKey } });
  expect(connected.status).toBe(201);
  await syncEnded();
});
afterAll(async () => {
  await server.close();
  await remote.close();
  fs.rmSync(sealerDir, { recursive: true, force: true });
});

/** The replica's sync status as `GET /app/orgs/replica/sync` answers it. */
async function syncStatus(): Promise<SyncStatus> {
  const response = await server.app('/orgs/replica/sync');
  expect(response.status).toBe(200);
  return response.body as SyncStatus;
}

/** Polls the status until no sync runs; answers the last status. */
const syncEnded = () => server.syncEnded('replica');

/** `POST /app/orgs/:slug/sync` with the query `query`, e.g. `?full=true`. */
const startSync = (slug: string, query = '') => server.app(`/orgs/${slug}/sync${query}`, { method: 'POST' });

/** The list requests (not the probes of one item) the remote received since `from`. */
const pageRequests = (from: number) => remote.requests.slice(from).filter((request) => request.limit > 1);

describe('POST /app/orgs/:slug/sync', () => {
  it('runs an incremental sync without a parameter, the replica having had its full one', async () => {
    expect((await syncStatus()).state).toMatchObject({ lastSuccessMode: 'full', lastError: null });
    const before = remote.requests.length;
    const started = await startSync('replica');
    expect(started.status).toBe(202);
    expect((await syncEnded()).state).toMatchObject({ lastAttemptMode: 'incremental', lastSuccessMode: 'incremental', lastError: null, incrementalsSinceFull: 1 });
    expect(pageRequests(before).every((request) => request.updatedSince !== undefined)).toBe(true);
  });

  it('runs a full sync with ?full=true where an incremental one would run', async () => {
    const before = remote.requests.length;
    const started = await startSync('replica', '?full=true');
    expect(started.status).toBe(202);
    expect((await syncEnded()).state).toMatchObject({ lastAttemptMode: 'full', lastSuccessMode: 'full', lastError: null, incrementalsSinceFull: 0 });
    const pages = pageRequests(before);
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.every((request) => request.updatedSince === undefined)).toBe(true);
  });

  it('runs an incremental sync with ?full=false', async () => {
    await startSync('replica', '?full=false');
    expect((await syncEnded()).state).toMatchObject({ lastAttemptMode: 'incremental', lastSuccessMode: 'incremental' });
  });

  it('refuses ?full=yes (400, naming the parameter) and starts no sync', async () => {
    const before = remote.requests.length;
    const refused = await startSync('replica', '?full=yes');
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'Invalid query parameter "full": must be true or false' });
    expect((await syncStatus()).running).toBe(false);
    expect(remote.requests.length).toBe(before);
  });

  it('refuses a local organization (409) and an unknown one (404)', async () => {
    const local = await startSync('home');
    expect(local.status).toBe(409);
    expect(local.body).toEqual({ error: '"home" is a local organization; only replicas sync' });
    expect((await startSync('nobody')).status).toBe(404);
  });

  it('answers 202 at once, joins a running sync, and GET /sync shows its progress', async () => {
    pageDelayMs = 20;
    try {
      const started = await startSync('replica', '?full=true');
      expect(started.status).toBe(202);
      expect(started.body).toMatchObject({ alreadyRunning: false, status: { org: 'replica', running: true } });
      const joined = await startSync('replica');
      expect(joined.body).toMatchObject({ alreadyRunning: true, status: { running: true } });
      const running = await syncStatus();
      expect(running).toMatchObject({ running: true, progress: { org: 'replica' } });
      expect(await syncEnded()).toMatchObject({
        running: false,
        progress: null,
        state: { lastSuccessMode: 'full', lastError: null, counts: { endpoints: 30, scopes: 5 } },
      });
    } finally {
      pageDelayMs = 0;
    }
  });

  it('runs a reconcile with ?reconcile=true: the replica equal to its remote, nothing written, and when it matched', async () => {
    const before = remote.requests.length;
    expect((await startSync('replica', '?reconcile=true')).status).toBe(202);
    const { state } = await syncEnded();
    expect(state).toMatchObject({ lastSuccessMode: 'reconcile', lastReconcileChanged: 0, countDifferences: [], lastError: null, incrementalsSinceFull: 0 });
    expect(state.lastReconciledAt).toBe(state.lastSuccessAt);
    expect(Date.parse(state.lastMatchedAt!)).toBeGreaterThanOrEqual(Date.parse(state.lastSuccessAt!));
    expect(pageRequests(before).every((request) => request.updatedSince === undefined)).toBe(true);
  });

  it('refuses ?full=true&reconcile=true (400) and starts no sync', async () => {
    const refused = await startSync('replica', '?full=true&reconcile=true');
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'Invalid query parameter "reconcile": full and reconcile cannot both be true' });
    expect((await syncStatus()).running).toBe(false);
  });

  it('answers GET /sync of an unknown organization with 404', async () => {
    expect((await server.app('/orgs/nobody/sync')).status).toBe(404);
  });
});

describe('PUT /app/orgs/:slug/sync/settings', () => {
  const putSettings = (slug: string, body: unknown) => server.app(`/orgs/${slug}/sync/settings`, { method: 'PUT', body });

  it('saves how often the replica is reconciled and answers its status; a daily reconcile by default', async () => {
    expect((await syncStatus()).state.reconcileIntervalHours).toBe(24);
    const saved = await putSettings('replica', { reconcileIntervalHours: 6 });
    expect(saved.status).toBe(200);
    expect((saved.body as SyncStatus).state.reconcileIntervalHours).toBe(6);
    expect((await syncStatus()).state.reconcileIntervalHours).toBe(6);
    // A sync keeps the setting.
    await startSync('replica');
    expect((await syncEnded()).state.reconcileIntervalHours).toBe(6);
  });

  it('refuses what is not the settings (400, each field named) and saves nothing', async () => {
    for (const [body, field] of [
      [{ reconcileIntervalHours: 0 }, 'reconcileIntervalHours'],
      [{ reconcileIntervalHours: 721 }, 'reconcileIntervalHours'],
      [{ reconcileIntervalHours: 1.5 }, 'reconcileIntervalHours'],
      [{ reconcileIntervalHours: '6' }, 'reconcileIntervalHours'],
      [{}, 'reconcileIntervalHours'],
      [{ reconcileIntervalHours: 6, every: 2 }, 'every'],
      [[], 'body'],
    ] as const) {
      const refused = await putSettings('replica', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect((refused.body as { issues: { field: string }[] }).issues[0]!.field).toBe(field);
    }
    expect((await syncStatus()).state.reconcileIntervalHours).toBe(6);
  });

  it('refuses a local organization (409)', async () => {
    const local = await putSettings('home', { reconcileIntervalHours: 6 });
    expect(local.status).toBe(409);
  });
});
