import type { RemoteTenant } from '../remote/remote-tenant.js';
import type { Organization } from '../store/organizations.js';
import type { Store } from '../store/store.js';
import type { SyncCounts, SyncProgress } from '../../contracts/console/sync.js';
import type { SyncChangesSummary } from '../../contracts/console/sync-changes.js';
import type { SyncMode } from '../../contracts/enums.js';
import { SyncChangeTally } from '../store/sync-change-tally.js';
import { type SyncSuccess, skippedIdsKept } from '../store/sync-records.js';
import { remoteHonoursUpdatedSince } from './probe-updated-since.js';
import { type PullOptions, type PulledCollection, pullCollection } from './pull-collection.js';
import { PulledChanges, TooManyChanges } from './pulled-changes.js';
import { fetchPage } from './remote-pages.js';
import { collections, type CollectionName } from '../../contracts/collections.js';
import { StagedInventory } from './staged-inventory.js';
import { syncOrder } from './sync-collections.js';
import { SyncFailedError } from './sync-errors.js';
import { type SyncPolicy, defaultSyncPolicy } from './sync-policy.js';

/** What a successful sync did. */
export interface SyncReport {
  org: string;
  mode: SyncMode;
  startedAt: string;
  finishedAt: string;
  /** Valid items received per collection (all of them for a full sync, the changes for an incremental one). */
  counts: SyncCounts;
  skippedCount: number;
  skippedIds: string[];
  /** What it changed, in brief, as recorded (store/sync-changes.ts); null when it changed nothing. */
  changes: SyncChangesSummary | null;
}

/** How one sync runs. */
export interface SyncOptions {
  /** A full sync even when an incremental one would do. */
  full?: boolean;
  policy?: Partial<SyncPolicy>;
  signal?: AbortSignal;
  onProgress?: (progress: SyncProgress) => void;
}

/** Pulls one collection somewhere: into the staged inventory, or the changes in memory. */
type Pull = (collection: CollectionName, options: PullOptions) => Promise<PulledCollection>;

/**
 * Syncs a replica organization from its remote tenant. A full sync stages the four collections
 * in the store page by page under a new inventory and then points the organization at it in
 * one small transaction with the sync state (staged-inventory.ts); an incremental one (the
 * remote honours `updatedSince` and no full sync is due) pulls only the changes and merges them
 * in one transaction. Either records what it changed in that same transaction (the merge counts
 * it; a full sync compares its staged inventory with the one it replaces, before the swap). A
 * failure leaves the replica as it was and records why; what it staged is left to collection
 * (`store.inventories.collect()`, which the caller runs).
 */
export async function syncOrganization(store: Store, organization: Organization, remote: RemoteTenant, options: SyncOptions = {}): Promise<SyncReport> {
  const policy = { ...defaultSyncPolicy, ...options.policy };
  const { signal } = options;
  const startedAt = new Date().toISOString();
  const previous = store.sync.get(organization.rowId);
  const report = (progress: Omit<SyncProgress, 'org'>) => options.onProgress?.({ org: organization.slug, ...progress });
  let mode: SyncMode | undefined;
  let staged: StagedInventory | undefined;

  const pullAll = async (pull: Pull, updatedSince: string | undefined) => {
    const counts: SyncCounts = { endpoints: 0, remediationTargets: 0, scopes: 0, findings: 0 };
    const skippedIds: string[] = [];
    let skippedCount = 0;
    for (const collection of syncOrder) {
      const currentMode = mode;
      report({ mode, phase: 'fetching', collection, fetched: 0, total: 0 });
      const onPage = (fetched: number, total: number) => report({ mode: currentMode, phase: 'fetching', collection, fetched, total });
      const pulled = await pull(collection, { remote, policy, updatedSince, signal, onPage });
      counts[collection] = pulled.count;
      skippedCount += pulled.skippedCount;
      skippedIds.push(...pulled.skippedIds);
    }
    report({ mode, phase: 'writing', fetched: 0, total: 0 });
    signal?.throwIfAborted();
    return { counts, skippedCount, skippedIds };
  };

  try {
    report({ mode, phase: 'checking', fetched: 0, total: 0 });
    const fullDue = options.full || previous.lastSuccessStartedAt === null || previous.incrementalsSinceFull >= policy.fullSyncEvery;
    const honours = await remoteHonoursUpdatedSince(remote, policy, signal);
    mode = !fullDue && honours ? 'incremental' : 'full';
    const succeeded = (outcome: Awaited<ReturnType<typeof pullAll>>): SyncSuccess => ({
      startedAt,
      finishedAt: new Date().toISOString(),
      mode: mode!,
      remoteHonoursUpdatedSince: honours,
      ...outcome,
    });
    let success: SyncSuccess;
    let changed: SyncChangesSummary | undefined;
    if (mode === 'incremental') {
      const totals = await remoteTotals(remote, policy, signal);
      const since = new Date(Date.parse(previous.lastSuccessStartedAt!) - policy.incrementalMarginMs).toISOString();
      const changes = new PulledChanges(policy.incrementalMaxItems);
      success = succeeded(await pullAll((collection, pullOptions) => pullCollection(collection, changes.sink(collection), pullOptions), since));
      changed = await applyChanges(store, organization, changes, totals, success);
    } else {
      const inventory = (staged = new StagedInventory(store));
      const pulled = await pullAll((collection, pullOptions) => inventory.pull(collection, pullOptions), undefined);
      // A replica that never synced held nothing: its first sync's changes are its counts alone.
      const tally =
        previous.lastSuccessStartedAt === null ? SyncChangeTally.firstSync(pulled.counts) : await store.syncChanges.compare(organization.rowId, inventory.inventoryId, signal);
      success = succeeded(pulled);
      changed = await inventory.swap(organization, success, tally);
    }
    return { org: organization.slug, ...success, skippedIds: success.skippedIds.slice(0, skippedIdsKept), changes: changed ?? null };
  } catch (error) {
    if (error instanceof DeletionsFound || error instanceof TooManyChanges) return syncOrganization(store, organization, remote, { ...options, full: true });
    const failure =
      error instanceof SyncFailedError
        ? error
        : new SyncFailedError(signal?.aborted ? 'The sync was interrupted' : `The sync failed: ${error instanceof Error ? error.message : String(error)}`, {
            cause: error,
          });
    if (store.organizations.byRowId(organization.rowId)) {
      store.write(() => store.sync.recordFailure(organization.rowId, { startedAt, mode: mode ?? 'full', error: failure.message }), { keepDerived: true });
    }
    throw failure;
  } finally {
    staged?.release();
  }
}

