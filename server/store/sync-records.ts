import type { SyncCounts, SyncState } from '../../contracts/console/sync.js';
import type { SyncMode } from '../../contracts/enums.js';
import type { Database } from './database.js';



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
}

/** How many skipped ids are kept: enough to find the bad records, bounded whatever the remote sends. */
export const skippedIdsKept = 100;

const emptyState: SyncState = {
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
};

/** The outcome of a successful sync, as recorded. */
export interface SyncSuccess {
  startedAt: string;
  finishedAt: string;
  mode: SyncMode;
  remoteHonoursUpdatedSince: boolean;
  counts: SyncCounts;
  skippedCount: number;
  skippedIds: string[];
}

/** The SQL of the sync_state table. */
export class SyncRecords {
  constructor(private readonly db: Database) {}

  /** The sync state of an organization; the empty state when it never synced. */
  get(orgRowId: number): SyncState {
    const row = this.db.get<SyncStateRow>('SELECT * FROM sync_state WHERE org_id = ?', [orgRowId]);
    if (!row) return { ...emptyState, skippedIds: [] };
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
    };
  }

  /** Records a successful sync, in the caller's transaction (the one that wrote its data). */
  recordSuccess(orgRowId: number, success: SyncSuccess): void {
    const previous = this.get(orgRowId);
    this.save(orgRowId, {
      lastAttemptAt: success.startedAt,
      lastAttemptMode: success.mode,
      lastSuccessAt: success.finishedAt,
      lastSuccessStartedAt: success.startedAt,
      lastSuccessMode: success.mode,
      incrementalsSinceFull: success.mode === 'full' ? 0 : previous.incrementalsSinceFull + 1,
      remoteHonoursUpdatedSince: success.remoteHonoursUpdatedSince,
      lastError: null,
      counts: success.counts,
      skippedCount: success.skippedCount,
      skippedIds: success.skippedIds.slice(0, skippedIdsKept),
    });
  }

  /** Records a failed attempt; what the last success recorded stays. */
  recordFailure(orgRowId: number, failure: { startedAt: string; mode: SyncMode; error: string }): void {
    const previous = this.get(orgRowId);
    this.save(orgRowId, { ...previous, lastAttemptAt: failure.startedAt, lastAttemptMode: failure.mode, lastError: failure.error });
  }

  private save(orgRowId: number, state: SyncState): void {
    this.db.run(
      `INSERT OR REPLACE INTO sync_state (org_id, last_attempt_at, last_attempt_mode, last_success_at,
         last_success_started_at, last_success_mode, incrementals_since_full, remote_honours_updated_since,
         last_error, counts, skipped_count, skipped_ids)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        orgRowId, state.lastAttemptAt, state.lastAttemptMode, state.lastSuccessAt, state.lastSuccessStartedAt,
        state.lastSuccessMode, state.incrementalsSinceFull,
        state.remoteHonoursUpdatedSince === null ? null : state.remoteHonoursUpdatedSince ? 1 : 0, state.lastError,
        state.counts === null ? null : JSON.stringify(state.counts), state.skippedCount, JSON.stringify(state.skippedIds),
      ],
    );
  }
}
