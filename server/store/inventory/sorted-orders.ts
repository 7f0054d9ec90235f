import type { SqlValue } from 'sql.js';
import type { CollectionName, SortKey } from '../../../contracts/collections.js';
import type { ListSort } from '../../../contracts/list-queries.js';
import { type Conditions, sortExpression } from '../basics/collection-tables.js';
import type { Database } from '../engine/database.js';
import { type ChangeVersions, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { type ShownInventory, checkStillShown } from '../basics/inventory-ids.js';
import { TimeSlices } from '../derived/time-slices.js';
import { orderByNumbers } from '../derived/numeric-order.js';
import { ValueRanks, concatenated } from '../derived/value-ranks.js';

// The values this file keeps, by name and the kinds of change they are read from (derived/change-kinds.ts).
const sortedOrders = derivedValue('sorted orders', ['inventory']);

/** Positions `start` to `end` (exclusive) of an ascending order, read forwards or backwards. */
function slice(order: Int32Array, descending: boolean, start: number, end: number): number[] {
  const seqs: number[] = [];
  for (let i = start; i < end && i < order.length; i++) seqs.push(order[descending ? order.length - 1 - i : i]!);
  return seqs;
}

/**
 * The rows a list is narrowed to where no SQL condition does it (a free-text search of findings,
 * the overdue findings, or both): what names them, and the rows, ascending by seq, at the
 * data's current version.
 */
export interface ListSearch {
  key: string;
  rows: () => Promise<Int32Array>;
}

/**
 * A list to sort: its organization and the inventory it showed when the list was asked for,
 * collection and table, the WHERE clause of its filters (over that inventory), and a search
 * whose rows the filters narrow.
 */
export interface SortableList<C extends CollectionName = CollectionName> extends ShownInventory {
  collection: C;
  table: string;
  where: Conditions;
  search?: ListSearch | undefined;
  /** For a sort key whose values are figures derived from other rows (an endpoint's exposure, a finding's hostname): their lookup. */
  figures?: FigureSort | undefined;
}

/**
 * How the values of a sort key are looked up by the row's seq, at the data's current version:
 * only the matching rows' seqs are read from SQLite then, where a value read per row through
 * WebAssembly (an endpoint id per finding) would cost more than the sort.
 */
export interface FigureSort {
  /**
   * What the figures depend on beside the data, which the order is kept under: records written
   * without changing the data's version. The deadlines' key for a finding's due date; the
   * excepted findings' key for an endpoint's exposure (the lookup throws VersionMoved, one-version.ts,
   * when its figures are of another); empty for the figures of the data alone.
   */
  key: string;
  lookup: () => Promise<(seq: number) => SqlValue>;
}

/** Rows read per statement while an order is computed: a few milliseconds of SQL each. */
const rowsPerChunk = 2048;
/** Rows ranked or dealt between two looks at the clock. */
const rowsBetweenLooks = 16_384;
/**
 * Listed rows from which a search narrowed by other filters is ordered by keeping the listed
 * rows of the filters' own order (computed once, shared by every search over the same filters)
 * rather than by reading each listed row: an endpoint filter lists most of a million findings.
 */
const manyListedRows = 32_768;

/**
 * Lists in an order no index serves: the rows matching a filter are sorted once into an array
 * of their `seq`, kept until the next write, and every page is then a slice of it. Descending
 * reads the ascending array backwards, so both share one entry.
 *
 * Sorting a million rows by (value, id) in SQLite costs seconds, most of it comparing the
 * 36-character ids. Instead the inventory's rows are read once in id order (its unique
 * (org_id, id) index, no sort; kept like the orders), the matching rows' values are read in seq
 * order (or, for figures of every row, looked up along the id order itself), and the rows in id
 * order are sorted stably by value: many distinct numbers (due dates) by a radix sort of their
 * bits, other values by a counting sort over the ranks of their distinct values; ties stay in id
 * order. All of it runs in chunks (keyset ranges of {@link rowsPerChunk} rows, sorts in slices)
 * with turns of the event loop between them, so that other requests are answered while a
 * million rows are sorted; a write meanwhile starts it again.
 */
export class SortedOrders {
  /**
   * Orders and id orders by list. Bound: 8M row numbers in all (4 bytes each: 32 MB), least
   * recently used dropped first; a list of more rows is sorted again for each page.
   */
  private readonly orders: DerivedCache<Int32Array>;

  constructor(
    private readonly db: Database,
    versions: ChangeVersions,
  ) {
    this.orders = new DerivedCache(versions, sortedOrders, { bound: { weight: 8_000_000, weigh: (order) => order.length } });
  }

  /** The ids of one page of the list in the given order, and how many rows match. */
  async page<C extends CollectionName>(
    list: SortableList<C>,
    sort: ListSort<SortKey<C>>,
    paging: { limit: number; offset: number },
  ): Promise<{ ids: string[]; total: number }> {
    const order = await this.order(list, sort.key);
    // Nothing awaits from here: the ids are read at the order's version.
    return { ids: this.idsOf(list.table, slice(order, sort.descending, paging.offset, paging.offset + paging.limit)), total: order.length };
  }

  /** Every id of the list in the given order, `chunk` at a time. */
  async *all<C extends CollectionName>(list: SortableList<C>, sort: ListSort<SortKey<C>>, chunk: number): AsyncGenerator<string[]> {
    for await (const seqs of this.allSeqs(list, sort, chunk)) yield this.idsOf(list.table, seqs);
  }

  /** Every seq of the list in the given order, `chunk` at a time. */
  async *allSeqs<C extends CollectionName>(list: SortableList<C>, sort: ListSort<SortKey<C>>, chunk: number): AsyncGenerator<number[]> {
    const order = await this.order(list, sort.key);
    for (let start = 0; start < order.length; start += chunk) yield slice(order, sort.descending, start, start + chunk);
  }

  /** Whether the order of a list is kept, at the data's current version: its pages then cost a slice. */
  isKept(list: SortableList, key: string): boolean {
    return this.orders.get(this.orderKey(list, key)) !== undefined;
  }

  private idsOf(table: string, seqs: number[]): string[] {
    return idsOfSeqs(this.db, table, seqs);
  }

  /** The seqs of the inventory's rows in id order, read along its (org_id, id) index a chunk at a time. */
  private idOrder(table: string, shown: ShownInventory): Promise<Int32Array> {
    const { inventoryId } = shown;
    return this.orders.settled(`${table}|id|${inventoryId}`, async (checkpoint) => {
      checkStillShown(this.db, shown);
      const slices = new TimeSlices(checkpoint);
      const chunks: Int32Array[] = [];
      for (let after = ''; ; ) {
        const seqs = this.db.column(`SELECT seq FROM ${table} WHERE org_id = ? AND id > ? ORDER BY id LIMIT ?`, [inventoryId, after, rowsPerChunk]) as number[];
        if (seqs.length > 0) chunks.push(Int32Array.from(seqs));
        if (seqs.length < rowsPerChunk) break;
        after = this.db.value(`SELECT id FROM ${table} WHERE seq = ?`, [seqs.at(-1)!]) as string;
        await slices.pause();
      }
      return concatenated(chunks, Int32Array);
    });
  }

  /**
   * The list's matching rows in seq order, a chunk at a time, with the value of `expression` of
   * each when one is given: along the index of the filters (keyset on seq), or, for a search,
   * the rows it names {@link rowsPerChunk} at a time, each chunk narrowed by the filters.
   */
  private async *matchingRows(
    { table, where }: SortableList,
    search: Int32Array | undefined,
    expression?: string,
  ): AsyncGenerator<{ seqs: number[]; values: SqlValue[] }> {
    if (search && where.terms.length === 1 && !expression) {
      // Only the inventory's condition, which the listed rows meet already (they are its rows),
      // and no value to read: the rows are the list, with no statement per chunk.
      for (let start = 0; start < search.length; start += rowsPerChunk) yield { seqs: Array.from(search.subarray(start, start + rowsPerChunk)), values: [] };
      return;
    }
    if (search) {
      // Driven by the listed rows (CROSS JOIN keeps them the outer loop), each found by its seq.
      const from = `FROM json_each(?) AS listed CROSS JOIN ${table} x ON x.seq = listed.value WHERE ${where.sql} ORDER BY x.seq`;
      for (let start = 0; start < search.length; start += rowsPerChunk) {
        const listed = JSON.stringify(Array.from(search.subarray(start, start + rowsPerChunk)));
        const seqs = this.db.column(`SELECT x.seq ${from}`, [listed, ...where.params]) as number[];
        yield { seqs, values: expression ? this.db.column(`SELECT ${expression} ${from}`, [listed, ...where.params]) : [] };
      }
      return;
    }
    for (let after = -1; ; ) {
      const seqs = this.db.column(`SELECT x.seq FROM ${table} x WHERE ${where.sql} AND x.seq > ? ORDER BY x.seq LIMIT ?`, [
        ...where.params,
        after,
        rowsPerChunk,
      ]) as number[];
      if (seqs.length === 0) return;
      const values = expression
        ? this.db.column(`SELECT ${expression} FROM ${table} x WHERE ${where.sql} AND x.seq > ? AND x.seq <= ? ORDER BY x.seq`, [
            ...where.params,
            after,
            seqs.at(-1)!,
          ])
        : [];
      yield { seqs, values };
      if (seqs.length < rowsPerChunk) return;
      after = seqs.at(-1)!;
    }
  }

  /** What the order of a list is kept under. */
  private orderKey(list: SortableList, key: string): string {
    const figuresKey = list.figures?.key ? `|figures=${list.figures.key}` : '';
    return `${list.table}|${key}${figuresKey}|${list.where.key}${list.search ? `|rows=${list.search.key}` : ''}`;
  }

  private order<C extends CollectionName>(list: SortableList<C>, key: SortKey<C>): Promise<Int32Array> {
    const { collection, table, where, search } = list;
    return this.orders.settled(this.orderKey(list, key), async (checkpoint) => {
      // `where` reads the inventory the list was asked for: a computation started again after a
      // sync's swap must not read on in the one being collected.
      checkStillShown(this.db, list);
      // What this order is computed from, each of the data as it is now: check after each that
      // it is still the data this order started on.
      const searched = search && (await search.rows());
      checkpoint();
      const slices = new TimeSlices(checkpoint);
      if (searched) {
        // The order without the search, kept already (the list before its search was added), or worth computing.
        const unsearched = { ...list, search: undefined };
        if (this.orders.get(this.orderKey(unsearched, key)) !== undefined || (where.terms.length > 1 && searched.length >= manyListedRows)) {
          const whole = await this.order(unsearched, key);
          checkpoint();
          return keepListed(whole, searched, slices);
        }
      }
      if (key === 'created_at') {
        // Only a search is listed in the default order here: its rows, narrowed, are in it already.
        const chunks: Int32Array[] = [];
        for await (const { seqs } of this.matchingRows(list, searched)) {
          chunks.push(Int32Array.from(seqs));
          await slices.pause();
        }
        return concatenated(chunks, Int32Array);
      }
      const lookup = list.figures && (await list.figures.lookup());
      checkpoint();
      const idOrder = await this.idOrder(table, list);
      checkpoint();
      const values = new ValueRanks();
      if (lookup && !searched && where.terms.length === 1) {
        // Every row of the inventory, figures looked up by seq: the id order is the rows, no SQL.
        for (let start = 0; start < idOrder.length; start += rowsPerChunk) {
          const seqs = idOrder.subarray(start, start + rowsPerChunk);
          const chunk = new Array<SqlValue>(seqs.length);
          for (let i = 0; i < seqs.length; i++) chunk[i] = lookup(seqs[i]!);
          values.add(chunk);
          await slices.pause();
        }
        return orderByValues(idOrder, undefined, values, slices);
      }
      const expression = lookup ? undefined : sortExpression(collection, key);
      // The matching rows in seq order, each one's value.
      const matching: Int32Array[] = [];
      for await (const { seqs, values: read } of this.matchingRows(list, searched, expression)) {
        values.add(lookup ? seqs.map(lookup) : read);
        matching.push(Int32Array.from(seqs));
        await slices.pause();
      }
      const { rows, readAt } = await inIdOrder(idOrder, concatenated(matching, Int32Array), slices);
      return orderByValues(rows, readAt, values, slices);
    });
  }
}

/** The rows of `order` that `listed` (seqs, ascending) names, in the order's order. */
async function keepListed(order: Int32Array, listed: Int32Array, slices: TimeSlices): Promise<Int32Array> {
  if (listed.length === 0) return listed;
  const first = listed[0]!;
  const isListed = new Uint8Array(listed.at(-1)! - first + 1);
  for (let i = 0; i < listed.length; i++) {
    if (i % rowsBetweenLooks === 0) await slices.pause();
    isListed[listed[i]! - first] = 1;
  }
  const kept = new Int32Array(Math.min(order.length, listed.length));
  let count = 0;
  for (let i = 0; i < order.length; i++) {
    if (i % rowsBetweenLooks === 0) await slices.pause();
    if (isListed[order[i]! - first] === 1) kept[count++] = order[i]!;
  }
  return kept.slice(0, count);
}

/**
 * The rows of `matching` (seqs, ascending) in id order, and where each was read in it. Places
 * are indexed from the inventory's lowest seq: every full sync stages its rows above the last
 * ones, so seqs climb with each sync while an inventory spans about its row count.
 */
async function inIdOrder(idOrder: Int32Array, matching: Int32Array, slices: TimeSlices): Promise<{ rows: Int32Array; readAt: Int32Array }> {
  let minSeq = Number.MAX_SAFE_INTEGER;
  let maxSeq = 0;
  // A million rows at once held the thread too long on a slow day: paused like the loops below.
  for (let i = 0; i < idOrder.length; i++) {
    if (i % rowsBetweenLooks === 0) await slices.pause();
    minSeq = Math.min(minSeq, idOrder[i]!);
    maxSeq = Math.max(maxSeq, idOrder[i]!);
  }
  const placeOfSeq = new Int32Array(Math.max(0, maxSeq - minSeq + 1)).fill(-1);
  for (let place = 0; place < matching.length; place++) {
    if (place % rowsBetweenLooks === 0) await slices.pause();
    placeOfSeq[matching[place]! - minSeq] = place;
  }
  const rows = new Int32Array(matching.length);
  const readAt = new Int32Array(matching.length);
  for (let i = 0, found = 0; i < idOrder.length; i++) {
    if (i % rowsBetweenLooks === 0) await slices.pause();
    const place = placeOfSeq[idOrder[i]! - minSeq]!;
    if (place < 0) continue;
    rows[found] = idOrder[i]!;
    readAt[found++] = place;
  }
  return { rows, readAt };
}

/**
 * `rows`, which come in id order, ordered by their values, ties in id order: each row's value
 * is the one added to `values` at its `readAt` (or at its own place). Numbers are sorted by
 * their bits (numeric-order.ts); other values by rank, a counting sort dealing the rows to
 * their rank's place as they come.
 */
async function orderByValues(rows: Int32Array, readAt: Int32Array | undefined, values: ValueRanks, slices: TimeSlices): Promise<Int32Array> {
  const numbers = values.numbers();
  if (numbers) return orderByNumbers(rows, readAt ? await readIn(numbers, readAt, new Float64Array(rows.length), slices) : numbers, slices);
  const { ranks, count } = await values.ranks(slices);
  const rankOfRow = readAt ? await readIn(ranks, readAt, new Int32Array(rows.length), slices) : ranks;
  const starts = new Int32Array(count + 1);
  for (let i = 0; i < rankOfRow.length; i++) {
    if (i % rowsBetweenLooks === 0) await slices.pause();
    starts[rankOfRow[i]! + 1]!++;
  }
  for (let rank = 1; rank <= count; rank++) starts[rank]! += starts[rank - 1]!;
  const order = new Int32Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    if (i % rowsBetweenLooks === 0) await slices.pause();
    order[starts[rankOfRow[i]!]!++] = rows[i]!;
  }
  return order;
}

