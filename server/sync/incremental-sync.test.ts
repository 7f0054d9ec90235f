import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Inventory } from '../../contracts/inventory.js';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import type { Store } from '../store/store.js';
import { type FakeRemote, type FakeRemoteOptions, startFakeRemote } from '../test/support/fake-remote.js';
import { sampleInventory } from '../test/support/sample-inventory.js';
import { type SyncOptions, syncOrganization } from './sync-organization.js';
import { SyncScheduler } from './sync-scheduler.js';
import { expectedLists, fastPolicy, replicaLists, storeWithReplica } from '../test/support/sync-fixtures.js';

const sizes = { endpoints: 40, targetsPerEndpoint: 3, findingsPerTarget: 3, scopes: 6 };
const remotes: FakeRemote[] = [];
const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(remotes.splice(0).map((remote) => remote.close()));
  for (const store of stores.splice(0)) store.close();
});

async function setUp(options: Partial<FakeRemoteOptions> = {}) {
  const remote = await startFakeRemote({ inventory: sampleInventory(sizes), ...options });
  remotes.push(remote);
  const { store, organization } = await storeWithReplica(remote.url);
  stores.push(store);
  const sync = (more: SyncOptions = {}) =>
    syncOrganization(store, organization, { baseUrl: remote.url, apiKey: remote.apiKey }, { ...more, policy: { ...fastPolicy, ...more.policy } });
  return { remote, store, organization, sync, lists: () => replicaLists(store, organization), inventory: remote.options.inventory };
}

/** Changes one item in a hundred of every collection (at least one), as a remote's day of work would. */
function changeOnePercent(inventory: Inventory): number {
  const now = new Date().toISOString();
  let changed = 0;
  for (const items of [inventory.endpoints, inventory.remediationTargets, inventory.scopes, inventory.findings] as { updated_at: string }[][]) {
    for (let i = 0; i < items.length; i += 100) {
      items[i] = { ...items[i]!, updated_at: now };
      changed++;
    }
  }
  inventory.endpoints[0]!.hostname = 'renamed.example.test';
  inventory.findings[0]!.status = 'remediated';
  return changed;
}

describe('incremental sync', () => {
  it('fetches only what changed, places new early and late records in order, and equals the remote', async () => {
    const { sync, lists, inventory, remote } = await setUp();
    await sync();
    const changed = changeOnePercent(inventory);
    const now = new Date().toISOString();
    inventory.findings.push({ ...inventory.findings[5]!, id: '00000003-0000-4000-8000-aaaaaaaaaaaa', created_at: '2019-06-01T00:00:00+02:00', updated_at: now });
    inventory.endpoints.push({ ...inventory.endpoints[5]!, id: '00000001-0000-4000-8000-bbbbbbbbbbbb', created_at: now, updated_at: now });
    // An existing record whose created_at moved: it must move in the order too.
    inventory.remediationTargets[7] = { ...inventory.remediationTargets[7]!, created_at: '2018-01-01T00:00:00Z', updated_at: now };
    const before = remote.requests.length;

    const report = await sync();
    expect(report.mode).toBe('incremental');
    const counts = report.counts;
    expect(counts.endpoints + counts.remediationTargets + counts.scopes + counts.findings).toBe(changed + 3);
    expect(remote.requests.slice(before).filter((r) => r.limit === 100).every((r) => r.updatedSince !== undefined)).toBe(true);
    expect(lists()).toEqual(expectedLists(inventory));
  });

  it('turns into a reconcile when the remote has fewer records than the replica', async () => {
    const { sync, lists, inventory } = await setUp();
    await sync();
    inventory.findings.splice(10, 5);
    expect((await sync()).mode).toBe('reconcile');
    expect(lists()).toEqual(expectedLists(inventory));
  });

  it('reconciles a deletion that leaves the totals level, by the differences seen after the last full comparison', async () => {
    const { sync, lists, inventory } = await setUp();
    // The replica skips an invalid record the remote counts: one deletion there leaves the counts level.
    delete (inventory.endpoints[7] as Partial<(typeof inventory.endpoints)[number]>).hostname;
    await sync();
    expect((await sync()).mode).toBe('incremental');
    const removed = inventory.endpoints.splice(3, 1)[0]!;
    const report = await sync();
    expect(report.mode).toBe('reconcile');
    expect(report.countDifferences).toContainEqual({ check: 'endpoints', remote: inventory.endpoints.length, replica: inventory.endpoints.length });
    expect(lists().endpoints).not.toContainEqual(removed);
    expect(lists()).toEqual(expectedLists({ ...inventory, endpoints: inventory.endpoints.filter((e) => e.hostname !== undefined) }));
    expect((await sync()).mode).toBe('incremental');
  });

  it('reconciles after the configured number of incremental syncs', async () => {
    const { sync } = await setUp();
    const modes: string[] = [];
    for (let i = 0; i < 5; i++) modes.push((await sync({ policy: { fullSyncEvery: 2 } })).mode);
    expect(modes).toEqual(['full', 'incremental', 'incremental', 'reconcile', 'incremental']);
  });

  it('syncs in full from a remote that ignores updatedSince', async () => {
    const { sync, lists, inventory, store, organization } = await setUp({ honoursUpdatedSince: false });
    await sync();
    changeOnePercent(inventory);
    expect((await sync()).mode).toBe('full');
    expect(store.sync.get(organization.rowId).remoteHonoursUpdatedSince).toBe(false);
    expect(lists()).toEqual(expectedLists(inventory));
  });
});

describe('SyncScheduler', () => {
  it('runs one sync per organization at a time, shows its progress, and records the outcome', async () => {
    const { remote, store } = await setUp({ fault: () => ({ delayMs: 5 }) });
    const sealerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-sync-sealer-'));
    try {
      const sealer = keyFileSealer(path.join(sealerDir, 'sealing.key'));
      const organization = store.organizations.bySlug('replica')!;
      store.write(() => store.organizations.setSealedSecret(organization.rowId, 'remote_key', sealer.seal(Buffer.from(remote.apiKey))), { changes: ['organizations'] });
      const scheduler = new SyncScheduler({ store, sealer, policy: fastPolicy, intervalMs: 60_000 });
      const seen: string[] = [];
      scheduler.on('progress', (progress) => seen.push(progress.phase));
      // A replica never synced is due at once when the scheduler starts.
      scheduler.start();
      expect(scheduler.isRunning('replica')).toBe(true);
      const first = scheduler.syncNow('replica');
      const second = scheduler.syncNow('replica');
      expect(second).toBe(first);
      expect(scheduler.status('replica')?.running).toBe(true);
      await first;
      expect(seen).toContain('fetching');
      expect(scheduler.status('replica')).toMatchObject({ running: false, progress: null, state: { lastError: null, lastSuccessMode: 'full' } });
      await expect(scheduler.syncNow('nope')).rejects.toThrow(/No organization/);

      const interrupted = scheduler.syncNow('replica', { full: true });
      await scheduler.stop();
      await expect(interrupted).rejects.toThrow(/interrupted/);
      expect(scheduler.status('replica')?.state.lastError).toMatch(/interrupted/);
    } finally {
      fs.rmSync(sealerDir, { recursive: true, force: true });
    }
  });
});
