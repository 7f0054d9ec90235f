import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Inventory } from '../../contracts/inventory.js';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { type FakeRemote, startFakeRemote } from './support/fake-remote.js';
import { sampleInventory } from './support/sample-inventory.js';
import { fastPolicy } from './support/sync-fixtures.js';
import { syncOrganization } from '../sync/sync-organization.js';

// A served replica's syncs whose changes pass what one write applies (`mergeItemsPerWrite`, 1
// here, so that a sync of a few tens of changes has as many parts): the merge goes in parts, a
// turn of the event loop between them, and the requests for the organization meanwhile wait
// for the last part. Through the app the product builds, with
// the replica connected through /app and synced by its scheduler.
let server: ConsoleTestServer;
let remote: FakeRemote;
let sealerDir: string;
let inventory: Inventory;
/** A v1 key of the replica, made through /app. */
let replicaKey: string;

beforeAll(async () => {
  sealerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-merge-in-parts-'));
  inventory = sampleInventory();
  remote = await startFakeRemote({ inventory });
  server = await startConsoleTestServer([], { sealer: keyFileSealer(path.join(sealerDir, 'sealing.key')), syncPolicy: { ...fastPolicy, mergeItemsPerWrite: 1 } });
  const connected = await server.app('/organizations', { method: 'POST', body: { slug: 'replica', remoteUrl: remote.url, apiKey: remote.apiKey } });
  expect(connected.status).toBe(201);
  expect((await server.syncEnded('replica')).state).toMatchObject({ lastSuccessMode: 'full', lastError: null });
  replicaKey = (await server.app('/orgs/replica/api-keys', { method: 'POST' })).body.key;
});
afterAll(async () => {
  await server.close();
  await remote.close();
  fs.rmSync(sealerDir, { recursive: true, force: true });
});

const replicaRowId = () => server.store.organizations.bySlug('replica')!.rowId;
/** An update time after the last sync's start: what an incremental sync asks for. */
const justNow = () => new Date().toISOString();

