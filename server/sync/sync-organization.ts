import type { RemoteTenant } from '../remote/remote-tenant.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import type { SyncCountDifference, SyncCounts, SyncProgress, SyncState } from '../../contracts/console/sync.js';
import type { SyncChangesSummary } from '../../contracts/console/sync-changes.js';
import type { SyncMode } from '../../contracts/enums.js';
import { SyncChangeTally } from '../store/basics/change-tally.js';
import { type SyncSuccess, skippedIdsKept } from '../store/records/sync-run-records.js';
import { remoteHonoursUpdatedSince } from './probe-updated-since.js';
import { PageBudget, type PullOptions, type PulledCollection, pullCollection } from './pull-collection.js';
import { PulledChanges, TooManyChanges } from './pulled-changes.js';
import { fetchPage } from './remote-pages.js';
import { collections, type CollectionName } from '../../contracts/collections.js';
import { StagedInventory } from './staged-inventory.js';
import { baselineOf, countOutcome, observeCounts } from './count-check.js';
import { ReconcileDifferences } from './reconcile.js';
import { recordNothingChanged, stillThere } from './replica-records.js';
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
  /** The totals that differed after an incremental sync and started this reconcile; absent otherwise. */
  countDifferences?: SyncCountDifference[];
}

/** How one sync runs. */
export interface SyncOptions {
  /** A full sync even when an incremental one would do. */
  full?: boolean;
  /** A reconcile even when an incremental one would do (a full sync still when the replica never synced). */
  reconcile?: boolean;
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
 * remote honours `updatedSince` and no reconcile is due) pulls only the changes and merges them
 * in one transaction; a reconcile (reconcile.ts: due on the replica's interval, after
 * `fullSyncEvery` incremental ones, or asked for) compares the whole remote with the replica
 * page by page and applies only the differences, deletions included, in one transaction. Each
 * records what it changed in that same transaction. After an incremental sync the remote's
 * totals are compared with the replica's (count-check.ts): a difference starts a reconcile at
 * once. A failure leaves the replica as it was and records why; what it staged is left to
 * collection (`store.inventories.collect()`, which the caller runs).
 */
export async function syncOrganization(store: Store, organization: Organization, remote: RemoteTenant, options: SyncOptions = {}): Promise<SyncReport> {
  const policy = { ...defaultSyncPolicy, ...options.policy };
  const { signal } = options;
  const startedAt = new Date().toISOString();
  const previous = store.sync.get(organization.rowId);
  const report = (progress: Omit<SyncProgress, 'org'>) => options.onProgress?.({ org: organization.slug, ...progress });
  let mode: SyncMode | undefined;
  let staged: StagedInventory | undefined;
  let syncReport: SyncReport;
  let differences: SyncCountDifference[];

  const pages = new PageBudget(policy.pageBudget);
  const pullAll = async (pull: Pull, updatedSince: string | undefined) => {
    const counts: SyncCounts = { endpoints: 0, remediationTargets: 0, scopes: 0, findings: 0 };
    const skippedIds: string[] = [];
    let skippedCount = 0;
    for (const collection of syncOrder) {
      const currentMode = mode;
      report({ mode, phase: 'fetching', collection, fetched: 0, total: 0 });
      const onPage = (fetched: number, total: number) => report({ mode: currentMode, phase: 'fetching', collection, fetched, total });
      const pulled = await pull(collection, { remote, policy, pages, updatedSince, signal, onPage });
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
    const fullDue = options.full || previous.lastSuccessStartedAt === null;
    const honours = await remoteHonoursUpdatedSince(remote, policy, signal);
    mode = fullDue || (!honours && !options.reconcile) ? 'full' : options.reconcile || reconcileDue(previous, policy) ? 'reconcile' : 'incremental';
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
    } else if (mode === 'reconcile') {
      const differences = new ReconcileDifferences(store, organization, policy.incrementalMaxItems);
      const pulled = await pullAll((collection, pullOptions) => pullCollection(collection, differences.sink(collection), pullOptions), undefined);
      await differences.findRemoved(signal);
      success = succeeded(pulled);
      changed = await differences.apply(success);
    } else {
      const inventory = (staged = new StagedInventory(store));
      const pulled = await pullAll((collection, pullOptions) => inventory.pull(collection, pullOptions), undefined);
      // A replica that never synced held nothing: its first sync's changes are its counts alone.
      const tally =
        previous.lastSuccessStartedAt === null ? SyncChangeTally.firstSync(pulled.counts) : await store.syncChanges.compare(organization.rowId, inventory.inventoryId, signal);
      success = succeeded(pulled);
      changed = await inventory.swap(organization, success, tally);
    }
    syncReport = { org: organization.slug, ...success, skippedIds: success.skippedIds.slice(0, skippedIdsKept), changes: changed ?? null };
    differences = await checkCounts(store, organization, remote, policy, mode, signal);
  } catch (error) {
    if (error instanceof DeletionsFound) return syncOrganization(store, organization, remote, { ...options, reconcile: true });
    if (error instanceof TooManyChanges) return syncOrganization(store, organization, remote, { ...options, reconcile: false, full: true });
    const failure =
      error instanceof SyncFailedError
        ? error
        : new SyncFailedError(signal?.aborted ? 'The sync was interrupted' : `The sync failed: ${error instanceof Error ? error.message : String(error)}`, {
            cause: error,
          });
    if (store.organizations.byRowId(organization.rowId)) {
      store.write(() => store.sync.recordFailure(organization.rowId, { startedAt, mode: mode ?? 'full', error: failure.message }), { changes: ['sync-records'] });
    }
    throw failure;
  } finally {
    staged?.release();
  }
  if (differences.length === 0) return syncReport;
  // Outside the sync's try: a failed reconcile records its own failure.
  const reconciled = await syncOrganization(store, organization, remote, { ...options, full: false, reconcile: true });
  return { ...reconciled, countDifferences: differences };
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
  if (changes.count === 0) {
    if (beyondTotals({ endpoints: 0, remediationTargets: 0, scopes: 0, findings: 0 })) throw new DeletionsFound();
    return recordNothingChanged(store, organization, success);
  }
  return store.writeSettled((writes) => {
    const tally = new SyncChangeTally();
    const added = writes.merge(stillThere(store, organization).inventoryId, changes.inventory, tally);
    // Rolled back by the throw: the merge is undone.
    if (beyondTotals(added)) throw new DeletionsFound();
    store.sync.recordSuccess(organization.rowId, success);
    return store.syncChanges.record(organization.rowId, success, tally);
  }, { changes: ['inventory', 'sync-records'] });
}

