import type { CollectionName, V1Query } from '../../../contracts/collections.js';
import { type Conditions, collectionTables, findingGetSql, listConditions } from '../basics/collection-tables.js';
import type { Database } from '../engine/database.js';
import { type ChangeVersions, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { InventorySwapped, type ShownInventory, inventoryOf, shownInventory, tableOf } from '../basics/inventory-ids.js';
import type { ListTotals } from './list-totals.js';

/** A remote item's times, and those of the row stored for it (a row read as `SELECT *`, typed by column name). */
interface UpdateTimes {
  readonly created_at?: unknown;
  readonly updated_at?: unknown;
}

/**
 * Whether a stored row holds `item` as of the same update (created_at and updated_at as
 * stored): merging it again would change nothing, since an item that changes gets a new
 * updated_at (`updatedSince` rests on it).
 */
export const sameUpdate = (stored: UpdateTimes, item: UpdateTimes): boolean => stored.created_at === item.created_at && stored.updated_at === item.updated_at;

// The values this file keeps, by name and the kinds of change they are read from (derived/change-kinds.ts).
const skipPositions = derivedValue('v1 list skip positions', ['inventory']);

/** A page of a list with each item already serialized to JSON by SQLite. */
export interface JsonPage {
  items: string[];
  total: number;
}

/**
 * Every this many rows of a filtered list, its seq is remembered, so that a deep offset seeks.
 * A page then skips half a stride on average along the index: at 1,000 that walk was a tenth
 * of a cache-cold page's time (docs/decisions/the-v1-api/cache-cold-pages.md).
 */
const skipStride = 100;

/**
 * The list and get queries of the v1 API. Totals are kept until the next write (list-totals.ts).
 * Deep offsets would cost a walk over every row before them (a full sync of a million findings
 * pages to offset 999,900): the seq of every {@link skipStride}th row of a filtered list is
 * remembered until the next write, so a page seeks to the nearest one and skips fewer than
 * {@link skipStride} rows.
 */
export class InventoryReads {
  /**
   * Per filtered list, `skips[k]` is the seq at offset (k + 1) × skipStride, found as pages ask
   * for them. Bound: 256 lists, whatever filters the clients send (10,000 positions, 80 KB, for
   * a list of a million rows paged to its end).
   */
  private readonly skips: DerivedCache<number[]>;

  constructor(
    private readonly db: Database,
    versions: ChangeVersions,
    private readonly totals: ListTotals,
  ) {
    this.skips = new DerivedCache(versions, skipPositions, { bound: { entries: 256 } });
  }

  /** One page of a v1 list with the number of items matching its filters. */
  list<C extends CollectionName>(orgRowId: number, collection: C, query: V1Query<C>): JsonPage {
    // With updatedSince, SQLite walks the updated_ms index and sorts the matches: a page costs the
    // matches, not the offset, and a seek would move it onto the organization's whole index.
    const seekable = query.updatedSince === undefined;
    return this.page(collection, listConditions(inventoryOf(this.db, orgRowId), collection, query), query, seekable);
  }

  /**
   * Counts the items a v1 list's filters match, a window of rows at a time between turns of the
   * event loop, into the totals its pages read (ListTotals.counted): a million findings counted
   * at once held the thread for a third of a second at the first page after every write. Lists
   * since an instant count their few matches along the updated_ms index when the page asks.
   * When a sync swaps the organization's inventory meanwhile, the page counts the new one.
   */
  async countList<C extends CollectionName>(orgRowId: number, collection: C, query: V1Query<C>): Promise<void> {
    if (query.updatedSince !== undefined) return;
    try {
      await this.countedTotal(shownInventory(this.db, orgRowId), collection, query);
    } catch (error) {
      if (!(error instanceof InventorySwapped)) throw error;
    }
  }

  /**
   * How many items of each collection the organization has, kept until the next write as the
   * list totals are. Counted a window of rows at a time with turns of the event loop between
   * (ListTotals.counted): a million findings held the thread for a third of a second when an
   * incremental sync asked right after a full one. Throws InventorySwapped when a sync swaps the
   * organization's inventory meanwhile.
   */
  async counts(orgRowId: number): Promise<Record<CollectionName, number>> {
    const shown = shownInventory(this.db, orgRowId);
    // No filter: the unfiltered list's total, shared with its pages.
    const count = <C extends CollectionName>(collection: C) => this.countedTotal(shown, collection, { limit: 1, offset: 0 } as V1Query<C>);
    return { endpoints: await count('endpoints'), remediationTargets: await count('remediationTargets'), scopes: await count('scopes'), findings: await count('findings') };
  }

  /** The total of a v1 list of the inventory `shown`, counted a window at a time (ListTotals.counted). */
  private countedTotal<C extends CollectionName>(shown: ShownInventory, collection: C, query: V1Query<C>): Promise<number> {
    return this.totals.counted(tableOf[collection], shown, listConditions(shown.inventoryId, collection, query));
  }

  /** How many of `ids` (stored, lowercase) the organization holds in `collection`. */
  heldCount(orgRowId: number, collection: CollectionName, ids: readonly string[]): number {
    const inventoryId = inventoryOf(this.db, orgRowId);
    const table = tableOf[collection];
    let held = 0;
    for (const id of ids) if (this.db.value(`SELECT 1 FROM ${table} WHERE org_id = ? AND id = ?`, [inventoryId, id]) !== undefined) held++;
    return held;
  }

  /**
   * The ids of `items` the organization holds as of the same update (created_at and updated_at
   * as stored): merging them again would change nothing, since an item that changes gets a new
   * updated_at (`updatedSince` rests on it). An incremental sync's margin brings back the items
   * the previous one merged.
   */
  unchanged(orgRowId: number, collection: CollectionName, items: readonly { id: string; created_at: string; updated_at: string }[]): Set<string> {
    const inventoryId = inventoryOf(this.db, orgRowId);
    const held = new Set<string>();
    for (const item of items) {
      const id = item.id.toLowerCase();
      const row = this.db.get<{ created_at: string; updated_at: string }>(`SELECT created_at, updated_at FROM ${tableOf[collection]} WHERE org_id = ? AND id = ?`, [
        inventoryId,
        id,
      ]);
      if (row && sameUpdate(row, item)) held.add(id);
    }
    return held;
  }

  /** One resource of the organization as JSON, or undefined when it has none with that id. */
  get(collection: CollectionName, orgRowId: number, id: string): string | undefined {
    const { table, joins, json } = collectionTables[collection];
    const sql = collection === 'findings' ? findingGetSql : `SELECT ${json} FROM ${table} x ${joins} WHERE x.org_id = +? AND x.id = +?`;
    const value = this.db.value(sql, [inventoryOf(this.db, orgRowId), id.toLowerCase()]);
    return typeof value === 'string' ? value : undefined;
  }

  private page(collection: CollectionName, where: Conditions, paging: { limit: number; offset: number }, seekable: boolean): JsonPage {
    const { table, joins, json } = collectionTables[collection];
    const seek = seekable ? this.seek(table, where, paging.offset) : undefined;
    const from = seek ? ' AND seq >= +?' : '';
    // The inner query walks one index to the page's rows; only those 100 rows are joined. Values
    // are bound as `+?`, which the planner does not read: a `LIMIT ?` made SQLite prepare the
    // statement again at every page (see Conditions).
    const items = this.db.column(
      `SELECT ${json}
       FROM (SELECT seq FROM ${table} WHERE ${where.sql}${from} ORDER BY seq LIMIT +? OFFSET +?) AS page
       JOIN ${table} x ON x.seq = page.seq ${joins}
       ORDER BY page.seq`,
      seek ? [...where.params, seek.seq, paging.limit, seek.skip] : [...where.params, paging.limit, paging.offset],
    ) as string[];
    return { items, total: this.totals.of(table, where) };
  }

  /**
   * Where a page at `offset` starts: the nearest remembered seq at or before it and the rows to
   * skip from there; undefined for offsets before the first stride. Positions not yet known are
   * found stride by stride from the last known one, so paging forward costs one stride per stride.
   */
  private seek(table: string, where: Conditions, offset: number): { seq: number; skip: number } | undefined {
    const wanted = Math.floor(offset / skipStride);
    if (wanted === 0) return undefined;
    const skips = this.skips.getOrCompute(`${table}|${where.key}`, () => []);
    while (skips.length < wanted) {
      const next = this.db.value(`SELECT seq FROM ${table} WHERE ${where.sql} AND seq >= +? ORDER BY seq LIMIT 1 OFFSET +?`, [
        ...where.params,
        skips.at(-1) ?? Number.MIN_SAFE_INTEGER,
        skipStride,
      ]);
      if (next === undefined) break;
      skips.push(Number(next));
    }
    if (skips.length === 0) return undefined;
    const known = Math.min(wanted, skips.length);
    return { seq: skips[known - 1]!, skip: offset - known * skipStride };
  }
}