/** Resolves at the first turn of the event loop where the replica's changes are being applied in parts. */
async function partsUnderWay(): Promise<void> {
  const until = Date.now() + 10_000;
  while (!server.store.syncSteps.whenApplied(replicaRowId())) {
    if (Date.now() > until) throw new Error('no merge in parts was seen');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The replica's endpoints and findings as /v1 answers them, by id, a page of 100 at a time. */
async function v1State(): Promise<{ hostnames: Map<string, string>; statuses: Map<string, string> }> {
  const list = async (resource: string) => {
    const items: Record<string, string>[] = [];
    for (;;) {
      const response = await fetch(`${server.url}/v1/${resource}?limit=100&offset=${items.length}`, { headers: { authorization: `Bearer ${replicaKey}` } });
      expect(response.status).toBe(200);
      const { data } = (await response.json()) as { data: Record<string, string>[] };
      items.push(...data);
      if (data.length < 100) return items;
    }
  };
  const [endpoints, findings] = await Promise.all([list('endpoints'), list('vulnerability-findings')]);
  return { hostnames: new Map(endpoints.map((e) => [e.id!, e.hostname!])), statuses: new Map(findings.map((f) => [f.id!, f.status!])) };
}

/** What the remote holds now, in the same shape. */
const remoteState = () => ({
  hostnames: new Map(inventory.endpoints.map((e) => [e.id, e.hostname])),
  statuses: new Map(inventory.findings.map((f) => [f.id, f.status as string])),
});

describe('a merge in parts', () => {
  it('applies an incremental sync of more changes than a write holds in parts; a request for the replica meanwhile waits for the last and answers all of them', async () => {
    // Ten endpoints renamed and twenty findings remediated on the remote, each with a newer updated_at.
    inventory.endpoints = inventory.endpoints.map((e, i) => (i % 3 === 0 ? { ...e, hostname: `${e.hostname}-renamed`, updated_at: justNow() } : e));
    inventory.findings = inventory.findings.map((f, i) => (i % 9 === 0 ? { ...f, status: 'remediated' as const, updated_at: justNow() } : f));
    const started = await server.app('/orgs/replica/sync', { method: 'POST' });
    expect(started.status).toBe(202);
    await partsUnderWay();
    // Asked while thirty parts are to come: each request finds the merge under way, waits, and answers after the last part.
    const asked = vi.spyOn(server.store.syncSteps, 'whenApplied');
    const [v1, console] = await Promise.all([
      v1State().then((state) => ({ state, applying: server.store.syncSteps.whenApplied(replicaRowId()) !== undefined })),
      server.app('/orgs/replica/endpoints?limit=100').then((response) => ({ response, applying: server.store.syncSteps.whenApplied(replicaRowId()) !== undefined })),
    ]);
    expect(asked.mock.results.filter((result) => result.value instanceof Promise).length).toBeGreaterThanOrEqual(2);
    asked.mockRestore();
    expect(v1.applying).toBe(false);
    expect(v1.state).toEqual(remoteState());
    expect(console.applying).toBe(false);
    expect(console.response.status).toBe(200);
    expect((console.response.body.data as { hostname: string }[]).filter((e) => e.hostname.endsWith('-renamed'))).toHaveLength(10);
    const status = await server.syncEnded('replica');
    expect(status.state).toMatchObject({ lastSuccessMode: 'incremental', lastError: null });
    const changes = (await server.app('/orgs/replica/sync-changes')).body.data[0];
    expect(changes.counts).toMatchObject({ endpoints: { updated: 10 }, findings: { updated: 20 } });
  });

  it('applies a reconcile in parts, deletions first, and leaves the replica as the remote', async () => {
    // Changed without a newer updated_at (only a reconcile sees them), and some removed.
    inventory.endpoints = inventory.endpoints.map((e, i) => (i % 4 === 1 ? { ...e, hostname: `${e.hostname}-unseen` } : e)).filter((_e, i) => i !== 29);
    inventory.findings = inventory.findings.filter((_f, i) => i % 10 !== 3);
    const started = await server.app('/orgs/replica/sync?reconcile=true', { method: 'POST' });
    expect(started.status).toBe(202);
    await partsUnderWay();
    const status = await server.syncEnded('replica');
    expect(status.state).toMatchObject({ lastSuccessMode: 'reconcile', lastError: null });
    expect(await v1State()).toEqual(remoteState());
  });

  it('keeps the parts applied before an interruption, and the next sync brings the rest', async () => {
    const chosen = new Set(inventory.findings.filter((f, i) => i % 3 === 2 && f.status !== 'remediated').map((f) => f.id));
    inventory.findings = inventory.findings.map((f) => (chosen.has(f.id) ? { ...f, status: 'remediated' as const, updated_at: justNow() } : f));
    const changed = inventory.findings.filter((f) => chosen.has(f.id));
    const organization = server.store.organizations.bySlug('replica')!;
    const remoteTenant = { baseUrl: remote.url, apiKey: remote.apiKey };
    const policy = { ...fastPolicy, mergeItemsPerWrite: 1 };
    const interrupt = new AbortController();
    const interrupted = syncOrganization(server.store, organization, remoteTenant, { policy, signal: interrupt.signal });
    await partsUnderWay();
    // Read from the store itself (a request would wait): interrupted once some of the changed findings are merged, not all.
    const differing = () => server.store.replicaComparison.differing(organization.rowId, 'findings', changed).differing.length;
    while (differing() === changed.length) await new Promise((resolve) => setImmediate(resolve));
    interrupt.abort();
    await expect(interrupted).rejects.toThrow('The sync was interrupted');
    // Some of the changed findings merged, not all: what the parts before the interruption wrote.
    const partly = (await v1State()).statuses;
    const merged = changed.filter((f) => partly.get(f.id) === 'remediated').length;
    expect(merged).toBeGreaterThan(0);
    expect(merged).toBeLessThan(changed.length);
    await syncOrganization(server.store, organization, remoteTenant, { policy });
    expect(await v1State()).toEqual(remoteState());
  });

  it('counts what an incremental sync would add before it writes a part: deletions on the remote make it a reconcile, which leaves the replica as the remote', async () => {
    inventory.endpoints = inventory.endpoints.map((e, i) => (i % 2 === 0 ? { ...e, hostname: `${e.hostname}-again`, updated_at: justNow() } : e));
    inventory.findings = inventory.findings.slice(0, -5);
    const recordsBefore = (await server.app('/orgs/replica/sync-changes')).body.data.length;
    const started = await server.app('/orgs/replica/sync', { method: 'POST' });
    expect(started.status).toBe(202);
    const status = await server.syncEnded('replica');
    expect(status.state).toMatchObject({ lastSuccessMode: 'reconcile', lastError: null });
    expect(await v1State()).toEqual(remoteState());
    // The incremental sync wrote nothing: one record of changes, the reconcile's, holds them all.
    const records = (await server.app('/orgs/replica/sync-changes')).body.data;
    expect(records).toHaveLength(recordsBefore + 1);
    expect(records[0]).toMatchObject({ mode: 'reconcile', counts: { endpoints: { updated: 15 }, findings: { removed: 5 } } });
  });
});
