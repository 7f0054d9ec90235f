import type { SqlValue } from 'sql.js';
import type { CollectionName } from '../../../contracts/collections.js';
import type { Database } from '../engine/database.js';

/**
 * The inventory tables, children first. Their `org_id` column holds an inventory id, not an
 * organization's: an organization shows the inventory its `inventory_id` points at, and a full
 * sync stages the next one under an id nobody points at yet (see migrations.ts).
 */
export const inventoryTables = ['findings', 'remediation_targets', 'scopes', 'endpoints'] as const;

/** One of {@link inventoryTables}. */
export type InventoryTable = (typeof inventoryTables)[number];

/** A row of an inventory table, by column. */
export type StoredRow = Record<string, SqlValue>;

/** The table of each collection. */
export const tableOf: Record<CollectionName, InventoryTable> = {
  endpoints: 'endpoints',
  remediationTargets: 'remediation_targets',
  scopes: 'scopes',
  findings: 'findings',
};

/**
 * The inventory an organization shows now; 0, under which no row is ever stored, when there is
 * no such organization. Reads resolve it at the moment they run rather than taking it from an
 * Organization read earlier, so that a read after a sync's swap never reaches the inventory
 * being deleted behind it.
 */
export function inventoryOf(db: Database, orgRowId: number): number {
  return Number(db.value('SELECT inventory_id FROM organizations WHERE id = ?', [orgRowId]) ?? 0);
}

/** An organization and the inventory a request found it showing: what a chunked read reads and is keyed by. */
export interface ShownInventory {
  orgRowId: number;
  inventoryId: number;
}

/** The organization with the inventory it shows now (see {@link inventoryOf}). */
export function shownInventory(db: Database, orgRowId: number): ShownInventory {
  return { orgRowId, inventoryId: inventoryOf(db, orgRowId) };
}

/**
 * Thrown by a computation in chunks that starts for an inventory its organization no longer
 * shows: a sync swapped it while the request waited, and the computation, started again after
 * that write, would read rows that collection deletes as a change of `staged-inventory`, which
 * no derived value follows. The request resolves the inventory again and reads that one.
 */
export class InventorySwapped extends Error {
  constructor() {
    super('The organization was swapped to another inventory');
  }
}

/**
 * Throws {@link InventorySwapped} unless the organization still shows the inventory. Called
 * where a computation (DerivedCache.settled) starts: every later pause of it checks that the
 * store's version, and so the organization's pointer, did not move.
 */
export function checkStillShown(db: Database, shown: ShownInventory): void {
  if (inventoryOf(db, shown.orgRowId) !== shown.inventoryId) throw new InventorySwapped();
}

/** The inventory ids that have rows in `table`: one step along its (org_id) index per inventory, not a pass over its rows. */
export function inventoryIdsIn(db: Database, table: InventoryTable): number[] {
  const ids: number[] = [];
  for (let after = Number.MIN_SAFE_INTEGER; ; ) {
    const next = db.value(`SELECT min(org_id) FROM ${table} WHERE org_id > ?`, [after]);
    if (next === null || next === undefined) return ids;
    ids.push(Number(next));
    after = Number(next);
  }
}
