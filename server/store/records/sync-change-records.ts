import { syncChangesKept } from '../../../contracts/console/sync-change-bounds.js';
import type {
  NewlyOpenFindings,
  RemediatedFindings,
  SyncChangeCounts,
  SyncChangeFinding,
  SyncChanges,
  SyncChangesSummary,
} from '../../../contracts/console/sync-changes.js';
import type { SyncMode } from '../../../contracts/enums.js';
import type { Database } from '../engine/database.js';
import { compareInventories } from './inventory-comparison.js';
import { inventoryOf } from '../basics/inventory-ids.js';
import type { FindingMove, SyncChangeTally } from '../basics/change-tally.js';
import { keepNewest } from '../basics/keep-newest.js';

/** Ids of moved findings written per statement (as one JSON value). */
const movesPerStatement = 4_000;

interface SyncChangesRow {
  id: number;
  started_at: string;
  finished_at: string;
  mode: SyncMode;
  first_sync: number;
  counts: string;
  newly_open: string;
  remediated: string;
  findings_kept: number;
}

function toSyncChanges(row: SyncChangesRow): SyncChanges {
  return {
    id: row.id,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    mode: row.mode,
    firstSync: row.first_sync === 1,
    counts: JSON.parse(row.counts) as SyncChangeCounts,
    newlyOpen: JSON.parse(row.newly_open) as NewlyOpenFindings,
    remediated: JSON.parse(row.remediated) as RemediatedFindings,
    findingsKept: row.findings_kept === 1,
  };
}

/**
 * The SQL of the sync_changes table: what each sync of a replica changed, recorded in the
 * sync's own transaction (its merge, or the swap of its staged inventory), so that the record
 * is all or nothing with the sync. The last {@link syncChangesKept} of each replica are kept.
 */
export class SyncChangeRecords {
  constructor(private readonly db: Database) {}

  /**
   * Compares a full sync's staged inventory with the one the organization shows, before the
   * swap (inventory-comparison.ts): a pass in chunks that yields the event loop.
   */
  compare(orgRowId: number, stagedInventoryId: number, signal?: AbortSignal): Promise<SyncChangeTally> {
    return compareInventories(this.db, inventoryOf(this.db, orgRowId), stagedInventoryId, signal);
  }

  /**
   * Records what a sync changed, in the caller's transaction, after the sync's data is written
   * (the listed findings' hostnames are those of the replica it leaves), and deletes the records
   * past the last {@link syncChangesKept}. A sync that changed nothing records nothing: answers
   * undefined; otherwise the record in brief.
   */
  record(orgRowId: number, sync: { startedAt: string; finishedAt: string; mode: SyncMode }, tally: SyncChangeTally): SyncChangesSummary | undefined {
    if (!tally.changedAnything) return undefined;
    const inventoryId = inventoryOf(this.db, orgRowId);
    const withHostnames = (findings: SyncChangeFinding[]) =>
      findings.map((finding) => ({
        ...finding,
        endpoint_hostname:
          finding.endpoint_id === null
            ? null
            : ((this.db.value('SELECT hostname FROM endpoints WHERE org_id = ? AND id = ?', [inventoryId, finding.endpoint_id]) as string | undefined) ?? null),
      }));
    const newlyOpen = { ...tally.newlyOpen, findings: withHostnames(tally.newlyOpen.findings) };
    const remediated = { ...tally.remediated, findings: withHostnames(tally.remediated.findings) };
    this.db.run(
      `INSERT INTO sync_changes (org_id, started_at, finished_at, mode, first_sync, counts, newly_open, remediated)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [orgRowId, sync.startedAt, sync.finishedAt, sync.mode, tally.firstSync ? 1 : 0, JSON.stringify(tally.counts), JSON.stringify(newlyOpen), JSON.stringify(remediated)],
    );
    const id = Number(this.db.value('SELECT last_insert_rowid()'));
    if (tally.moves) this.keepMoves(id, tally.moves);
    keepNewest(this.db, 'sync_changes', orgRowId, syncChangesKept);
    return { id, finishedAt: sync.finishedAt, newlyOpen: { total: newlyOpen.total, critical: newlyOpen.critical, kev: newlyOpen.kev } };
  }

  /** Keeps the ids a sync moved, a statement per move and few thousand ids; marks its record as keeping them. */
  private keepMoves(changeId: number, moves: Record<FindingMove, string[]>): void {
    for (const [move, ids] of Object.entries(moves)) {
      for (let from = 0; from < ids.length; from += movesPerStatement) {
        this.db.run('INSERT INTO sync_finding_changes (change_id, kind, finding_id) SELECT ?, ?, value FROM json_each(?)', [
          changeId,
          move,
          JSON.stringify(ids.slice(from, from + movesPerStatement)),
        ]);
      }
    }
    this.db.run('UPDATE sync_changes SET findings_kept = 1 WHERE id = ?', [changeId]);
  }

  /**
   * The organization's recorded syncs after `afterId`, oldest first, with whether each kept the
   * findings it moved (a record made before they were kept, or of a sync that moved too many, did not).
   */
  recordedAfter(orgRowId: number, afterId: number): { id: number; finishedAt: string; findingsKept: boolean }[] {
    return this.db
      .all<{ id: number; finished_at: string; findings_kept: number }>('SELECT id, finished_at, findings_kept FROM sync_changes WHERE org_id = ? AND id > ? ORDER BY id', [orgRowId, afterId])
      .map((row) => ({ id: row.id, finishedAt: row.finished_at, findingsKept: row.findings_kept === 1 }));
  }

  /** The findings one recorded sync moved, by move: one value read per move. */
  moves(changeId: number): Record<FindingMove, string[]> {
    const moves: Record<FindingMove, string[]> = { o: [], c: [], k: [] };
    for (const row of this.db.all<{ kind: FindingMove; ids: string }>('SELECT kind, group_concat(finding_id) AS ids FROM sync_finding_changes WHERE change_id = ? GROUP BY kind', [changeId])) {
      moves[row.kind] = row.ids.split(',');
    }
    return moves;
  }

  /** The organization's recorded sync changes, newest first. */
  list(orgRowId: number): SyncChanges[] {
    return this.db.all<SyncChangesRow>('SELECT * FROM sync_changes WHERE org_id = ? ORDER BY id DESC', [orgRowId]).map(toSyncChanges);
  }

  /** One recorded sync's changes of the organization, or undefined. */
  get(orgRowId: number, id: number): SyncChanges | undefined {
    const row = this.db.get<SyncChangesRow>('SELECT * FROM sync_changes WHERE org_id = ? AND id = ?', [orgRowId, id]);
    return row && toSyncChanges(row);
  }

  /** The organization's newest recorded changes in brief; null before any. */
  latest(orgRowId: number): SyncChangesSummary | null {
    const row = this.db.get<{ id: number; finished_at: string; total: number; critical: number; kev: number }>(
      `SELECT id, finished_at, json_extract(newly_open, '$.total') AS total, json_extract(newly_open, '$.critical') AS critical,
              json_extract(newly_open, '$.kev') AS kev
       FROM sync_changes WHERE org_id = ? ORDER BY id DESC LIMIT 1`,
      [orgRowId],
    );
    return row ? { id: row.id, finishedAt: row.finished_at, newlyOpen: { total: row.total, critical: row.critical, kev: row.kev } } : null;
  }
}
