import { type FixByChange, fixByChangesKept } from '../../../contracts/console/fix-by.js';
import { findingStatuses } from '../../../contracts/enums.js';
import { bod2604Outcomes } from '../../../contracts/ssvc-tables.js';
import type { Database } from '../engine/database.js';
import type { RecordWrite } from '../derived/change-kinds.js';
import type { TimeSlices } from '../derived/time-slices.js';
import type { FixByColumns } from './fix-by-columns.js';
import { keepNewest } from '../basics/keep-newest.js';

const open = findingStatuses.indexOf('open');

/** What a change did, before it is recorded. */
export type FixByDifference = Omit<FixByChange, 'id' | 'recorded_at' | 'cause'>;

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
 * {@link fixByChangesKept} are kept. A record is one write of `fix-by-changes`.
 */
export class FixByChanges {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
    private readonly write: RecordWrite,
  ) {}

  /** Records what `cause` did. */
  record(orgRowId: number, cause: string, difference: FixByDifference): void {
    this.write(['fix-by-changes'], () => {
      this.db.run('INSERT INTO fix_by_changes (org_id, recorded_at, change) VALUES (?, ?, ?)', [orgRowId, new Date(this.now()).toISOString(), JSON.stringify({ cause, ...difference })]);
      keepNewest(this.db, 'fix_by_changes', orgRowId, fixByChangesKept);
    });
  }

  /** The organization's changes, the newest first. */
  list(orgRowId: number): FixByChange[] {
    return this.db
      .all<{ id: number; recorded_at: string; change: string }>('SELECT id, recorded_at, change FROM fix_by_changes WHERE org_id = ? ORDER BY id DESC', [orgRowId])
      .map((row) => ({ id: row.id, recorded_at: row.recorded_at, ...(JSON.parse(row.change) as Omit<FixByChange, 'id' | 'recorded_at'>) }));
  }
}
