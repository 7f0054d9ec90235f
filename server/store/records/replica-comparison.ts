import { isDeepStrictEqual } from 'node:util';
import type { CollectionName } from '../../../contracts/collections.js';
import type { Inventory } from '../../../contracts/inventory.js';
import { collectionTables } from '../basics/collection-tables.js';
import type { Database } from '../engine/database.js';
import { inventoryOf, tableOf } from '../basics/inventory-ids.js';
import type { SyncChangeTally } from '../basics/change-tally.js';
import type { TimeSlices } from '../derived/time-slices.js';

/**
 * Stored ids read per statement while looking for those the remote no longer has: sql.js pays a
 * call into WebAssembly per value read, and four times as many held the thread past the 100 ms
 * rule on a loaded machine.
 */
const idsPerRead = 512;

/** An item of a collection as received from a remote (validated). */
type Item<C extends CollectionName> = Inventory[C][number];

/**
 * An item as the store keeps it: ids are stored lowercase (inventory-writes.ts), so an id field
 * of the remote (`id`, `*_id`: all at the top level of an item) compares lowercase; a CVE id is
 * kept as written.
 */
function asStored(item: object): Record<string, unknown> {
  const stored: Record<string, unknown> = { ...item };
  for (const key of Object.keys(stored)) {
    const value = stored[key];
    if (typeof value === 'string' && key !== 'cve_id' && (key === 'id' || key.endsWith('_id'))) stored[key] = value.toLowerCase();
  }
  return stored;
}

/**
 * The reads and the delete of a reconcile (sync/reconcile.ts), which compares a replica with
 * its whole remote: each page of the remote against the replica's rows of the same ids (one
 * statement per page, along the `(org_id, id)` index), and the replica's rows, a chunk at a time
 * in slices of the event loop's time, against the rows the remote sent.
 */
export class ReplicaComparison {
  constructor(private readonly db: Database) {}

  /**
   * The items of a page of the remote that the replica does not hold as they are: new ones, and
   * those whose JSON as /v1 would answer it differs in any field, whatever their `updated_at`
   * says (a remote re-seeded with older timestamps); and the replica's rows of the page's ids
   * (`held`: each row's id, stored, and seq), those of `otherIds` too (the page's invalid items).
   */
  differing<C extends CollectionName>(
    orgRowId: number,
    collection: C,
    items: readonly Item<C>[],
    otherIds: readonly string[] = [],
  ): { differing: Item<C>[]; held: { id: string; seq: number }[] } {
    const ids = items.map((item) => item.id.toLowerCase());
    const asked = [...ids, ...otherIds.map((id) => id.toLowerCase())];
    if (asked.length === 0) return { differing: [], held: [] };
    const { table, joins, json } = collectionTables[collection];
    const rows = this.db.all<{ id: string; seq: number; json: string }>(
      `SELECT x.id AS id, x.seq AS seq, ${json} AS json FROM ${table} x ${joins} WHERE x.org_id = ? AND x.id IN (${asked.map(() => '?').join(', ')})`,
      [inventoryOf(this.db, orgRowId), ...asked],
    );
    const stored = new Map(rows.map((row) => [row.id, row.json]));
    const differing = items.filter((item, index) => {
      const json = stored.get(ids[index]!);
      return json === undefined || !isDeepStrictEqual(JSON.parse(json), asStored(item));
    });
    return { differing, held: rows.map(({ id, seq }) => ({ id, seq })) };
  }

  /**
   * The ids of the replica's collection whose rows `kept` does not name by seq (the remote no
   * longer has them), in the lists' order; read {@link idsPerRead} at a time, pausing as
   * `slices` says (the caller's, shared by its walks over several collections, so that walks too
   * short to pause each do not add up to a long hold). Stops after `limit` of them (the caller then gives up on
   * holding them).
   */
  async missing(orgRowId: number, collection: CollectionName, kept: (seq: number) => boolean, limit: number, slices: TimeSlices): Promise<string[]> {
    const inventoryId = inventoryOf(this.db, orgRowId);
    const missing: string[] = [];
    for (let after = Number.MIN_SAFE_INTEGER; missing.length <= limit; ) {
      const rows = this.db.all<{ seq: number; id: string }>(`SELECT seq, id FROM ${tableOf[collection]} WHERE org_id = ? AND seq > ? ORDER BY seq LIMIT ${idsPerRead}`, [
        inventoryId,
        after,
      ]);
      for (const row of rows) if (!kept(row.seq)) missing.push(row.id);
      if (rows.length < idsPerRead) break;
      after = rows[rows.length - 1]!.seq;
      await slices.pause();
    }
    return missing;
  }

  /**
   * The seqs of the replica's rows of `ids` (stored, lowercase): where the rows a merge just
   * wrote landed.
   */
  seqsOf(orgRowId: number, collection: CollectionName, ids: readonly string[]): number[] {
    if (ids.length === 0) return [];
    return this.db.column(`SELECT seq FROM ${tableOf[collection]} WHERE org_id = ? AND id IN (${ids.map(() => '?').join(', ')})`, [
      inventoryOf(this.db, orgRowId),
      ...ids,
    ]) as number[];
  }

  /**
   * Deletes, of the next `rows` rows of an inventory's collection after seq `after`, those that
   * `kept` does not name by seq (the remote no longer has them), in the caller's transaction,
   * counting them in `tally` as removed. Answers the last seq read, or undefined once the
   * collection's rows are all read.
   */
  removeUnsent(inventoryId: number, collection: CollectionName, kept: (seq: number) => boolean, after: number, rows: number, tally: SyncChangeTally): number | undefined {
    const table = tableOf[collection];
    const status = collection === 'findings' ? 'status' : 'NULL';
    const read = this.db.all<{ seq: number; id: string; status: string | null }>(
      // Along the table's seqs: `+org_id` keeps the planner from the (org_id, id) index and a sort of the inventory's rows, the only index on org_id left while a bulk replacement's are dropped.
      `SELECT seq, id, ${status} AS status FROM ${table} WHERE +org_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
      [inventoryId, after, rows],
    );
    for (const row of read) {
      if (kept(row.seq)) continue;
      this.db.run(`DELETE FROM ${table} WHERE seq = ?`, [row.seq]);
      countRemoved(collection, row.id, row.status, tally);
    }
    return read.length < rows ? undefined : read[read.length - 1]!.seq;
  }

  /** Deletes items of an inventory by id (stored, lowercase), in the caller's transaction, counting them in `tally` as removed. */
  remove(inventoryId: number, collection: CollectionName, ids: readonly string[], tally: SyncChangeTally): void {
    for (const id of ids) {
      const status = collection === 'findings' ? (this.db.value('SELECT status FROM findings WHERE org_id = ? AND id = ?', [inventoryId, id]) as string | undefined) : undefined;
      this.db.run(`DELETE FROM ${tableOf[collection]} WHERE org_id = ? AND id = ?`, [inventoryId, id]);
      countRemoved(collection, id, status ?? null, tally);
    }
  }
}

/** Counts a row a sync deleted in `tally`; `status` is a finding's (null for other collections). */
function countRemoved(collection: CollectionName, id: string, status: string | null, tally: SyncChangeTally): void {
  // An open finding gone from the remote stopped being open: a delta between syncs counts it.
  if (status === 'open') tally.moved('c', [id]);
  tally.counts[collection].removed++;
}
