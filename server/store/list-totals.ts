import type { Conditions } from './collection-tables.js';
import type { Database } from './database.js';
import { DerivedCache } from './derived-cache.js';

/**
 * The number of rows a list's filters match, for the v1 lists and the console's alike: at a
 * million findings a count costs more than the page itself, and it changes only when the data
 * does.
 */
export class ListTotals {
  /** Bound: 10,000 filtered lists, a number each. */
  private readonly totals: DerivedCache<number>;

  constructor(private readonly db: Database) {
    this.totals = new DerivedCache(db, { bound: { entries: 10_000 } });
  }

  /** How many rows of `table` match `where`. */
  of(table: string, where: Conditions): number {
    return this.totals.getOrCompute(`${table}|${where.key}`, () => Number(this.db.value(`SELECT count(*) FROM ${table} WHERE ${where.sql}`, where.params)));
  }
}
