import type { SqlValue } from 'sql.js';
import type { CollectionName, SortKey } from '../../contracts/collections.js';
import type { ListSort } from '../../contracts/list-queries.js';
import { type Conditions, sortExpression } from './collection-tables.js';
import type { Database } from './database.js';
import { DerivedCache } from './derived-cache.js';

/** Positions `start` to `end` (exclusive) of an ascending order, read forwards or backwards. */
function slice(order: Int32Array, descending: boolean, start: number, end: number): number[] {
  const seqs: number[] = [];
  for (let i = start; i < end && i < order.length; i++) seqs.push(order[descending ? order.length - 1 - i : i]!);
  return seqs;
}

/** A list to sort: its inventory, collection and table, and the WHERE clause of its filters. */
export interface SortableList<C extends CollectionName = CollectionName> {
  inventoryId: number;
  collection: C;
  table: string;
  where: Conditions;
}

/** SQLite's order of values: NULL, then numbers, then text by its UTF-8 bytes (code point order). */
function compareSqlValues(a: SqlValue, b: SqlValue): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return String(a) < String(b) ? -1 : 1;
}

/** {@link compareSqlValues} for text with surrogate pairs, where UTF-16 order is not code point order. */
function compareByCodePoints(a: SqlValue, b: SqlValue): number {
  if (typeof a !== 'string' || typeof b !== 'string') return compareSqlValues(a, b);
  const [x, y] = [Array.from(a, (c) => c.codePointAt(0)!), Array.from(b, (c) => c.codePointAt(0)!)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}
const surrogate = /[\uD800-\uDFFF]/;

/**
 * Lists in an order no index serves: the rows matching a filter are sorted once into an array
 * of their `seq`, kept until the next write, and every page is then a slice of it. Descending
 * reads the ascending array backwards, so both share one entry.
 *
 * Sorting a million rows by (value, id) in SQLite costs seconds, most of it comparing the
 * 36-character ids. Instead the organization's rows are read once in id order (its unique
 * (org_id, id) index, no sort; kept like the orders), the matching rows' values are read in seq
 * order, and each row gets the number value rank × rows + id rank: one numeric sort of a
 * Float64Array then yields the order.
 */
export class SortedOrders {
  /**
   * Orders and id orders by list. Bound: 8M row numbers in all (4 bytes each: 32 MB), least
   * recently used dropped first; a list of more rows is sorted again for each page.
   */
  private readonly orders: DerivedCache<Int32Array>;

  constructor(private readonly db: Database) {
    this.orders = new DerivedCache(db, { bound: { weight: 8_000_000, weigh: (order) => order.length } });
  }

  /** The ids of one page of the list in the given order, and how many rows match. */
  page<C extends CollectionName>(list: SortableList<C>, sort: ListSort<SortKey<C>>, paging: { limit: number; offset: number }): { ids: string[]; total: number } {
    const order = this.order(list, sort.key);
    return { ids: this.idsOf(list.table, slice(order, sort.descending, paging.offset, paging.offset + paging.limit)), total: order.length };
  }

  /** Every id of the list in the given order, `chunk` at a time. */
  *all<C extends CollectionName>(list: SortableList<C>, sort: ListSort<SortKey<C>>, chunk: number): Generator<string[]> {
    const order = this.order(list, sort.key);
    for (let start = 0; start < order.length; start += chunk) yield this.idsOf(list.table, slice(order, sort.descending, start, start + chunk));
  }

  private idsOf(table: string, seqs: number[]): string[] {
    if (seqs.length === 0) return [];
    return this.db.column(
      `SELECT x.id FROM json_each(?) AS page JOIN ${table} x ON x.seq = page.value ORDER BY page.key`,
      [JSON.stringify(seqs)],
    ) as string[];
  }

  private order<C extends CollectionName>({ inventoryId, collection, table, where }: SortableList<C>, key: SortKey<C>): Int32Array {
    return this.orders.getOrCompute(`${table}|${key}|${where.key}`, () => {
      const idOrder = this.orders.getOrCompute(`${table}|id|${inventoryId}`, () =>
        Int32Array.from(this.db.column(`SELECT seq FROM ${table} WHERE org_id = ? ORDER BY id`, [inventoryId]) as number[]),
      );
      const expression = sortExpression(collection, key);
      const seqs = this.db.column(`SELECT x.seq FROM ${table} x WHERE ${where.sql} ORDER BY x.seq`, where.params) as number[];
      const values = this.db.column(`SELECT ${expression} FROM ${table} x WHERE ${where.sql} ORDER BY x.seq`, where.params);
      const distinct = [...new Set(values)];
      const compare = distinct.some((value) => typeof value === 'string' && surrogate.test(value)) ? compareByCodePoints : compareSqlValues;
      const valueRanks = new Map(distinct.sort(compare).map((value, rank) => [value, rank]));
      // Indexed from the inventory's lowest seq: every full sync stages its rows above the last
      // ones, so seqs climb with each sync while an inventory spans about its row count.
      let minSeq = Number.MAX_SAFE_INTEGER;
      let maxSeq = 0;
      for (const seq of idOrder) {
        minSeq = Math.min(minSeq, seq);
        maxSeq = Math.max(maxSeq, seq);
      }
      const idRanks = new Int32Array(Math.max(0, maxSeq - minSeq + 1));
      idOrder.forEach((seq, rank) => (idRanks[seq - minSeq] = rank));
      const rows = idOrder.length;
      const ranked = new Float64Array(seqs.length);
      for (let i = 0; i < seqs.length; i++) ranked[i] = valueRanks.get(values[i]!)! * rows + idRanks[seqs[i]! - minSeq]!;
      ranked.sort();
      const order = new Int32Array(ranked.length);
      for (let i = 0; i < ranked.length; i++) order[i] = idOrder[ranked[i]! % rows]!;
      return order;
    });
  }
}
