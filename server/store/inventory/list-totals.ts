import type { Conditions } from '../basics/collection-tables.js';
import type { Database } from '../engine/database.js';
import { type ChangeVersions, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { type ShownInventory, checkStillShown } from '../basics/inventory-ids.js';
import { TimeSlices } from '../derived/time-slices.js';

// The values this file keeps, by name and the kinds of change they are read from (derived/change-kinds.ts).
/** The number of items of each list: read from the inventory. */
export const listTotals = derivedValue('list totals', ['inventory']);

/** Seqs counted per statement by {@link ListTotals.counted}: a few milliseconds along an index. */
const seqsPerWindow = 32_768;

/**
 * The number of rows a list's filters match, for the v1 lists and the console's alike: at a
 * million findings a count costs more than the page itself, and it changes only when the data
 * does.
 */
export class ListTotals {
  /** Bound: 10,000 filtered lists, a number each. */
  private readonly totals: DerivedCache<number>;

  constructor(
    private readonly db: Database,
    versions: ChangeVersions,
  ) {
    this.totals = new DerivedCache(versions, listTotals, { bound: { entries: 10_000 } });
  }

  /** How many rows of `table` match `where`, counted in one statement. */
  of(table: string, where: Conditions): number {
    return this.totals.getOrCompute(`${table}|${where.key}`, () => Number(this.db.value(`SELECT count(*) FROM ${table} WHERE ${where.sql}`, where.params)));
  }

  /**
   * {@link of} counted a window of the inventory's seqs at a time (along the index of the
   * filters, which ends in seq), with turns of the event loop between windows: counting a
   * million rows holds the thread for up to a tenth of a second. For conditions evaluated per
   * row; one whose subquery lists many rows (a findings search) would list them again for
   * every window, and counts with {@link of}. `where` names the inventory of `shown`; throws
   * InventorySwapped when the organization shows another one by the time the count starts.
   */
  counted(table: string, shown: ShownInventory, where: Conditions): Promise<number> {
    return this.totals.settled(`${table}|${where.key}`, async (checkpoint) => {
      checkStillShown(this.db, shown);
      const slices = new TimeSlices(checkpoint);
      // Apart, min and max are each one step along the (org_id) index; together they scan it.
      const first = this.db.value(`SELECT min(seq) FROM ${table} WHERE org_id = ?`, [shown.inventoryId]);
      const last = this.db.value(`SELECT max(seq) FROM ${table} WHERE org_id = ?`, [shown.inventoryId]);
      let total = 0;
      for (let from = Number(first); first != null && from <= Number(last); from += seqsPerWindow) {
        total += Number(this.db.value(`SELECT count(*) FROM ${table} WHERE ${where.sql} AND seq >= ? AND seq < ?`, [...where.params, from, from + seqsPerWindow]));
        await slices.pause();
      }
      return total;
    });
  }
}