/**
 * Applies an incremental sync's changes in one transaction with its record and what it changed
 * (counted by the merge from the rows it reads anyway): all of them or none (a merge half
 * applied would show readers a mix). Finding nothing new (the margin brings back what the last
 * sync merged: those are left out), it writes the record alone, keeping the caches derived from
 * the data, and records no changes. Rows beyond the remote's totals mean the remote deleted
 * some: {@link DeletionsFound}, and a full sync instead. Answers the changes recorded, in brief.
 */
async function applyChanges(
  store: Store,
  organization: Organization,
  changes: PulledChanges,
  totals: SyncCounts,
  success: SyncSuccess,
): Promise<SyncChangesSummary | undefined> {
  await changes.dropUnchanged((collection, items) => store.inventory.unchanged(organization.rowId, collection, items));
  // The counts come from the list totals' cache, kept while the data does not change.
  const before = await store.inventory.counts(organization.rowId);
  const beyondTotals = (added: SyncCounts) => syncOrder.some((collection) => before[collection] + added[collection] > totals[collection]);
  const stillThere = () => {
    const current = store.organizations.byRowId(organization.rowId);
    if (!current) throw new SyncFailedError(`The organization "${organization.slug}" was removed during the sync`);
    return current;
  };
  if (changes.count === 0) {
    if (beyondTotals({ endpoints: 0, remediationTargets: 0, scopes: 0, findings: 0 })) throw new DeletionsFound();
    await store.writeSettled(() => {
      stillThere();
      store.sync.recordSuccess(organization.rowId, success);
    }, { keepDerived: true });
    return undefined;
  }
  return store.writeSettled((writes) => {
    const tally = new SyncChangeTally();
    const added = writes.merge(stillThere().inventoryId, changes.inventory, tally);
    // Rolled back by the throw: the merge is undone.
    if (beyondTotals(added)) throw new DeletionsFound();
    store.sync.recordSuccess(organization.rowId, success);
    return store.syncChanges.record(organization.rowId, success, tally);
  });
}

/** An incremental sync found rows the remote no longer has; the transaction rolls back. */
class DeletionsFound extends Error {}

/** Each collection's total on the remote, by one request of one item each. */
async function remoteTotals(remote: RemoteTenant, policy: SyncPolicy, signal?: AbortSignal): Promise<SyncCounts> {
  const totals: SyncCounts = { endpoints: 0, remediationTargets: 0, scopes: 0, findings: 0 };
  for (const collection of syncOrder) totals[collection] = (await fetchPage(remote, `${collections[collection].v1Path}?limit=1&offset=0`, policy, signal)).total;
  return totals;
}
