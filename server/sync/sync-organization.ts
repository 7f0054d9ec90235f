import type { RemoteTenant } from '../remote/remote-tenant.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import type { SyncCountDifference, SyncCounts, SyncProgress, SyncState } from '../../contracts/console/sync.js';
import type { SyncChangesSummary } from '../../contracts/console/sync-changes.js';
import type { SyncMode } from '../../contracts/enums.js';
import { SyncChangeTally } from '../store/basics/change-tally.js';
import { type SyncSuccess, skippedIdsKept } from '../store/records/sync-run-records.js';
import { OrganizationRemovedError } from '../store/sync-steps.js';
import { remoteHonoursUpdatedSince } from './probe-updated-since.js';
import { PageBudget, type PullOptions, type PulledCollection, pullCollection } from './pull-collection.js';
import { PulledChanges, TooManyChanges, betweenParts } from './pulled-changes.js';
import { checkDoneAfterSync } from '../work-packages/done-check.js';
import { fetchPage } from './remote-pages.js';
import { RemotePages } from './fetching-thread.js';
import { PageSize } from './page-size.js';
import { collections, type CollectionName } from '../../contracts/collections.js';
import { StagedInventory } from './staged-inventory.js';
import { baselineOf, countOutcome, observeCounts } from './count-check.js';
import { ReconcileDifferences } from './reconcile.js';
import { ReplicaReplacement } from './replica-replacement.js';
import { type EventFrom, type RunningState, type SyncEvent, type SyncMachineState, type SyncTransition, nextSyncState } from './sync-machine.js';
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
  /** Told of each transition of the sync's state machine (sync-machine.ts) as it is taken. */
  onTransition?: (transition: SyncTransition) => void;
}

/** Pulls one collection somewhere: into the staged inventory, or the changes in memory. */
type Pull = (collection: CollectionName, options: PullOptions) => Promise<PulledCollection>;

/**
 * Syncs a replica organization from its remote tenant, as a state machine (sync-machine.ts):
 * it chooses its mode, runs it, checks the remote's totals, and moves on the events each step
 * answers, in a loop, until it is done or failed. A full sync stages the four collections in
 * the store page by page under a new inventory and then points the organization at it in one
 * small transaction with the sync state (staged-inventory.ts), unless the replica already holds
 * data: then it compares first, as a reconcile, and past `incrementalMaxItems` differences
 * stages, or on the command line replaces the replica in place (replica-replacement.ts); an
 * incremental one (the remote honours `updatedSince` and no reconcile is due) pulls only the
 * changes and merges them; a reconcile (reconcile.ts: due on the replica's
 * interval, after `fullSyncEvery` incremental ones, or asked for) compares the whole remote with
 * the replica page by page and applies only the differences, deletions included. A merge or the
 * differences go in one transaction, or past `mergeItemsPerWrite` in parts that the
 * organization's readers wait for (SyncSteps.applyInParts); each records what it changed with
 * its last write (the store's sync steps, store/sync-steps.ts). After an
 * incremental sync the remote's totals are compared with the replica's (count-check.ts): a
 * difference starts a reconcile at once. A failure leaves the replica as it was (but for the
 * parts of a merge in parts written before it) and records why; what it staged is left to collection (`store.inventories.collect()`, which the caller runs).
 */
export async function syncOrganization(store: Store, organization: Organization, remote: RemoteTenant, options: SyncOptions = {}): Promise<SyncReport> {
  const run = new SyncRun(store, organization, remote, options);
  let state: SyncMachineState = 'choosing';
  try {
    while (state !== 'done' && state !== 'failed') {
      const from: RunningState = state;
      const event = await run.step(from);
      state = nextSyncState(from, event);
      options.onTransition?.({ from, event, to: state });
    }
  } finally {
    run.close();
  }
  if (state !== 'done') return run.fail();
  const report = run.report();
  // What is done in the ticket system is checked against the data the sync brought.
  await checkDoneAfterSync(store, organization);
  return report;
}

/** The work of each running state: what it does, and the event that ends it (a throw is `failed`). */
type StateWork = { [S in RunningState]: () => Promise<Exclude<EventFrom<S>, 'failed'>> };

/**
 * One sync as it runs: what its states share (the replica's state before it, whether the remote
 * honours `updatedSince`), and the attempt of the mode it runs (each mode entered starts one:
 * its own start time and page budget, as a sync of its own would have).
 */
