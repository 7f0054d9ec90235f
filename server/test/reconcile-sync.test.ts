import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CollectionName } from '../../contracts/collections.js';
import { collectionNames, collections } from '../../contracts/collections.js';
import type { Inventory } from '../../contracts/inventory.js';
import { createHttpApp } from '../http/create-http-app.js';
import { type RunningServer, startServer } from '../http/start-server.js';
import type { Organization } from '../store/records/organization-records.js';
import { Store } from '../store/store.js';
import { apiGet } from './support/api-client.js';
import { sampleInventory } from './support/sample-inventory.js';
import { fastPolicy } from './support/sync-fixtures.js';
import { type TestServer, startTestServer } from './support/test-server.js';
import { type SyncOptions, syncOrganization } from '../sync/sync-organization.js';
import { updateSyncSettings } from '../sync/sync-settings.js';

// A replica (a store in a data directory, served over /v1 as `serve` does) of another server's
// organization (the remote), which is then re-seeded with as many items and older timestamps:
// what an incremental sync, asking for items updated since its last success, never sees.
const sizes = { endpoints: 24, targetsPerEndpoint: 3, findingsPerTarget: 3, scopes: 5 };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp() {
  const remote: TestServer = await startTestServer([{ slug: 'remote', inventory: sampleInventory(sizes) }]);
  cleanups.push(() => remote.close());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-reconcile-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const opened = { store: await Store.open({ dataDir, command: 'reconcile test' }) };
  cleanups.push(() => opened.store.close());
  const organization: Organization = opened.store.write(() =>
    opened.store.organizations.insert({ slug: 'replica', name: 'Replica', kind: 'replica', remoteUrl: remote.url }), { changes: ['organizations', 'inventory'] },
  );
  const replicaKey = opened.store.write(() => opened.store.apiKeys.create(organization.rowId, 'test').key, { changes: ['api-keys'] });
  const { apiKey: remoteKey, organization: remoteOrganization } = remote.orgs[0]!;
  const sync = (more: SyncOptions = {}) =>
    syncOrganization(opened.store, organization, { baseUrl: remote.url, apiKey: remoteKey }, { ...more, policy: { ...fastPolicy, ...more.policy } });
  /** Replaces the remote's data, as a re-seed of the remote tenant does. */
  const reseed = (inventory: Inventory) => remote.store.write((writes) => writes.replace(remoteOrganization.inventoryId, inventory), { changes: ['inventory'] });
  return { remote, remoteKey, dataDir, opened, organization, replicaKey, sync, reseed };
}

/** Serves a store's /v1 on a loopback port. */
async function serveV1(store: Store): Promise<RunningServer> {
  const server = await startServer({ port: 0, createApp: (acceptedHosts) => createHttpApp({ store, acceptedHosts, log: () => undefined }) });
  cleanups.push(() => server.close());
  return server;
}

/** Every item of a /v1 list, paged by 100. */
async function listAll(baseUrl: string, key: string, collection: CollectionName): Promise<unknown[]> {
  const items: unknown[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await apiGet(baseUrl, `${collections[collection].v1Path}?limit=100&offset=${offset}`, { key });
    expect(page.status).toBe(200);
    const { data, total } = page.body as { data: unknown[]; total: number };
    items.push(...data);
    if (offset + 100 >= total) return items;
  }
}

/** The bytes of every file of a data directory. */
function directoryBytes(dir: string): number {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).reduce((sum, entry) => (entry.isFile() ? sum + fs.statSync(path.join(entry.parentPath, entry.name)).size : sum), 0);
}

const old = '2020-02-02T00:00:00.000Z';
const newId = (kind: number, n: number) => `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${(0xfff000 + n).toString(16).padStart(12, '0')}`;

/**
 * The re-seed: as many items, every finding with an older `updated_at`, a third of the
 * open ones remediated, three findings and an endpoint replaced by new ones (with old
 * timestamps too), a scope and a target changed without a newer `updated_at`.
 */
function reseeded(before: Inventory): Inventory {
  const after = structuredClone(before);
  let flipped = 0;
  after.findings = after.findings.map((finding) => {
    const flip = finding.status === 'open' && flipped++ % 3 === 0;
    return { ...finding, updated_at: old, ...(flip ? { status: 'remediated' as const, remediated_at: old } : {}) };
  });
  for (let i = 0; i < 3; i++) after.findings.splice(10 + i * 7, 1, { ...after.findings[10 + i * 7]!, id: newId(3, i), created_at: old });
  after.endpoints.splice(5, 1, { ...after.endpoints[5]!, id: newId(1, 0), hostname: 'new-host.example.test', created_at: old, updated_at: old });
  after.scopes[1] = { ...after.scopes[1]!, name: 'Renamed without a newer updated_at' };
  after.remediationTargets[4] = { ...after.remediationTargets[4]!, status: 'resolved', updated_at: old };
  return after;
}