/** `into`, each place given the value of `values` at its `readAt`. */
async function readIn<T extends Float64Array | Int32Array>(values: T, readAt: Int32Array, into: T, slices: TimeSlices): Promise<T> {
  for (let i = 0; i < readAt.length; i++) {
    if (i % rowsBetweenLooks === 0) await slices.pause();
    into[i] = values[readAt[i]!]!;
  }
  return into;
}

/** The ids of rows of `table` by their seq, in the order of `seqs`: one statement for a page of them. */
export function idsOfSeqs(db: Database, table: string, seqs: readonly number[]): string[] {
  if (seqs.length === 0) return [];
  return db.column(`SELECT x.id FROM json_each(?) AS page JOIN ${table} x ON x.seq = page.value ORDER BY page.key`, [JSON.stringify(seqs)]) as string[];
}

/**
 * The ids of rows by their seqs, one for each seq (undefined for a row no longer there), read as
 * one value, the ids joined by commas (an id is a UUID: it holds none): sql.js pays a call into
 * WebAssembly for every value read, which for a million ids costs more than the query.
 */
export function packedIdsOfSeqs(db: Database, table: string, seqs: readonly number[]): (string | undefined)[] {
  if (seqs.length === 0) return [];
  const page = JSON.stringify(seqs);
  const row = db.get<{ found: number; ids: string }>(
    `SELECT count(*) AS found, group_concat(x.id, ',' ORDER BY page.key) AS ids FROM json_each(?) AS page JOIN ${table} x ON x.seq = page.value`,
    [page],
  )!;
  if (row.found === seqs.length) return row.ids.split(',');
  // A row gone meanwhile: each id by its seq.
  const found = new Map(db.all<{ seq: number; id: string }>(`SELECT x.seq, x.id FROM json_each(?) AS page JOIN ${table} x ON x.seq = page.value`, [page]).map((found) => [found.seq, found.id]));
  return seqs.map((seq) => found.get(seq));
}
