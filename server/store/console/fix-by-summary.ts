import { type FixBySummary, fixByTables } from '../../../contracts/console/fix-by.js';
import { ssvcNotice } from '../../../contracts/ssvc-tables.js';
import type { DeadlineFigures } from '../remediation/deadline-figures.js';
import type { Exceptions } from '../remediation/exceptions.js';
import type { FixByFigures } from '../ssvc/fix-by-figures.js';

/**
 * The organization's open findings due soon under the fix-by dates, now (to the minute), excepted
 * ones left out: what `/app/orgs/:slug/fix-by-summary` answers and `fix-by summary` prints.
 */
export async function fixBySummary(store: { deadlines: DeadlineFigures; exceptions: Exceptions; fixBy: FixByFigures }, orgRowId: number): Promise<FixBySummary> {
  const asOf = store.deadlines.asOf();
  const counts = await store.fixBy.counts(orgRowId, asOf, await store.exceptions.excepted(orgRowId));
  return {
    as_of: new Date(asOf).toISOString(),
    deadline_policy: store.fixBy.settings.get(orgRowId).settings.deadline_policy,
    open: counts.open,
    overdue: counts.overdue,
    due_within: { days_3: counts.dueWithin[3], days_14: counts.dueWithin[14], days_60: counts.dueWithin[60] },
    on_upgrade: counts.onUpgrade,
    tables: fixByTables,
    notice: ssvcNotice,
  };
}