class SyncRun {
  private readonly policy: SyncPolicy;
  private readonly previous: SyncState;
  private startedAt = new Date().toISOString();
  private attempts = 0;
  private mode: SyncMode | undefined;
  private pages: PageBudget;
  /** The sync's requests of the remote's lists, whose window of pages in flight, like the page size, is learnt over the whole sync, whatever kinds it runs. */
  private readonly remotePages: RemotePages;
  private readonly pageSize: PageSize;
  private honours = false;
  /**
   * A full sync of a replica that already holds data compares the remote with it and writes the
   * differences, as a reconcile does, before it stages a whole new copy: the file and memory then
   * hold one inventory, not two (docs/decisions/sync/a-full-sync-of-a-replica-with-data-compares-first.md).
   * Only on the way in from choosing: a full sync after too many changes stages at once.
   */
  private compareFirst = false;
  private outcome: { success: SyncSuccess; changed: SyncChangesSummary | undefined } | undefined;
  /** The totals that differed after the incremental sync and started a reconcile. */
  private countDifferences: SyncCountDifference[] | undefined;
  private failure: unknown;

  constructor(
    private readonly store: Store,
    private readonly organization: Organization,
    private readonly remote: RemoteTenant,
    private readonly options: SyncOptions,
  ) {
    this.policy = { ...defaultSyncPolicy, ...options.policy };
    this.previous = store.sync.get(organization.rowId);
    this.pages = new PageBudget(this.policy.pageBudget);
    this.remotePages = new RemotePages(remote, this.policy);
    this.pageSize = new PageSize(this.policy.pageSize, this.policy.specPageSize);
  }

  /** The sync ended: its requests of the remote's lists end with it. */
  close(): void {
    this.remotePages.close();
  }

  /** Runs a state's work and answers its event; what it throws is kept for {@link fail}. */
  async step(state: RunningState): Promise<SyncEvent> {
    try {
      return await this.work[state]();
    } catch (error) {
      this.failure = error;
      return 'failed';
    }
  }

  private readonly work: StateWork = {
    choosing: async () => {
      const { options, policy, previous } = this;
      this.progress({ phase: 'checking', fetched: 0, total: 0 });
      const fullDue = options.full || previous.lastSuccessStartedAt === null;
      this.honours = await remoteHonoursUpdatedSince(this.remote, policy, options.signal);
      if (fullDue || (!this.honours && !options.reconcile)) {
        this.compareFirst = previous.lastSuccessStartedAt !== null;
        return 'full-due';
      }
      return options.reconcile || reconcileDue(previous, policy) ? 'reconcile-due' : 'incremental-due';
    },
    incremental: async () => {
      const { store, organization, remote, policy, options } = this;
      this.begin('incremental');
      try {
        const totals = await remoteTotals(remote, policy, options.signal);
        const since = new Date(Date.parse(this.previous.lastSuccessStartedAt!) - policy.incrementalMarginMs).toISOString();
        const changes = new PulledChanges(policy.incrementalMaxItems);
        const success = this.succeeded(await this.pullAll((collection, pullOptions) => pullCollection(collection, changes.sink(collection), pullOptions), since));
        this.outcome = { success, changed: await applyChanges(store, organization, changes, totals, success, { itemsPerWrite: policy.mergeItemsPerWrite, signal: options.signal }) };
        return 'applied';
      } catch (error) {
        if (error instanceof DeletionsFound) return 'deletions-found';
        if (error instanceof TooManyChanges) return 'too-many-changes';
        throw error;
      }
    },
    reconcile: async () => {
      this.begin('reconcile');
      try {
        return await this.applyDifferences();
      } catch (error) {
        if (error instanceof TooManyChanges) return 'too-many-changes';
        throw error;
      }
    },
    full: async () => {
      const { store, organization } = this;
      this.begin('full');
      // The command line compares even after too many changes: past the bound it replaces in place, where staging holds two inventories.
      if (this.compareFirst || (this.policy.replaceInPlace && this.previous.lastSuccessStartedAt !== null)) {
        this.compareFirst = false;
        try {
          return await this.applyDifferences();
        } catch (error) {
          if (!(error instanceof TooManyChanges)) throw error;
          // More differences than a sync keeps in memory: the pull starts again, staged.
          this.begin('full');
        }
      }
      const inventory = new StagedInventory(store, this.policy.stagedWriteMs);
      try {
        const pulled = await this.pullAll((collection, pullOptions) => inventory.pull(collection, pullOptions), undefined);
        // A replica that never synced held nothing: its first sync's changes are its counts alone.
        const tally =
          this.previous.lastSuccessStartedAt === null
            ? SyncChangeTally.firstSync(pulled.counts)
            : await store.syncChanges.compare(organization.rowId, inventory.inventoryId, this.options.signal);
        const success = this.succeeded(pulled);
        this.outcome = { success, changed: await inventory.swap(organization, success, tally) };
        return 'applied';
      } finally {
        inventory.release();
      }
    },
    counting: async () => {
      const mode = this.mode!;
      const differences = await checkCounts(this.store, this.organization, this.remote, this.policy, mode, this.options.signal);
      // After a reconcile or full sync the differences seen are the baseline: they never start another.
      if (mode !== 'incremental' || differences.length === 0) return 'counts-checked';
      this.countDifferences = differences;
      return 'counts-differ';
    },
  };

