import type { CollectionName, ConsoleQuery } from '../../contracts/collections.js';
import { type Conditions as Where, collectionTables, listConditions } from './collection-tables.js';
import type { Database } from './database.js';
import { DerivedCache } from './derived-cache.js';
import { type FindingTextCondition, findingTextCondition, textCvesOf } from './finding-search.js';
import { inventoryOf } from './inventory-ids.js';
import type { ListTotals } from './list-totals.js';
import { SortedOrders } from './sorted-orders.js';

/** A page of ids in list order, with the number of items matching. */
export interface IdPage {
  ids: string[];
  total: number;
}

/**
 * The rows a `seq`-only inner query picks, in its order. Selecting only `seq` inside keeps the
 * planner on the index that matches the filter (each ends in seq, see migrations.ts): asking
 * for `id` there makes the (org_id, id) index look cheaper, and then a million ids get sorted.
 */
function inSeqOrder(table: string, innerClauses: string, direction: 'ASC' | 'DESC', columns = 'x.id', source = table): string {
  return `SELECT ${columns} FROM (SELECT seq FROM ${source} ${innerClauses}) AS page
          JOIN ${table} x ON x.seq = page.seq ORDER BY page.seq ${direction}`;
}

/**
 * The SQL of the console's own reads: lists with sort and free text (scope coverage is in
 * scope-coverage.ts, the dashboard in dashboard-aggregates.ts). Results of the heavy queries
 * (a full pass over up to a million findings) are kept until the next write, as the v1 list
 * totals are.
 */
export class ConsoleQueries {
  private readonly sortedOrders: SortedOrders;
  /** The condition of a findings search, by inventory and text. Bound: 1,000 searches. */
  private readonly textConditions: DerivedCache<FindingTextCondition>;
  /** Per inventory, text → CVEs of its findings (finding-search.ts). Bound: 64 inventories. */
  private readonly textCves: DerivedCache<Map<number, number[]>>;

  constructor(
    private readonly db: Database,
    private readonly totals: ListTotals,
  ) {
    this.sortedOrders = new SortedOrders(db);
    this.textConditions = new DerivedCache(db, { bound: { entries: 1_000 } });
    this.textCves = new DerivedCache(db, { bound: { entries: 64 } });
  }

  /**
   * One page of a console list as ids. The default order (or its reverse) walks an index;
   * other orders are sorted once per filter and kept until the next write (sorted-orders.ts).
   */
  listIds<C extends CollectionName>(orgRowId: number, collection: C, query: ConsoleQuery<C>): IdPage {
    const { inventoryId, table, where, direction } = this.listWhere(orgRowId, collection, query);
    if (query.sort.key !== 'created_at') return this.sortedOrders.page({ inventoryId, collection, table, where }, query.sort, query);
    const ids = this.db.column(inSeqOrder(table, `WHERE ${where.sql} ORDER BY seq ${direction} LIMIT ? OFFSET ?`, direction), [
      ...where.params,
      query.limit,
      query.offset,
    ]) as string[];
    return { ids, total: this.totals.of(table, where) };
  }

  /**
   * All ids of a console list in its order (limit and offset ignored), `chunk` at a time. Each
   * chunk continues after the last row's `seq`, so reading a million rows stays linear where
   * growing offsets would walk the index again for every page.
   */
  *listAllIds<C extends CollectionName>(orgRowId: number, collection: C, query: ConsoleQuery<C>, chunk = 1000): Generator<string[]> {
    const { inventoryId, table, where, direction } = this.listWhere(orgRowId, collection, query);
    if (query.sort.key !== 'created_at') {
      yield* this.sortedOrders.all({ inventoryId, collection, table, where }, query.sort, chunk);
      return;
    }
    const after = direction === 'ASC' ? 'seq > ?' : 'seq < ?';
    // Without a filter no index narrows anything, and the planner would walk one by org_id and
    // sort each chunk: read the table in seq order instead.
    const source = where.terms.length === 1 ? `${table} NOT INDEXED` : table;
    let last = direction === 'ASC' ? -1 : Number.MAX_SAFE_INTEGER;
    for (;;) {
      const rows = this.db.all<{ seq: number; id: string }>(
        inSeqOrder(table, `WHERE ${where.sql} AND ${after} ORDER BY seq ${direction} LIMIT ?`, direction, 'x.seq, x.id', source),
        [...where.params, last, chunk],
      );
      if (rows.length === 0) return;
      last = rows[rows.length - 1]!.seq;
      yield rows.map((row) => row.id);
    }
  }

  private listWhere<C extends CollectionName>(
    orgRowId: number,
    collection: C,
    query: ConsoleQuery<C>,
  ): { inventoryId: number; table: string; where: Where; direction: 'ASC' | 'DESC' } {
    const inventoryId = inventoryOf(this.db, orgRowId);
    const where = listConditions(inventoryId, collection, query);
    const q = query.q;
    if (q !== undefined) {
      const { search } = collectionTables[collection];
      if (search) search(where, q);
      else {
        const condition = this.textConditions.getOrCompute(`${inventoryId}|${q}`, () =>
          findingTextCondition(this.db, inventoryId, q, () => this.textCves.getOrCompute(String(inventoryId), () => textCvesOf(this.db, inventoryId))),
        );
        where.add(condition.sql, ...condition.params);
      }
    }
    // Descending walks the same index backwards: seq is the default order (see migrations.ts).
    return { inventoryId, table: collectionTables[collection].table, where, direction: query.sort.descending ? 'DESC' : 'ASC' };
  }
}
