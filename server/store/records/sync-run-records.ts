import type { SyncCountDifference, SyncCounts, SyncSettings, SyncState } from '../../../contracts/console/sync.js';
import { type SyncCountCheckId, defaultReconcileIntervalHours } from '../../../contracts/console/sync-basics.js';
import type { SyncMode } from '../../../contracts/enums.js';
import type { Database } from '../engine/database.js';

interface SyncStateRow {
  last_attempt_at: string | null;
  last_attempt_mode: SyncMode | null;
  last_success_at: string | null;
  last_success_started_at: string | null;
  last_success_mode: SyncMode | null;
  incrementals_since_full: number;
  remote_honours_updated_since: number | null;
  last_error: string | null;
  counts: string | null;
  skipped_count: number;
  skipped_ids: string;
  reconcile_interval_hours: number;
  last_reconciled_at: string | null;
  last_reconcile_changed: number | null;
  last_matched_at: string | null;
  count_differences: string;
  count_baseline: string;
  syncs_paused: number;
  replica_totals: string | null;
}

/** How many skipped ids are kept: enough to find the bad records, bounded whatever the remote sends. */
export const skippedIdsKept = 100;

/** Per count check, the remote's total less the replica's, as seen right after a reconcile; checks left out were equal. */
export type CountBaseline = Partial<Record<SyncCountCheckId, number>>;

/** The replica's total of each count check, as the last check counted them. */
export type ReplicaTotals = Record<SyncCountCheckId, number>;

/** A sync state with what is kept for the syncs alone. */
interface StoredState extends SyncState {
  countBaseline: CountBaseline;
  /**
   * The replica's totals as the last count check counted them, kept while its data stays as it
   * was (a sync that wrote nothing keeps them, one that wrote drops them): the check after a sync
   * that found nothing new then counts nothing. Null: counted at the next check.
   */
  replicaTotals: ReplicaTotals | null;
}

const emptyState = (): StoredState => ({
  lastAttemptAt: null,
  lastAttemptMode: null,
  lastSuccessAt: null,
  lastSuccessStartedAt: null,
  lastSuccessMode: null,
  incrementalsSinceFull: 0,
  remoteHonoursUpdatedSince: null,
  lastError: null,
  counts: null,
  skippedCount: 0,
  skippedIds: [],
  reconcileIntervalHours: defaultReconcileIntervalHours,
  lastReconciledAt: null,
  lastReconcileChanged: null,
  lastMatchedAt: null,
  countDifferences: [],
  countBaseline: {},
  paused: false,
  replicaTotals: null,
});

/** The outcome of a successful sync, as recorded. */
export interface SyncSuccess {
  startedAt: string;
  finishedAt: string;
  mode: SyncMode;
  remoteHonoursUpdatedSince: boolean;
  counts: SyncCounts;
  skippedCount: number;
  skippedIds: string[];
  /** Items a reconcile changed (0: the replica was equal to its remote); only for a reconcile. */
  reconcileChanged?: number;
}

/** What a count check found: the totals that differ beyond the baseline (none: they matched). */
export interface CountCheckOutcome {
  checkedAt: string;
  differences: SyncCountDifference[];
  /** Right after a reconcile or full sync: the differences seen, which later checks take as matching. */
  baseline?: CountBaseline;
  /** The replica's totals the check counted or took as kept ({@link SyncRecords.replicaTotals}); none: counted at the next check. */
  replicaTotals?: ReplicaTotals;
}

/** Totals kept, each moved by `by`. */
const moved = (totals: ReplicaTotals, by: ReplicaTotals) => Object.fromEntries(Object.entries(totals).map(([id, total]) => [id, total + by[id as keyof ReplicaTotals]])) as ReplicaTotals;

/** The later of two instants (ISO strings), either possibly null. */
const later = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : Date.parse(a) >= Date.parse(b) ? a : b);

/** The SQL of the sync_state table. */
export class SyncRecords {
  constructor(private readonly db: Database) {}

  /** The sync state of an organization; the empty state when it never synced. */
  get(orgRowId: number): SyncState {
    const { countBaseline: _baseline, replicaTotals: _totals, ...state } = this.stored(orgRowId);
    return state;
  }

  /** The replica's totals as the last count check counted them, while its data has not changed since; null otherwise. */
  replicaTotals(orgRowId: number): ReplicaTotals | null {
    return this.stored(orgRowId).replicaTotals;
  }

  /** The differences of the totals seen right after the organization's last reconcile or full sync. */
  countBaseline(orgRowId: number): CountBaseline {
    return this.stored(orgRowId).countBaseline;
  }