  /**
   * Pulls the whole remote and compares it with the replica page by page, then applies only the
   * differences, deletions included (reconcile.ts, ReconcileDifferences.apply): what a reconcile does,
   * and what a full sync of a replica that holds data does first. Past `incrementalMaxItems`
   * differences a full sync by a policy that replaces in place does so ({@link replaceInPlace});
   * otherwise it throws {@link TooManyChanges}.
   */
  private async applyDifferences(): Promise<'applied'> {
    const replaceInPlace = this.mode === 'full' && this.policy.replaceInPlace;
    const differences = new ReconcileDifferences(this.store, this.organization, this.policy.incrementalMaxItems, replaceInPlace);
    const pulled = await this.pullAll((collection, pullOptions) => pullCollection(collection, differences.sink(collection), pullOptions), undefined);
    if (differences.beyondBound) return this.replaceInPlace(differences);
    try {
      await differences.findRemoved(this.options.signal);
    } catch (error) {
      if (replaceInPlace && error instanceof TooManyChanges) {
        differences.changes.forget();
        return this.replaceInPlace(differences);
      }
      throw error;
    }
    const success = this.succeeded(pulled);
    this.outcome = { success, changed: await differences.apply(success, this.policy.mergeItemsPerWrite, this.options.signal) };
    return 'applied';
  }

  /**
   * Replaces the replica in place once a full sync's comparison passed the bound
   * (replica-replacement.ts): the rows the remote did not send deleted, then the remote pulled
   * again, as an attempt of its own, and merged page by page.
   */
  private async replaceInPlace(compared: ReconcileDifferences): Promise<'applied'> {
    const replacement = new ReplicaReplacement(this.store, this.organization, compared, this.policy.rebuildIndexesFromRows);
    try {
      await replacement.removeUnsent(this.options.signal);
      this.begin('full');
      const pulled = await this.pullAll((collection, pullOptions) => pullCollection(collection, replacement.sink(collection), pullOptions), undefined);
      const success = this.succeeded(pulled);
      this.outcome = { success, changed: await replacement.finish(success, this.options.signal) };
      return 'applied';
    } finally {
      replacement.release();
    }
  }

  /** What the sync did, once done: the last mode's outcome, and the differences that started it, if any. */
  report(): SyncReport {
    const { success, changed } = this.outcome!;
    const report: SyncReport = { org: this.organization.slug, ...success, skippedIds: success.skippedIds.slice(0, skippedIdsKept), changes: changed ?? null };
    return this.countDifferences ? { ...report, countDifferences: this.countDifferences } : report;
  }

  /** Records why the sync failed (unless its organization was removed) and throws it, in words for the user. */
  fail(): never {
    const error = this.failure;
    const failure =
      error instanceof SyncFailedError
        ? error
        : error instanceof OrganizationRemovedError
          ? new SyncFailedError(error.message, { cause: error })
          : new SyncFailedError(this.options.signal?.aborted ? 'The sync was interrupted' : `The sync failed: ${error instanceof Error ? error.message : String(error)}`, {
              cause: error,
            });
    this.store.syncSteps.recordFailure(this.organization.rowId, { startedAt: this.startedAt, mode: this.mode ?? 'full', error: failure.message });
    throw failure;
  }

  /** Starts the attempt of a mode: after the first, with its own start time; each with its own page budget. */
  private begin(mode: SyncMode): void {
    if (this.attempts++ > 0) {
      this.startedAt = new Date().toISOString();
      this.pages = new PageBudget(this.policy.pageBudget);
    }
    this.mode = mode;
  }

  private succeeded(pulled: Pick<SyncSuccess, 'counts' | 'skippedCount' | 'skippedIds'>): SyncSuccess {
    return { startedAt: this.startedAt, finishedAt: new Date().toISOString(), mode: this.mode!, remoteHonoursUpdatedSince: this.honours, ...pulled };
  }

  private progress(progress: Omit<SyncProgress, 'org' | 'mode'>): void {
    this.options.onProgress?.({ org: this.organization.slug, mode: this.mode, ...progress });
  }

