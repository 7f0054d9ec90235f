import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeOrganization } from '../organizations/manage-organizations.js';
import { logFiles } from '../store/engine/change-log.js';
import { parseLog } from '../store/engine/change-log-reader.js';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import { Store } from '../store/store.js';
import type { Database } from '../store/engine/database.js';
import { type FakeRemote, type FakeRemoteOptions, startFakeRemote } from '../test/support/fake-remote.js';
import { smallInventory } from '../test/support/fixtures.js';
import type { Inventory } from '../../contracts/inventory.js';
import { storeDigest } from '../test/support/store-digest.js';
import { sampleInventory } from '../test/support/sample-inventory.js';
import { expectedLists, fastPolicy, replicaLists, storeWithReplica } from '../test/support/sync-fixtures.js';
import { FetchingThread } from './fetching-thread.js';
import { SyncFailedError } from './sync-errors.js';
import { type SyncOptions, syncOrganization } from './sync-organization.js';
import { SyncScheduler } from './sync-scheduler.js';

const sizes = { endpoints: 30, targetsPerEndpoint: 3, findingsPerTarget: 3, scopes: 5 };
const remotes: FakeRemote[] = [];
const stores: Store[] = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(remotes.splice(0).map((remote) => remote.close()));
  for (const store of stores.splice(0)) store.close();
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

async function setUp(options: Partial<FakeRemoteOptions> = {}) {
  const remote = await startFakeRemote({ inventory: sampleInventory(sizes), ...options });
  remotes.push(remote);
  const { store, organization } = await storeWithReplica(remote.url);
  stores.push(store);
  const sync = (more: SyncOptions = {}) =>
    syncOrganization(store, organization, { baseUrl: remote.url, apiKey: remote.apiKey }, { ...more, policy: { ...fastPolicy, ...more.policy } });
  return { remote, store, organization, sync, lists: () => replicaLists(store, organization) };
}

/** The remote's next state: every endpoint renamed, a finding gone, one new. */
function nextState(remote: FakeRemote): void {
  const { inventory } = remote.options;
  inventory.endpoints = inventory.endpoints.map((endpoint) => ({ ...endpoint, hostname: `next-${endpoint.hostname}` }));
  inventory.findings = [...inventory.findings.slice(1), { ...inventory.findings[0]!, id: '00000003-0000-4000-8000-00000000abcd' }];
}

/**
 * A full sync of a replica that holds data compares first and writes the differences; one that
 * keeps none of them in memory stages at once, as every full sync into an empty replica does.
 */
const restage = { incrementalMaxItems: 0 };

describe('a full sync of a replica that holds data', () => {
  it('compares it with the remote and writes only the differences: no second copy is staged', async () => {
    const { remote, store, sync, lists } = await setUp();
    await sync();
    nextState(remote);
    const stage = vi.spyOn(store.syncSteps, 'stage');
    const version = store.changes.written(['inventory']);
    const report = await sync({ full: true });
    expect(report.mode).toBe('full');
    expect(report.counts).toEqual({ endpoints: 30, remediationTargets: 90, scopes: 5, findings: 270 });
    expect(stage).not.toHaveBeenCalled();
    expect(store.inventories.orphans()).toEqual([]);
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    expect(store.changes.written(['inventory'])).not.toBe(version);
    expect(report.changes).not.toBeNull();
  });

  it('with nothing different writes its record alone, keeping the derived caches', async () => {
    const { store, sync, lists } = await setUp();
    await sync();
    const before = lists();
    const version = store.changes.written(['inventory']);
    const report = await sync({ full: true });
    expect(report.mode).toBe('full');
    expect(report.changes).toBeNull();
    expect(store.changes.written(['inventory'])).toBe(version);
    expect(lists()).toEqual(before);
  });

  it('stages a new copy past the differences a sync keeps in memory, pulling the remote again', async () => {
    const { remote, store, sync, lists } = await setUp();
    await sync();
    nextState(remote);
    const before = remote.requests.length;
    const stage = vi.spyOn(store.syncSteps, 'stage');
    // Every endpoint was renamed: 30 differences, past the 5 kept.
    const report = await sync({ full: true, policy: { incrementalMaxItems: 5 } });
    expect(report.mode).toBe('full');
    expect(stage).toHaveBeenCalled();
    expect(store.inventories.orphans()).toHaveLength(1);
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    // The first page of endpoints, asked by the comparison and again by the staging.
    const firstPages = remote.requests.slice(before).filter(({ collection, offset, limit, updatedSince }) => collection === 'endpoints' && offset === 0 && limit > 1 && !updatedSince);
    expect(firstPages).toHaveLength(2);
  });
});

