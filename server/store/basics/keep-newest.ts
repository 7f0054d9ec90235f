import type { Database } from '../engine/database.js';

/** The tables of a feed: each organization's records, of which only the newest are kept. */
type FeedTable = 'sync_changes' | 'intel_changes' | 'fix_by_changes' | 'work_package_checks';

/**
 * Deletes the organization's rows of `table` but its newest `kept` (by id): called after a
 * feed's insert, so that a feed written at every sync or import stays bounded.
 */
export function keepNewest(db: Database, table: FeedTable, orgRowId: number, kept: number): void {
  db.run(`DELETE FROM ${table} WHERE org_id = ? AND id < (SELECT min(id) FROM (SELECT id FROM ${table} WHERE org_id = ? ORDER BY id DESC LIMIT ?))`, [orgRowId, orgRowId, kept]);
}
