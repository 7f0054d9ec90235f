import type { Conditions } from '../basics/collection-tables.js';
import type { Database } from '../engine/database.js';
import { sortInSlices } from '../derived/sort-in-slices.js';
import type { TimeSlices } from '../derived/time-slices.js';

/**
 * How far into the findings' riskiest-first order a page is answered from the KEV findings
 * alone ({@link kevOrder}) while that order is computed: the first screens, which the findings
 * view opens on.
 */
export const kevFirstRows = 1_000;

/** KEV findings read per statement: a few milliseconds of SQL. */
const rowsPerRead = 4_096;

/** How many findings that match `where` (plain column conditions) are KEV: one count along the filters' index. */
export function kevCount(db: Database, where: Conditions): number {
  return Number(db.value(`SELECT count(*) FROM findings WHERE ${where.sql} AND is_kev = 1`, where.params));
}

/**
 * The ids of the KEV findings that match `where`, riskiest first (CVSS, none below a score; ties
 * by id descending, as the kept order of every finding reads: sorted-orders.ts): the head of
 * the findings' riskiest-first order. They are a few percent of the findings (62,000 of
 * `large`'s million), read along the filters' index a window of seqs at a time, pausing as
 * `slices` says, then sorted: so the first page after `serve` starts need not wait for the
 * order of a million findings, whose values are in the coverage columns, read in seconds.
 */
export async function kevOrder(db: Database, where: Conditions, slices: TimeSlices): Promise<string[]> {
  const ids: string[] = [];
  const risks: number[] = [];
  for (let after = -1; ; ) {
    const rows = db.all<{ seq: number; id: string; risk: number }>(
      `SELECT seq, id, coalesce(cvss_score, -1) AS risk FROM findings WHERE ${where.sql} AND is_kev = 1 AND seq > ? ORDER BY seq LIMIT ${rowsPerRead}`,
      [...where.params, after],
    );
    for (const row of rows) {
      ids.push(row.id);
      risks.push(row.risk);
    }
    if (rows.length < rowsPerRead) break;
    after = rows.at(-1)!.seq;
    await slices.pause();
  }
  // Ids are ASCII (stored lowercase): comparing UTF-16 units is SQLite's order of them. Sorted in
  // slices: 62,000 at once held the thread up to 80 ms on a loaded machine.
  const order = await sortInSlices(Array.from(ids.keys()), (a, b) => risks[b]! - risks[a]! || (ids[a]! < ids[b]! ? 1 : ids[a]! > ids[b]! ? -1 : 0), slices);
  return order.map((index) => ids[index]!);
}