/** The command line's way past the bound: it replaces the replica in place rather than stage a copy beside it. */
const replaceInPlace = { incrementalMaxItems: 5, replaceInPlace: true };

/** The same inventory under other ids: a remote whose every item is new to the replica. */
function underOtherIds(inventory: Inventory): Inventory {
  const other = <T extends string | null>(id: T): T => (id === null ? id : (`e${id.slice(1)}` as T));
  return {
    endpoints: inventory.endpoints.map((endpoint) => ({ ...endpoint, id: other(endpoint.id) })),
    remediationTargets: inventory.remediationTargets.map((target) => ({ ...target, id: other(target.id), endpoint_id: other(target.endpoint_id) })),
    scopes: inventory.scopes.map((scope) => ({ ...scope, id: other(scope.id) })),
    findings: inventory.findings.map((finding) => ({
      ...finding,
      id: other(finding.id),
      endpoint_id: other(finding.endpoint_id),
      remediation_target_id: other(finding.remediation_target_id),
    })),
  };
}

/** The store's indexes, by name, with their statements. */
function indexesOf(store: Store): { name: string; sql: string }[] {
  return (store as unknown as { db: Database }).db.all<{ name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name");
}

describe('a full sync past the bound, by the command line\'s policy', () => {
  it('replaces the replica in place: the rows the remote no longer has deleted, the rest merged; no copy staged', async () => {
    const { remote, store, organization, sync, lists } = await setUp();
    await sync();
    nextState(remote);
    const before = remote.requests.length;
    const stage = vi.spyOn(store.syncSteps, 'stage');
    // Every endpoint was renamed: 30 differences, past the 5 kept.
    const report = await sync({ full: true, policy: replaceInPlace });
    expect(report.mode).toBe('full');
    expect(stage).not.toHaveBeenCalled();
    expect(store.inventories.orphans()).toEqual([]);
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    expect(store.syncSteps.whenApplied(organization.rowId)).toBeUndefined();
    const recorded = store.syncChanges.get(organization.rowId, report.changes!.id)!;
    expect(recorded.counts.endpoints).toEqual({ created: 0, updated: 30, removed: 0 });
    expect(recorded.counts.findings).toEqual({ created: 1, updated: 0, removed: 1 });
    // The first page of endpoints, asked by the comparison and again by the merge.
    const firstPages = remote.requests.slice(before).filter(({ collection, offset, limit, updatedSince }) => collection === 'endpoints' && offset === 0 && limit > 1 && !updatedSince);
    expect(firstPages).toHaveLength(2);
  });

  it('deletes the rows the remote no longer has before it merges: a remote of new ids takes the pages of the old', async () => {
    const { remote, store, organization, sync, lists } = await setUp();
    await sync();
    const inUse = () => store.pageBytes().bytes - store.pageBytes().freeBytes;
    const held = inUse();
    const oldIds = remote.options.inventory.findings.map((finding) => finding.id);
    remote.options.inventory = underOtherIds(remote.options.inventory);
    let most = 0;
    await sync({ full: true, policy: replaceInPlace, onProgress: () => (most = Math.max(most, inUse())) });
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    expect(store.inventory.heldCount(organization.rowId, 'findings', oldIds)).toBe(0);
    // Staged beside the replica, the pages in use would reach both inventories' (about twice).
    expect(most).toBeLessThan(held * 1.1);
  });

  it('puts a collection whose new items came among the older ones in the default order', async () => {
    const { remote, sync, lists } = await setUp();
    await sync();
    nextState(remote);
    const { endpoints } = remote.options.inventory;
    // New endpoints created between the first ones: merged after every row, then ordered.
    remote.options.inventory.endpoints = [...endpoints, ...endpoints.slice(0, 10).map((endpoint) => ({ ...endpoint, id: `f${endpoint.id.slice(1)}`, hostname: `new-${endpoint.hostname}` }))];
    await sync({ full: true, policy: replaceInPlace });
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
  });

  it('past its bulk bound drops the indexes but those by id and builds them again: the same lists, the same indexes', async () => {
    const { remote, store, sync, lists } = await setUp();
    await sync();
    const before = indexesOf(store);
    remote.options.inventory = underOtherIds(remote.options.inventory);
    const dropped: number[] = [];
    const differing = store.replicaComparison.differing.bind(store.replicaComparison);
    vi.spyOn(store.replicaComparison, 'differing').mockImplementation((...args) => {
      dropped.push(before.length - indexesOf(store).length);
      return differing(...args);
    });
    await sync({ full: true, policy: { ...replaceInPlace, rebuildIndexesFromRows: 0 } });
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    expect(indexesOf(store)).toEqual(before);
    // The second pull's pages were merged while the indexes on other columns were gone.
    expect(Math.max(...dropped)).toBeGreaterThan(10);
  });

  it('that fails partway keeps what the remote still has and lets readers go; the next sync brings the rest', async () => {
    const { remote, store, organization, sync, lists } = await setUp();
    await sync();
    const indexes = indexesOf(store);
    remote.options.inventory = underOtherIds(remote.options.inventory);
    // The second pull's findings fail: the comparison asked them once already.
    let findingsPages = 0;
    remote.options.fault = ({ collection, offset, limit }) => (collection === 'findings' && offset === 0 && limit > 1 && ++findingsPages > 1 ? { status: 500 } : undefined);
    await expect(sync({ full: true, policy: { ...replaceInPlace, rebuildIndexesFromRows: 0, requestAttempts: 1 } })).rejects.toThrow(SyncFailedError);
    expect(store.syncSteps.whenApplied(organization.rowId)).toBeUndefined();
    // The indexes it dropped were built again before the failure was recorded.
    expect(indexesOf(store)).toEqual(indexes);
    // The old rows are gone from the remote and from the replica; the new endpoints are there.
    expect(lists().endpoints).toEqual(expectedLists(remote.options.inventory).endpoints);
    expect(lists().findings).toEqual([]);
    remote.options.fault = undefined;
    await sync({ full: true, policy: replaceInPlace });
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
  });
});

describe('a full sync stages its pages', () => {
  it('shows readers the previous replica, complete, until the swap, and the new one after it; staging keeps the derived caches', async () => {
    const { remote, store, sync, lists } = await setUp();
    await sync();
    const before = lists();
    nextState(remote);
    const seen: { lists: unknown; version: number }[] = [];
    const version = store.changes.written(['inventory']);
    // Called between the sync's writes: when findings are requested, the other collections and
    // the first findings page are staged already.
    remote.options.fault = ({ collection, offset }) => {
      if (collection === 'findings' && offset === 100) seen.push({ lists: lists(), version: store.changes.written(['inventory']) });
      return undefined;
    };
    const report = await sync({ full: true, policy: restage });
    expect(report.mode).toBe('full');
    expect(seen).toEqual([{ lists: before, version }]);
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    expect(store.changes.written(['inventory'])).not.toBe(version);
  });

  it('leaves the previous replica when interrupted, and what it staged goes at the next collection', async () => {
    const { remote, store, sync, lists } = await setUp();
    await sync();
    const before = lists();
    nextState(remote);
    const controller = new AbortController();
    remote.options.fault = ({ collection, offset }) => {
      if (collection === 'findings' && offset === 200) controller.abort(new SyncFailedError('The sync was interrupted'));
      return undefined;
    };
    await expect(sync({ full: true, signal: controller.signal, policy: restage })).rejects.toThrow(/interrupted/);
    expect(lists()).toEqual(before);
    expect(store.inventories.orphans()).toHaveLength(1);
    await store.inventories.collect();
    expect(store.inventories.orphans()).toEqual([]);
    expect(lists()).toEqual(before);
  });

  it('collects the inventory a full sync replaced, and leaves the new one', async () => {
    const { remote, store, sync, lists } = await setUp();
    await sync();
    nextState(remote);
    await sync({ full: true, policy: restage });
    expect(store.inventories.orphans()).toHaveLength(1);
    await store.inventories.collect();
    expect(store.inventories.orphans()).toEqual([]);
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
  });

  it('gives the pages of the inventory it replaced back: the file on disk is what the data needs after a repeated full sync', async () => {
    const remote = await startFakeRemote({ inventory: sampleInventory(sizes) });
    remotes.push(remote);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-staged-weight-'));
    folders.push(dataDir);
    const file = path.join(dataDir, 'inventory.sqlite');
    let store = await Store.open({ dataDir });
    const organization = store.write(() => store.organizations.insert({ slug: 'replica', name: 'Replica', kind: 'replica', remoteUrl: remote.url }), {
      changes: ['organizations', 'inventory'],
    });
    const fullSync = async () => {
      await syncOrganization(store, organization, { baseUrl: remote.url, apiKey: remote.apiKey }, { full: true, policy: { ...fastPolicy, ...restage } });
      await store.inventories.collect();
      await store.checkpoint();
      const { bytes, freeBytes } = store.pageBytes();
      return { data: bytes - freeBytes, free: freeBytes / bytes, onDisk: fs.statSync(file).size };
    };
    try {
      await fullSync();
      nextState(remote);
      const second = await fullSync();
      expect(second.free).toBeLessThanOrEqual(0.1);
      expect(second.onDisk).toBeLessThanOrEqual(1.1 * second.data);
      const third = await fullSync();
      expect(third.onDisk).toBeLessThanOrEqual(1.1 * third.data);
      expect(replicaLists(store, organization)).toEqual(expectedLists(remote.options.inventory));
    } finally {
      store.close();
    }
    // Throws unless SQLite's integrity check of the files on disk passes.
    await storeDigest(dataDir);
    store = await Store.open({ dataDir, readOnly: true });
    stores.push(store);
    expect(replicaLists(store, organization)).toEqual(expectedLists(remote.options.inventory));
  });

  it('logs its staging as pages: no statement of it reaches the change log', async () => {
    const remote = await startFakeRemote({ inventory: sampleInventory(sizes) });
    remotes.push(remote);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-staged-pages-'));
    folders.push(dataDir);
    const store = await Store.open({ dataDir });
    stores.push(store);
    const organization = store.write(() => store.organizations.insert({ slug: 'replica', name: 'Replica', kind: 'replica', remoteUrl: remote.url }), {
      changes: ['organizations', 'inventory'],
    });
    await store.checkpoint();
    await syncOrganization(store, organization, { baseUrl: remote.url, apiKey: remote.apiKey }, { full: true, policy: fastPolicy });
    const logged = logFiles(path.join(dataDir, 'inventory.sqlite')).flatMap(({ file }) => parseLog(fs.readFileSync(file)).transactions.flat());
    const statements = logged.flatMap((frame) => (frame.kind === 'statement' ? [frame.statement.sql] : []));
    expect(logged.some((frame) => frame.kind === 'write')).toBe(true);
    // The swap and the sync's record may be statements; a staged row never is.
    expect(statements.filter((sql) => /INSERT INTO (endpoints|remediation_targets|scopes|findings)\b/i.test(sql))).toEqual([]);
    expect(replicaLists(store, organization)).toEqual(expectedLists(remote.options.inventory));
  });

  it('reserves room for the rest of a collection once its first items tell how much', async () => {
    const { store, sync } = await setUp({ inventory: sampleInventory({ ...sizes, endpoints: 400 }) });
    const reserve = vi.spyOn(store, 'reserve');
    await sync();
    // Findings (3,600) and targets (1,200) pass the sample and have more to come after it.
    expect(reserve.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(reserve.mock.calls[0]![0]).toBeGreaterThan(0);
  });

  it('stages as many rows a write as its policy lets a write take', async () => {
    const inventory = sampleInventory({ ...sizes, endpoints: 100, findingsPerTarget: 5 });
    const rowsPerStagedWrite = async (stagedWriteMs: number) => {
      const { store, sync } = await setUp({ inventory });
      const stage = vi.spyOn(store.syncSteps, 'stage');
      await sync({ full: true, policy: { stagedWriteMs } });
      return stage.mock.calls.filter(([, collection]) => collection === 'findings').map(([, , items]) => items.length);
    };
    // Every write here takes more than a hundredth of a millisecond and less than five seconds.
    const short = await rowsPerStagedWrite(0.01);
    const long = await rowsPerStagedWrite(10_000);
    expect(short).toEqual(Array<number>(15).fill(100));
    // One count for the whole sync, doubled after each quick write since the endpoints' first.
    expect(long.length).toBeLessThanOrEqual(2);
    expect(Math.max(...long)).toBeGreaterThanOrEqual(800);
    expect(long.reduce((sum, rows) => sum + rows)).toBe(inventory.findings.length);
  });

  it('puts pages that break the default order in it', async () => {
    const inventory = sampleInventory(sizes);
    // Every other findings page comes reversed, and the endpoints come newest first.
    const { remote, sync, lists } = await setUp({
      inventory,
      fault: ({ collection, offset }) =>
        collection === 'findings' && offset % 200 === 0 ? { page: (page) => ({ ...page, data: [...page.data].reverse() }) } : undefined,
    });
    await sync();
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    remote.options.order = 'newest-first';
    nextState(remote);
    await sync({ full: true, policy: restage });
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
  });
});

describe('an incremental sync', () => {
  it('that finds nothing new never starts the fetching thread: each of its lists fits in one page', async () => {
    const { sync } = await setUp();
    await sync();
    const shared = vi.spyOn(FetchingThread, 'shared');
    try {
      expect((await sync()).mode).toBe('incremental');
      expect(shared).not.toHaveBeenCalled();
    } finally {
      shared.mockRestore();
    }
  });

  it('that finds nothing new writes its record alone, keeping the derived caches', async () => {
    const { remote, store, organization, sync, lists } = await setUp();
    await sync();
    let version = store.changes.written(['inventory']);
    const report = await sync();
    expect(report.mode).toBe('incremental');
    expect(store.changes.written(['inventory'])).toBe(version);
    expect(store.sync.get(organization.rowId)).toMatchObject({ lastSuccessMode: 'incremental', incrementalsSinceFull: 1 });

    // What changed since is merged once; the next sync's margin brings it back, unchanged.
    const { endpoints } = remote.options.inventory;
    endpoints[3] = { ...endpoints[3]!, hostname: 'renamed.example.test', updated_at: new Date().toISOString() };
    expect((await sync()).counts.endpoints).toBe(1);
    expect(store.changes.written(['inventory'])).not.toBe(version);
    version = store.changes.written(['inventory']);
    expect((await sync()).counts.endpoints).toBe(1);
    expect(store.changes.written(['inventory'])).toBe(version);
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
  });

  it('with new changes beside what its margin brings back, merges and counts only the new ones', async () => {
    const { remote, store, organization, sync, lists } = await setUp();
    await sync();
    const { endpoints } = remote.options.inventory;
    endpoints[3] = { ...endpoints[3]!, hostname: 'renamed.example.test', updated_at: new Date().toISOString() };
    await sync();
    // Endpoint 3 comes back in the margin, unchanged; endpoint 5 changed since.
    endpoints[5] = { ...endpoints[5]!, hostname: 'also-renamed.example.test', updated_at: new Date().toISOString() };
    const report = await sync();
    expect(report.counts.endpoints).toBe(2);
    expect(store.syncChanges.get(organization.rowId, report.changes!.id)!.counts.endpoints).toEqual({ created: 0, updated: 1, removed: 0 });
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
  });

  it("keeps the replica's totals while it writes nothing, and moves them by what its merge wrote", async () => {
    const { remote, store, organization, sync } = await setUp();
    await sync();
    const { findings } = remote.options.inventory;
    const counted = store.sync.replicaTotals(organization.rowId)!;
    expect(counted).toMatchObject({ findings: findings.length, openFindings: findings.filter((finding) => finding.status === 'open').length });

    // Nothing new: the check takes the totals kept, and counts nothing.
    const countList = vi.spyOn(store.inventory, 'countList');
    expect((await sync()).mode).toBe('incremental');
    expect(countList).not.toHaveBeenCalled();
    expect(store.sync.replicaTotals(organization.rowId)).toEqual(counted);

    // An open finding remediated: the merge moves the totals kept, and nothing is counted.
    const open = findings.findIndex((finding) => finding.status === 'open');
    const now = new Date().toISOString();
    findings[open] = { ...findings[open]!, status: 'remediated', remediated_at: now, updated_at: now };
    const report = await sync();
    expect(report.countDifferences).toBeUndefined();
    expect(countList).not.toHaveBeenCalled();
    expect(store.sync.replicaTotals(organization.rowId)).toEqual({ ...counted, openFindings: counted.openFindings - 1 });
  });

  it("moves the replica's totals as counting them again would, for every check's field and for new items", async () => {
    const { remote, store, organization, sync } = await setUp();
    await sync();
    expect(store.sync.replicaTotals(organization.rowId)).not.toBeNull();
    const { inventory } = remote.options;
    const now = new Date().toISOString();
    const touched = <T extends { updated_at: string }>(item: T, change: Partial<T>): T => ({ ...item, ...change, updated_at: now });
    inventory.endpoints = inventory.endpoints.map((endpoint, i) => (i % 4 === 1 ? touched(endpoint, { agent_id: endpoint.agent_id === null ? crypto.randomUUID() : null }) : endpoint));
    inventory.remediationTargets = inventory.remediationTargets.map((target, i) =>
      i % 5 === 2 ? touched(target, { status: target.status === 'active' ? 'resolved' : 'active' }) : target,
    );
    // Moves chosen by the values themselves, so that no two wrong moves cancel out (the sample cycles its severities).
    inventory.findings = inventory.findings.map((finding, i) =>
      finding.severity === 'medium' && i % 3 === 0
        ? touched(finding, { is_kev: !finding.is_kev, severity: 'critical', status: finding.status === 'open' ? 'remediated' : 'open' })
        : finding.severity === 'critical' && i % 2 === 0
          ? touched(finding, { severity: 'low' })
          : finding,
    );
    // New items too: an endpoint with an agent, and an open critical KEV finding on it.
    const [endpoint] = inventory.endpoints;
    const [finding] = inventory.findings;
    const newEndpoint = { ...endpoint!, id: crypto.randomUUID(), agent_id: crypto.randomUUID(), created_at: now, updated_at: now };
    inventory.endpoints.push(newEndpoint);
    inventory.findings.push({ ...finding!, id: crypto.randomUUID(), endpoint_id: newEndpoint.id, status: 'open', severity: 'critical', is_kev: true, created_at: now, updated_at: now });
    const report = await sync();
    expect(report.mode).toBe('incremental');
    expect(report.countDifferences).toBeUndefined();
    const moved = store.sync.replicaTotals(organization.rowId)!;

    // Counted afresh: a sync with nothing new, after a count check that kept no totals.
    await store.syncSteps.recordCountCheck(organization.rowId, { checkedAt: now, differences: [] });
    expect(store.sync.replicaTotals(organization.rowId)).toBeNull();
    await sync();
    expect(store.sync.replicaTotals(organization.rowId)).toEqual(moved);
  });

  it('turns full when there are more changes than it keeps in memory', async () => {
    const { remote, sync, lists } = await setUp();
    await sync();
    nextState(remote);
    const now = new Date().toISOString();
    remote.options.inventory.endpoints = remote.options.inventory.endpoints.map((endpoint) => ({ ...endpoint, updated_at: now }));
    expect((await sync({ policy: { incrementalMaxItems: 10 } })).mode).toBe('full');
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
  });
});

describe('collection', () => {
  it("deletes a removed organization's inventory, and nothing of the others'", async () => {
    const store = await Store.open();
    stores.push(store);
    const [kept, removed] = store.write((writes) =>
      ['kept', 'removed'].map((slug, i) => {
        const organization = store.organizations.insert({ slug, name: slug, kind: 'local' });
        writes.replace(organization.inventoryId, smallInventory(5 + i, 10));
        return organization;
      }), { changes: ['organizations', 'inventory'] },
    );
    const keptLists = replicaLists(store, kept!);
    removeOrganization(store, 'removed', undefined);
    expect(store.organizations.bySlug('removed')).toBeUndefined();
    expect(store.inventories.orphans()).toEqual([removed!.inventoryId]);
    expect(replicaLists(store, removed!).findings).toEqual([]);
    await store.inventories.collect();
    expect(store.inventories.orphans()).toEqual([]);
    expect(replicaLists(store, kept!)).toEqual(keptLists);
  });

  it('deletes, at the next start, what a process that died while staging left behind', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-staged-leftover-'));
    folders.push(dataDir);
    const first = await Store.open({ dataDir, command: 'test' });
    const leftover = first.inventories.stage();
    first.write((writes) => writes.append(leftover, 'endpoints', sampleInventory(sizes).endpoints, []), { changes: ['staged-inventory'] });
    // The process dies here: nothing releases or deletes the staged rows.
    first.close();

    const store = await Store.open({ dataDir, command: 'test' });
    stores.push(store);
    expect(store.inventories.orphans()).toEqual([leftover]);
    const scheduler = new SyncScheduler({ store, sealer: keyFileSealer(path.join(dataDir, 'sealing.key')), policy: fastPolicy });
    scheduler.start();
    await vi.waitFor(() => expect(store.inventories.orphans()).toEqual([]));
    await scheduler.stop();
  });
});