/** What a reconcile from `before` to `after` changes, per collection: items by id, compared whole. */
function expectedCounts(before: Inventory, after: Inventory) {
  return Object.fromEntries(
    collectionNames.map((collection) => {
      const old = new Map((before[collection] as { id: string }[]).map((item) => [item.id, item]));
      const now = after[collection] as { id: string }[];
      const kept = now.filter((item) => old.has(item.id));
      return [
        collection,
        { created: now.length - kept.length, updated: kept.filter((item) => !isDeepStrictEqual(item, old.get(item.id))).length, removed: old.size - kept.length },
      ];
    }),
  );
}

describe('reconcile', () => {
  it('follows a remote re-seeded with as many items and older timestamps: the counts differ, the reconcile makes the replica equal, and records its changes', async () => {
    const { remote, remoteKey, opened, organization, replicaKey, sync, reseed } = await setUp();
    const { store } = opened;
    expect((await sync()).mode).toBe('full');
    expect((await sync()).mode).toBe('incremental');
    const before = remote.orgs[0]!.inventory;
    const after = reseeded(before);
    expect(after.findings.length).toBe(before.findings.length);
    reseed(after);

    const report = await sync();
    // The incremental sync found nothing updated since its last success, but the open findings' total differs.
    expect(report.mode).toBe('reconcile');
    const open = (inventory: Inventory) => inventory.findings.filter((finding) => finding.status === 'open').length;
    expect(report.countDifferences).toContainEqual({ check: 'openFindings', remote: open(after), replica: open(before) });
    expect(report.countDifferences?.map((difference) => difference.check)).not.toContain('findings');

    const replica = await serveV1(store);
    for (const collection of collectionNames) {
      expect(await listAll(replica.url, replicaKey, collection), collection).toEqual(await listAll(remote.url, remoteKey, collection));
    }
    const recorded = store.syncChanges.list(organization.rowId);
    expect(recorded[0]).toMatchObject({ mode: 'reconcile', counts: expectedCounts(before, after) });
    const wasOpen = new Set(before.findings.filter((finding) => finding.status === 'open').map((finding) => finding.id));
    expect(recorded[0]!.remediated.total).toBe(after.findings.filter((finding) => finding.status === 'remediated' && wasOpen.has(finding.id)).length);
    expect(store.sync.get(organization.rowId)).toMatchObject({
      lastSuccessMode: 'reconcile',
      lastReconciledAt: report.finishedAt,
      lastReconcileChanged: Object.values(expectedCounts(before, after)).reduce((sum, c) => sum + c.created + c.updated + c.removed, 0),
      countDifferences: [],
    });
    expect(Date.parse(store.sync.get(organization.rowId).lastMatchedAt!)).toBeGreaterThanOrEqual(Date.parse(report.finishedAt));
    // The counts match again: the next sync is incremental and stays so.
    expect((await sync()).mode).toBe('incremental');
  });

  it('that finds nothing different writes nothing but the sync state', async () => {
    const { dataDir, opened, organization, sync } = await setUp();
    const { store } = opened;
    await sync();
    const recorded = store.syncChanges.list(organization.rowId).length;
    const version = store.changes.written(['inventory']);
    const bytes = directoryBytes(dataDir);

    const report = await sync({ reconcile: true });
    expect(report).toMatchObject({ mode: 'reconcile', changes: null });
    expect(store.sync.get(organization.rowId)).toMatchObject({ lastSuccessMode: 'reconcile', lastReconcileChanged: 0, lastReconciledAt: report.finishedAt, countDifferences: [] });
    expect(store.syncChanges.list(organization.rowId)).toHaveLength(recorded);
    // The inventory's data did not change: the caches derived from it stay.
    expect(store.changes.written(['inventory'])).toBe(version);
    // The sync state's row, twice (the reconcile's record, then its count check): a few pages of change log.
    expect(directoryBytes(dataDir) - bytes).toBeLessThanOrEqual(16 * 1024);
  });

  it('runs when its interval has passed, an interval kept in the store', async () => {
    const { dataDir, opened, organization, sync } = await setUp();
    await sync();
    updateSyncSettings(opened.store, organization, { reconcileIntervalHours: 2 });
    expect((await sync()).mode).toBe('incremental');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 90 * 60_000 });
    expect((await sync()).mode).toBe('incremental');
    vi.setSystemTime(Date.now() + 60 * 60_000);
    expect((await sync()).mode).toBe('reconcile');
    expect((await sync()).mode).toBe('incremental');
    vi.useRealTimers();

    opened.store.close();
    opened.store = await Store.open({ dataDir, command: 'reconcile test' });
    expect(opened.store.sync.get(organization.rowId).reconcileIntervalHours).toBe(2);
  });

  it('turns into a full sync when the differences are more than it keeps in memory', async () => {
    const { remote, opened, organization, sync, reseed } = await setUp();
    await sync();
    reseed(reseeded(remote.orgs[0]!.inventory));
    const report = await sync({ reconcile: true, policy: { incrementalMaxItems: 20 } });
    expect(report.mode).toBe('full');
    expect(opened.store.sync.get(organization.rowId)).toMatchObject({ lastSuccessMode: 'full', lastReconciledAt: report.finishedAt, countDifferences: [] });
  });
});