/** An incremental sync found rows the remote no longer has; the transaction rolls back, and a reconcile runs instead. */
class DeletionsFound extends Error {}

/**
 * Whether a reconcile is due instead of an incremental sync: the replica was never reconciled
 * (nor fully synced), its interval has passed since, or `fullSyncEvery` incremental syncs ran.
 */
function reconcileDue(state: SyncState, policy: SyncPolicy, now = Date.now()): boolean {
  if (state.incrementalsSinceFull >= policy.fullSyncEvery || state.lastReconciledAt === null) return true;
  return now - Date.parse(state.lastReconciledAt) >= state.reconcileIntervalHours * 3600_000;
}

/**
 * Compares the remote's totals with the replica's after a successful sync (count-check.ts) and
 * records it. After a reconcile or full sync, which left the replica equal to its remote, the
 * differences seen are those of items it skips as invalid: they become the baseline of later
 * checks. After an incremental sync answers the totals that differ beyond it (a reconcile is
 * then due). A check that cannot be made (the remote failed it) changes nothing: the sync has
 * succeeded, and the next one checks again.
 */
async function checkCounts(store: Store, organization: Organization, remote: RemoteTenant, policy: SyncPolicy, mode: SyncMode, signal?: AbortSignal) {
  let observed;
  try {
    observed = await observeCounts(store, organization, remote, policy, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    return [];
  }
  const baseline = mode === 'incremental' ? store.sync.countBaseline(organization.rowId) : baselineOf(observed);
  const outcome = countOutcome(observed, baseline);
  if (mode !== 'incremental') outcome.baseline = baseline;
  // Its fsync in the thread pool, as the sync's own write (Store.writeSettled).
  await store.writeSettled(() => {
    if (store.organizations.byRowId(organization.rowId)) store.sync.recordCountCheck(organization.rowId, outcome);
  }, { changes: ['sync-records'] });
  return outcome.differences;
}

/** Each collection's total on the remote, by one request of one item each. */
async function remoteTotals(remote: RemoteTenant, policy: SyncPolicy, signal?: AbortSignal): Promise<SyncCounts> {
  const totals: SyncCounts = { endpoints: 0, remediationTargets: 0, scopes: 0, findings: 0 };
  for (const collection of syncOrder) totals[collection] = (await fetchPage(remote, `${collections[collection].v1Path}?limit=1&offset=0`, policy, signal)).total;
  return totals;
}
