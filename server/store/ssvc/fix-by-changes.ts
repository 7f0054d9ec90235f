import { type FixByChange, type FixBySettingsBody, fixByChangesKept } from '../../../contracts/console/fix-by.js';
import { findingStatuses } from '../../../contracts/enums.js';
import { bod2604Outcomes } from '../../../contracts/ssvc-tables.js';
import type { Database } from '../engine/database.js';
import type { RecordWrite } from '../derived/change-kinds.js';
import type { TimeSlices } from '../derived/time-slices.js';
import type { FixByColumns } from './fix-by-columns.js';
import { keepNewest } from '../basics/keep-newest.js';

const open = findingStatuses.indexOf('open');

/** A change of context or settings whose comparison is not recorded yet, with what its "before" was computed from. */
export interface PendingFixByChange {
  id: number;
  unknownAs: 'shorter-timeline' | 'longer-timeline';
  /** The findings of the organization when it was written. */
  findings: number;
  /** The bytes of the packed endpoint values (fix-by-figures.ts, packEndpointValues). */
  endpointValues: Uint8Array;
}

/** What a change did, before it is recorded. */
export type FixByDifference = Omit<FixByChange, 'id' | 'recorded_at' | 'cause'>;

/** The cause a change of the fix-by settings is recorded with: `fix-by settings: policy bod-26-04, exposure tags internet-facing, unknown as shorter-timeline`. */
export function settingsChangeCause(settings: FixBySettingsBody): string {
  return `fix-by settings: policy ${settings.deadline_policy}, exposure tags ${settings.exposure_tags.join(', ') || 'none'}, unknown as ${settings.unknown_as}`;
}

/** Findings compared between two looks at the clock. */
const findingsBetweenLooks = 8_192;

/**
 * What a change did to the open findings of one version of the data: `before` and `after` are
 * the columns of the same findings (a change of context or settings changes no finding); a
 * finding without a date counts as due later than any date. Compared in `slices` (a million
 * findings take tens of ms); the columns are never changed once computed, so a pause is safe.
 */
export async function fixByDifference(before: FixByColumns, after: FixByColumns, slices: TimeSlices): Promise<FixByDifference> {
  const moves = new Map<number, number>();
  let changed = 0;
  let earlier = 0;
  let later = 0;
  const { count, status } = after.timeline.columns;
  for (let i = 0; i < count; i++) {
    if (i % findingsBetweenLooks === 0) await slices.pause();
    if (status[i] !== open) continue;
    const from = before.outcome[i]!;
    const to = after.outcome[i]!;
    const dayBefore = Number.isNaN(before.fixByDay[i]!) ? Number.POSITIVE_INFINITY : before.fixByDay[i]!;
    const dayAfter = Number.isNaN(after.fixByDay[i]!) ? Number.POSITIVE_INFINITY : after.fixByDay[i]!;
    if (from === to && dayBefore === dayAfter && before.decision[i] === after.decision[i]) continue;
    changed++;
    if (from !== to) moves.set(from * 8 + to, (moves.get(from * 8 + to) ?? 0) + 1);
    if (dayAfter < dayBefore) earlier++;
    else if (dayAfter > dayBefore) later++;
  }
  return {
    findings_changed: changed,
    moves: [...moves]
      .map(([code, findings]) => ({ from: bod2604Outcomes[code >> 3]!, to: bod2604Outcomes[code & 7]!, findings }))
      .sort((a, b) => b.findings - a.findings),
    earlier,
    later,
  };
}

/**
 * The SQL of fix_by_changes: per organization, each change of endpoint context or fix-by
 * settings that changed an open finding's outcome or date, with its cause; the newest
 * {@link fixByChangesKept} are kept. A record is one write of `fix-by-changes`; so is a change
 * kept pending in fix_by_pending until it is compared.
 */
export class FixByChanges {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
    /**
     * Its writes: logged with the next durable one (`durable: false`), which a crash loses with
     * those after it, never without them (the change's own write logs a pending record).
     */
    private readonly held: RecordWrite,
  ) {}

  /**
   * Keeps a change of `cause` pending, in a write before the change's own: with the setting
   * unknown_as, the count of findings and the packed endpoint values the "before" was computed
   * from. Answers its id, for {@link complete}. The write is held, not fsynced on its own: the
   * change's durable write that follows logs it first, and a crash before that loses both.
   */
  pend(orgRowId: number, cause: string, unknownAs: string, findings: number, endpointValues: Int32Array): number {
    return this.held(['fix-by-changes'], () => {
      const bytes = new Uint8Array(endpointValues.buffer, endpointValues.byteOffset, endpointValues.byteLength);
      this.db.run('INSERT INTO fix_by_pending (org_id, recorded_at, cause, unknown_as, findings, endpoints) VALUES (?, ?, ?, ?, ?, ?)', [
        orgRowId,
        new Date(this.now()).toISOString(),
        cause,
        unknownAs,
        findings,
        bytes,
      ]);
      return Number(this.db.value('SELECT last_insert_rowid()'));
    });
  }

  /** The organization's pending changes, oldest first. */
  pendingOf(orgRowId: number): PendingFixByChange[] {
    return this.db
      .all<{ id: number; unknown_as: PendingFixByChange['unknownAs']; findings: number; endpoints: Uint8Array }>(
        'SELECT id, unknown_as, findings, endpoints FROM fix_by_pending WHERE org_id = ? ORDER BY id',
        [orgRowId],
      )
      .map((row) => ({ id: row.id, unknownAs: row.unknown_as, findings: row.findings, endpointValues: row.endpoints }));
  }

  /**
   * Ends a pending change in one write: recorded in the feed with its cause and the time of the
   * change when it changed an open finding, dropped otherwise (or with no `difference`: refused, or
   * of other findings than a sync left). Held too: a crash before the next durable write leaves
   * the change pending, compared again at the next start, and spares the thread an fsync.
   */
  complete(pendingId: number, difference: FixByDifference | undefined): void {
    this.held(['fix-by-changes'], () => {
      const row = this.db.get<{ org_id: number; recorded_at: string; cause: string }>('SELECT org_id, recorded_at, cause FROM fix_by_pending WHERE id = ?', [pendingId]);
      if (!row) return;
      this.db.run('DELETE FROM fix_by_pending WHERE id = ?', [pendingId]);
      if (!difference || difference.findings_changed === 0) return;
      this.db.run('INSERT INTO fix_by_changes (org_id, recorded_at, change) VALUES (?, ?, ?)', [row.org_id, row.recorded_at, JSON.stringify({ cause: row.cause, ...difference })]);
      keepNewest(this.db, 'fix_by_changes', row.org_id, fixByChangesKept);
    });
  }

  /** The organization's changes, the newest first. */
  list(orgRowId: number): FixByChange[] {
    return this.db
      .all<{ id: number; recorded_at: string; change: string }>('SELECT id, recorded_at, change FROM fix_by_changes WHERE org_id = ? ORDER BY id DESC', [orgRowId])
      .map((row) => ({ id: row.id, recorded_at: row.recorded_at, ...(JSON.parse(row.change) as Omit<FixByChange, 'id' | 'recorded_at'>) }));
  }
}