  /**
   * Records a successful sync, in the caller's transaction (the one that wrote its data). A
   * reconcile or a full sync leaves the replica equal to its remote: it is reconciled and
   * matched then; both reset the count of incremental syncs since the last full comparison.
   * `dataWritten`: the sync changed the replica's data, whose totals are counted again, unless
   * `totalsMoved` says how far its writes moved each (an incremental sync's merge): the totals
   * kept are moved by it.
   */
  recordSuccess(orgRowId: number, success: SyncSuccess, { dataWritten, totalsMoved }: { dataWritten: boolean; totalsMoved?: ReplicaTotals }): void {
    const previous = this.stored(orgRowId);
    const compared = success.mode !== 'incremental';
    this.save(orgRowId, {
      ...previous,
      replicaTotals: !dataWritten ? previous.replicaTotals : totalsMoved && previous.replicaTotals ? moved(previous.replicaTotals, totalsMoved) : null,
      lastAttemptAt: success.startedAt,
      lastAttemptMode: success.mode,
      lastSuccessAt: success.finishedAt,
      lastSuccessStartedAt: success.startedAt,
      lastSuccessMode: success.mode,
      incrementalsSinceFull: compared ? 0 : previous.incrementalsSinceFull + 1,
      remoteHonoursUpdatedSince: success.remoteHonoursUpdatedSince,
      lastError: null,
      counts: success.counts,
      skippedCount: success.skippedCount,
      skippedIds: success.skippedIds.slice(0, skippedIdsKept),
      ...(compared
        ? {
            lastReconciledAt: success.finishedAt,
            lastReconcileChanged: success.mode === 'reconcile' ? (success.reconcileChanged ?? 0) : null,
            lastMatchedAt: later(previous.lastMatchedAt, success.finishedAt),
            countDifferences: [],
          }
        : {}),
    });
  }

  /** Records a failed attempt; what the last success recorded stays. */
  recordFailure(orgRowId: number, failure: { startedAt: string; mode: SyncMode; error: string }): void {
    const previous = this.stored(orgRowId);
    this.save(orgRowId, { ...previous, lastAttemptAt: failure.startedAt, lastAttemptMode: failure.mode, lastError: failure.error });
  }

  /**
   * Records a count check: totals that matched make the replica matched at that time; totals
   * that differ are kept until a reconcile settles them. A check right after a reconcile or full
   * sync also keeps its differences as the baseline of later checks.
   */
  recordCountCheck(orgRowId: number, outcome: CountCheckOutcome): void {
    const previous = this.stored(orgRowId);
    this.save(orgRowId, {
      ...previous,
      countDifferences: outcome.differences,
      lastMatchedAt: outcome.differences.length === 0 ? later(previous.lastMatchedAt, outcome.checkedAt) : previous.lastMatchedAt,
      countBaseline: outcome.baseline ?? previous.countBaseline,
      replicaTotals: outcome.replicaTotals ?? null,
    });
  }

  /** Pauses (or resumes) a replica's background syncs, in the caller's transaction; its sync state stays. */
  setPaused(orgRowId: number, paused: boolean): void {
    this.save(orgRowId, { ...this.stored(orgRowId), paused });
  }

  /** Saves a replica's sync settings, in the caller's transaction; its sync state stays. */
  saveSettings(orgRowId: number, settings: SyncSettings): void {
    this.save(orgRowId, { ...this.stored(orgRowId), reconcileIntervalHours: settings.reconcileIntervalHours });
  }

  private stored(orgRowId: number): StoredState {
    const row = this.db.get<SyncStateRow>('SELECT * FROM sync_state WHERE org_id = ?', [orgRowId]);
    if (!row) return emptyState();
    return {
      lastAttemptAt: row.last_attempt_at,
      lastAttemptMode: row.last_attempt_mode,
      lastSuccessAt: row.last_success_at,
      lastSuccessStartedAt: row.last_success_started_at,
      lastSuccessMode: row.last_success_mode,
      incrementalsSinceFull: row.incrementals_since_full,
      remoteHonoursUpdatedSince: row.remote_honours_updated_since === null ? null : row.remote_honours_updated_since === 1,
      lastError: row.last_error,
      counts: row.counts === null ? null : (JSON.parse(row.counts) as SyncCounts),
      skippedCount: row.skipped_count,
      skippedIds: JSON.parse(row.skipped_ids) as string[],
      reconcileIntervalHours: row.reconcile_interval_hours,
      lastReconciledAt: row.last_reconciled_at,
      lastReconcileChanged: row.last_reconcile_changed,
      lastMatchedAt: row.last_matched_at,
      countDifferences: JSON.parse(row.count_differences) as SyncCountDifference[],
      countBaseline: JSON.parse(row.count_baseline) as CountBaseline,
      paused: row.syncs_paused === 1,
      replicaTotals: row.replica_totals === null ? null : (JSON.parse(row.replica_totals) as ReplicaTotals),
    };
  }

  private save(orgRowId: number, state: StoredState): void {
    this.db.run(
      `INSERT OR REPLACE INTO sync_state (org_id, last_attempt_at, last_attempt_mode, last_success_at,
         last_success_started_at, last_success_mode, incrementals_since_full, remote_honours_updated_since,
         last_error, counts, skipped_count, skipped_ids, reconcile_interval_hours, last_reconciled_at,
         last_reconcile_changed, last_matched_at, count_differences, count_baseline, syncs_paused, replica_totals)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        orgRowId, state.lastAttemptAt, state.lastAttemptMode, state.lastSuccessAt, state.lastSuccessStartedAt,
        state.lastSuccessMode, state.incrementalsSinceFull,
        state.remoteHonoursUpdatedSince === null ? null : state.remoteHonoursUpdatedSince ? 1 : 0, state.lastError,
        state.counts === null ? null : JSON.stringify(state.counts), state.skippedCount, JSON.stringify(state.skippedIds),
        state.reconcileIntervalHours, state.lastReconciledAt, state.lastReconcileChanged, state.lastMatchedAt,
        JSON.stringify(state.countDifferences), JSON.stringify(state.countBaseline), state.paused ? 1 : 0,
        state.replicaTotals === null ? null : JSON.stringify(state.replicaTotals),
      ],
    );
  }
}