  /** Pulls the four collections in order through `pull`, telling the progress; the fetching thread ends with it. */
  private async pullAll(pull: Pull, updatedSince: string | undefined) {
    const { remote, policy, pages, remotePages, pageSize, options } = this;
    const { signal } = options;
    const counts: SyncCounts = { endpoints: 0, remediationTargets: 0, scopes: 0, findings: 0 };
    const skippedIds: string[] = [];
    let skippedCount = 0;
    for (const collection of syncOrder) {
      this.progress({ phase: 'fetching', collection, fetched: 0, total: 0 });
      const onPage = (fetched: number, total: number) => this.progress({ phase: 'fetching', collection, fetched, total });
      const pulled = await pull(collection, { remote, policy, pages, remotePages, pageSize, updatedSince, signal, onPage });
      counts[collection] = pulled.count;
      skippedCount += pulled.skippedCount;
      skippedIds.push(...pulled.skippedIds);
    }
    // The fetching thread ends with the pull: what follows (a comparison, a swap, a replacement's
    // indexes built again) does without its memory, and a later pull starts it again.
    remotePages.close();
    this.progress({ phase: 'writing', fetched: 0, total: 0 });
    signal?.throwIfAborted();
    return { counts, skippedCount, skippedIds };
  }
}

/**
 * Applies an incremental sync's changes with its record and what it changed (counted by the
 * merge from the rows it reads anyway): in one transaction, or past `itemsPerWrite` changes in
 * parts that the organization's readers wait for (SyncSteps.applyInParts), so that none sees a
 * merge half applied. The margin brings back what the last sync merged: the merge leaves those
 * out. Finding nothing new, it writes the record alone, keeping the caches derived from the data,
 * and records no changes. Rows beyond the remote's totals mean the remote deleted some:
 * {@link DeletionsFound}, and a reconcile instead; a merge in parts counts the rows it would add
 * before it writes any. Answers the changes recorded, in brief.
 */
async function applyChanges(
  store: Store,
  organization: Organization,
  changes: PulledChanges,
  totals: SyncCounts,
  success: SyncSuccess,
  { itemsPerWrite, signal }: { itemsPerWrite: number; signal?: AbortSignal },
): Promise<SyncChangesSummary | undefined> {
  const anyNew = await changes.anyNew((collection, items) => store.inventory.unchanged(organization.rowId, collection, items));
  // The totals the last count check kept, while the data has not changed since; else the list totals' cache, counted.
  const kept = store.sync.replicaTotals(organization.rowId);
  const before = kept
    ? { endpoints: kept.endpoints, remediationTargets: kept.remediationTargets, scopes: kept.scopes, findings: kept.findings }
    : await store.inventory.counts(organization.rowId);
  const beyondTotals = (added: SyncCounts) => syncOrder.some((collection) => before[collection] + added[collection] > totals[collection]);
  if (!anyNew) {
    if (beyondTotals({ endpoints: 0, remediationTargets: 0, scopes: 0, findings: 0 })) throw new DeletionsFound();
    return store.syncSteps.recordUnchanged(organization, success);
  }
  const parts = changes.parts(itemsPerWrite);
  if (parts.length === 1) {
    return store.syncSteps.apply(organization, success, (writes, inventoryId, tally) => {
      const added = writes.merge(inventoryId, changes.inventory, tally, { skipUnchanged: true });
      // Rolled back by the throw: the merge is undone.
      if (beyondTotals(added)) throw new DeletionsFound();
    });
  }
  if (beyondTotals(await changes.added((collection, ids) => store.inventory.heldCount(organization.rowId, collection, ids)))) throw new DeletionsFound();
  return store.syncSteps.applyInParts(
    organization,
    success,
    parts.map((part) => (writes, inventoryId, tally) => void writes.merge(inventoryId, part, tally, { skipUnchanged: true })),
    () => betweenParts(signal),
  );
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
  await store.syncSteps.recordCountCheck(organization.rowId, outcome);
  return outcome.differences;
}

/** Each collection's total on the remote, by one request of one item each. */
async function remoteTotals(remote: RemoteTenant, policy: SyncPolicy, signal?: AbortSignal): Promise<SyncCounts> {
  const totals: SyncCounts = { endpoints: 0, remediationTargets: 0, scopes: 0, findings: 0 };
  // Asked at once: four small requests, each a round trip the sync otherwise waits on in turn.
  await Promise.all(
    syncOrder.map(async (collection) => {
      totals[collection] = (await fetchPage(remote, `${collections[collection].v1Path}?limit=1&offset=0`, policy, signal)).total;
    }),
  );
  return totals;
}
