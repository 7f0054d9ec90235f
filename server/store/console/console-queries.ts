import { type CollectionName, type ConsoleFilterParameterOf, type ConsoleQuery, collections } from '../../../contracts/collections.js';
import { endpointContextFilters } from '../../../contracts/console/endpoint-context-filters.js';
import type { ConsoleFilter } from '../../../contracts/list-queries.js';
import { type Conditions as Where, collectionTables, listConditions } from '../basics/collection-tables.js';
import { type EndpointContextSource, type EndpointSelection, selectionKey } from '../basics/endpoint-selection.js';
import type { Database } from '../engine/database.js';
import type { DeadlineFigures } from '../remediation/deadline-figures.js';
import { type ChangeVersions, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { EndpointFilterRows, type TableWithEndpoints } from './endpoint-filter-rows.js';
import type { Exceptions } from '../remediation/exceptions.js';
import { type ExposureFiguresCache, figureSortLookup } from '../exposure/exposure-figures.js';
import { OneVersion, VersionMoved, onOneVersion } from '../derived/one-version.js';
import { endpointContextWrites } from '../basics/endpoint-context-records.js';
import { searchedFindings, textCvesOf } from './finding-search.js';
import { InventorySwapped, type ShownInventory, checkStillShown, shownInventory } from '../basics/inventory-ids.js';
import { type ListTotals, listTotals } from '../inventory/list-totals.js';
import { type FigureSort, type ListSearch, SortedOrders, packedIdsOfSeqs } from '../inventory/sorted-orders.js';
import { kevCount, kevFirstRows, kevOrder } from './kev-first-page.js';
import { epssRisingRows } from '../intel/epss-rising.js';
import { readIntelSettings } from '../intel/intel-settings.js';
import { kevDisagreeingRows } from '../intel/kev-agreement.js';
import { TimeSlices } from '../derived/time-slices.js';
import type { FindingIntel } from '../intel/finding-intel.js';
import type { ExploitFigures } from '../intel/exploit-figures.js';
import { findingIntelFilters } from '../../../contracts/console/exploit-intel.js';
import { findingFixByFilters } from '../../../contracts/console/fix-by.js';
import { type FixByFigures, type FixByFilter, fixByFiltersGiven } from '../ssvc/fix-by-figures.js';
import type { CoverageColumns } from '../basics/coverage-columns.js';
import type { IdPage } from '../basics/id-page.js';

// The values this file keeps, by name and the kinds of change they are read from (derived/change-kinds.ts).
const searchMatches = derivedValue('console search matches', ['inventory']);
const searchCves = derivedValue('console search CVEs', ['inventory']);
const kevFirstOrders = derivedValue('KEV findings first', ['inventory']);

/**
 * The rows a `seq`-only inner query picks, in its order. Selecting only `seq` inside keeps the
 * planner on the index that matches the filter (each ends in seq, see migrations.ts): asking
 * for `id` there makes the (org_id, id) index look cheaper, and then a million ids get sorted.
 */
function inSeqOrder(table: string, innerClauses: string, direction: 'ASC' | 'DESC', columns = 'x.id', source = table): string {
  return `SELECT ${columns} FROM (SELECT seq FROM ${source} ${innerClauses}) AS page
          JOIN ${table} x ON x.seq = page.seq ORDER BY page.seq ${direction}`;
}

/** What {@link ConsoleQueries.listAllIds} and {@link ConsoleQueries.listAllSeqs} read of each row. */
interface ListColumns {
  id: string;
  seq: number;
}

/** The rows a console filter keeps, of the inventory shown, at the instant `asOf`. */
type ConsoleFilterRows = (shown: ShownInventory, asOf: number) => ListSearch;

/** A list's table, filters and search over the inventory its organization showed when it was asked for. */
interface ListWhere extends ShownInventory {
  table: string;
  where: Where;
  direction: 'ASC' | 'DESC';
  search?: ListSearch;
  figures?: FigureSort | undefined;
}

/**
 * The SQL of the console's own reads: lists with sort and free text (scope coverage is in
 * scope-coverage.ts, the dashboard in dashboard-aggregates.ts). Results of the heavy queries
 * (a full pass over up to a million findings) are kept until the next write, as the v1 list
 * totals are.
 */
export class ConsoleQueries {
  private readonly sortedOrders: SortedOrders;
  /**
   * The findings a search names (finding-search.ts), by inventory and text. Bound: 4M seqs in
   * all (16 MB); a search that names more is listed again for each page.
   */
  private readonly searches: DerivedCache<Int32Array>;
  /**
   * The KEV findings of a findings list, riskiest first (kev-first-page.ts), by filters: the
   * first pages of the findings view until the order of every finding is kept. Bound: 4 lists.
   */
  private readonly kevOrders: DerivedCache<string[]>;
  /** Per inventory, text → CVEs of its findings (finding-search.ts). Bound: 64 inventories. */
  private readonly textCves: DerivedCache<Map<number, number[]>>;
  /** The rows of findings and targets whose endpoint the console's endpoint filters keep. */
  private readonly endpointRows: EndpointFilterRows;
  /**
   * The rows each flag filter of the registry (given as `true`) keeps: typed by the registry,
   * so that a flag without its rows does not compile.
   */
  private readonly consoleFilterRows: { [C in CollectionName]: Record<ConsoleFilterParameterOf<C, 'flag'>, ConsoleFilterRows> } = {
    endpoints: {},
    remediationTargets: {},
    scopes: {},
    findings: {
      overdue: (shown, asOf) => {
        const rule = this.deadlines.rule(shown.orgRowId);
        const exceptedKey = this.exceptions.keyOf(shown.orgRowId);
        return { key: `overdue=${rule.key}@${asOf}|${exceptedKey}`, rows: () => this.deadlines.overdueSeqs(shown, rule, asOf) };
      },
      epssRising: (shown) => epssRisingRows(this.db, shown, readIntelSettings(this.db).epss_rise),
      kevNotListed: (shown) => kevDisagreeingRows(this.db, shown, 'flagged-not-listed'),
      kevListedNotFlagged: (shown) => kevDisagreeingRows(this.db, shown, 'listed-not-flagged'),
    },
  };

  constructor(
    private readonly db: Database,
    private readonly versions: ChangeVersions,
    private readonly totals: ListTotals,
    private readonly exposure: ExposureFiguresCache,
    private readonly deadlines: DeadlineFigures,
    private readonly exceptions: Exceptions,
    context: EndpointContextSource,
    private readonly intel: FindingIntel,
    private readonly exploit: ExploitFigures,
    private readonly fixBy: FixByFigures,
  ) {
    this.sortedOrders = new SortedOrders(db, versions);
    this.searches = new DerivedCache(versions, searchMatches, { bound: { weight: 4_000_000, weigh: (seqs) => seqs.length } });
    this.textCves = new DerivedCache(versions, searchCves, { bound: { entries: 64 } });
    this.kevOrders = new DerivedCache(versions, kevFirstOrders, { bound: { entries: 4 } });
    // The columns alone: a filter by endpoint needs no figure, which a write makes the next answer sum again.
    this.endpointRows = new EndpointFilterRows(db, versions, (orgRowId) => exposure.columns(orgRowId), context);
  }

  /**
   * One page of a console list as ids. The default order (or its reverse) walks an index, its
   * total counted in chunks; other orders, and every order of a findings search, are computed
   * in chunks once per filter and kept until the next write (sorted-orders.ts).
   */
  async listIds<C extends CollectionName>(orgRowId: number, collection: C, query: ConsoleQuery<C>, asOf = this.deadlines.asOf()): Promise<IdPage> {
    for (;;) {
      const list = this.listWhere(orgRowId, collection, query, asOf);
      try {
        return await this.listPage(list, collection, query);
      } catch (error) {
        // A sync swapped the organization's inventory, or the excepted findings changed, while this waited: read anew.
        if (!(error instanceof InventorySwapped || error instanceof VersionMoved)) throw error;
      }
    }
  }

  /** {@link listIds} over the inventory `list` was resolved for; throws InventorySwapped once it is no longer shown. */
  private async listPage<C extends CollectionName>(list: ListWhere, collection: C, query: ConsoleQuery<C>): Promise<IdPage> {
    const { table, where, direction, search } = list;
    if (!search && collection === 'findings' && query.sort.key === 'risk' && query.sort.descending && query.offset + query.limit <= kevFirstRows) {
      const sortable = { ...list, collection };
      if (!this.sortedOrders.isKept(sortable, 'risk') && kevCount(this.db, where) >= query.offset + query.limit) {
        // The page and the total of one version of the data: read again after a write meanwhile.
        return onOneVersion(this.versions, [listTotals, kevFirstOrders], async () => {
          const total = await this.totals.counted(table, list, where);
          const kev = await this.kevOrders.settled(where.key, async (checkpoint) => {
            checkStillShown(this.db, list);
            return kevOrder(this.db, where, new TimeSlices(checkpoint));
          });
          // The order itself, for the pages past these: computed meanwhile, as a later request would.
          this.sortedOrders.page(sortable, query.sort, query).catch(() => undefined);
          return { ids: kev.slice(query.offset, query.offset + query.limit), total };
        });
      }
    }
    if (search || query.sort.key !== 'created_at') return this.sortedOrders.page({ ...list, collection }, query.sort, query);
    // `updatedSince` walks an index of its own rather than one that ends in seq, which a count by
    // windows of seq needs; it names few rows.
    const total = query.updatedSince === undefined ? await this.totals.counted(table, list, where) : this.totals.of(table, where);
    // Nothing awaits from here: the total is of the data as it is now, and so is the page.
    const ids = this.db.column(inSeqOrder(table, `WHERE ${where.sql} ORDER BY seq ${direction} LIMIT ? OFFSET ?`, direction), [
      ...where.params,
      query.limit,
      query.offset,
    ]) as string[];
    return { ids, total };
  }

  /**
   * All ids of a console list in its order (limit and offset ignored), `chunk` at a time. Each
   * chunk continues after the last row's `seq`, so reading a million rows stays linear where
   * growing offsets would walk the index again for every page.
   */
  listAllIds<C extends CollectionName>(orgRowId: number, collection: C, query: ConsoleQuery<C>, asOf = this.deadlines.asOf(), chunk = 1000): AsyncGenerator<string[]> {
    return this.listAll(orgRowId, collection, query, asOf, chunk, 'id');
  }

  /**
   * All seqs of a console list in its order, as {@link listAllIds} reads its ids: for sets of
   * rows compared by number (a report's KEV findings among its open ones), whose ids
   * {@link idsOfSeqs} reads where they are needed.
   */
  listAllSeqs<C extends CollectionName>(orgRowId: number, collection: C, query: ConsoleQuery<C>, asOf = this.deadlines.asOf(), chunk = 1000): AsyncGenerator<number[]> {
    return this.listAll(orgRowId, collection, query, asOf, chunk, 'seq');
  }

  /**
   * The seqs of the organization's overdue findings at `asOf`, ascending: the rows the findings
   * list's `overdue=true` keeps (open ones only), of the whole inventory shown; kept until a write
   * or another instant, as for the list.
   */
  overdueFindingSeqs(orgRowId: number, asOf: number): Promise<Int32Array> {
    return this.consoleFilterRows.findings.overdue(shownInventory(this.db, orgRowId), asOf).rows();
  }

  /** The ids of rows of a collection by their seqs, one for each (undefined for a row gone): one value read for them all (sorted-orders.ts). */
  idsOfSeqs(collection: CollectionName, seqs: readonly number[]): (string | undefined)[] {
    return packedIdsOfSeqs(this.db, collectionTables[collection].table, seqs);
  }

  /**
   * The seqs of the findings of these ids the organization's inventory holds, by id (ids it no
   * longer holds left out): one value read per call, for a few thousand ids at most.
   */
  findingSeqsOfIds(orgRowId: number, ids: readonly string[]): Map<string, number> {
    const found = new Map<string, number>();
    if (ids.length === 0) return found;
    // CROSS JOIN keeps the ids outside, each one lookup along the (org_id, id) index: with a plain
    // JOIN the planner walked the organization's findings and the ids for each (62 s for 2,048 of 200,000).
    const packed = this.db.value(
      `SELECT group_concat(x.id || ':' || x.seq) FROM json_each(?) AS page CROSS JOIN findings x ON x.org_id = ? AND x.id = page.value`,
      [JSON.stringify(ids), shownInventory(this.db, orgRowId).inventoryId],
    ) as string | null;
    for (const pair of packed ? packed.split(',') : []) {
      const at = pair.lastIndexOf(':');
      found.set(pair.slice(0, at), Number(pair.slice(at + 1)));
    }
    return found;
  }

  private async *listAll<C extends CollectionName, K extends keyof ListColumns>(
    orgRowId: number,
    collection: C,
    query: ConsoleQuery<C>,
    asOf: number,
    chunk: number,
    column: K,
  ): AsyncGenerator<ListColumns[K][]> {
    const list = this.listWhere(orgRowId, collection, query, asOf);
    if (list.search || query.sort.key !== 'created_at') {
      for (let sorted = list; ; sorted = this.listWhere(orgRowId, collection, query, asOf)) {
        try {
          // InventorySwapped comes only while the order is computed, before its first chunk.
          const rows = column === 'id' ? this.sortedOrders.all({ ...sorted, collection }, query.sort, chunk) : this.sortedOrders.allSeqs({ ...sorted, collection }, query.sort, chunk);
          yield* rows as AsyncGenerator<ListColumns[K][]>;
          return;
        } catch (error) {
          // A sync swapped the organization's inventory, or the excepted findings changed, while this waited: read anew.
          if (!(error instanceof InventorySwapped || error instanceof VersionMoved)) throw error;
        }
      }
    }
    const { table, where, direction } = list;
    const after = direction === 'ASC' ? 'seq > ?' : 'seq < ?';
    // Without a filter no index narrows anything, and the planner would walk one by org_id and
    // sort each chunk: read the table in seq order instead.
    const source = where.terms.length === 1 ? `${table} NOT INDEXED` : table;
    const clauses = `WHERE ${where.sql} AND ${after} ORDER BY seq ${direction} LIMIT ?`;
    let last = direction === 'ASC' ? -1 : Number.MAX_SAFE_INTEGER;
    if (column === 'seq') {
      // The inner query alone, no row of the table read, its seqs as one value: a call into
      // WebAssembly for each value read cost more than the query (3 s for 800,000 rows, 0.4 s so).
      const sql = `SELECT group_concat(seq, ',' ORDER BY seq ${direction}) FROM (SELECT seq FROM ${source} ${clauses})`;
      for (;;) {
        const packed = this.db.value(sql, [...where.params, last, chunk]) as string | null;
        if (!packed) return;
        const seqs = packed.split(',').map(Number);
        last = seqs[seqs.length - 1]!;
        yield seqs as ListColumns[K][];
      }
    }
    for (;;) {
      const rows = this.db.all<ListColumns>(inSeqOrder(table, clauses, direction, 'x.seq, x.id', source), [...where.params, last, chunk]);
      if (rows.length === 0) return;
      last = rows[rows.length - 1]!.seq;
      yield rows.map((row) => row[column]);
    }
  }

  /**
   * The list's filters over the inventory the organization shows now, with the rows its search
   * and its console filters narrow it to, if any; `asOf` is the instant of what is overdue.
   */
  private listWhere<C extends CollectionName>(orgRowId: number, collection: C, query: ConsoleQuery<C>, asOf: number): ListWhere {
    const shown = shownInventory(this.db, orgRowId);
    const where = listConditions(shown.inventoryId, collection, query);
    const { table, search } = collectionTables[collection];
    const q = query.q;
    // Descending walks the same index backwards: seq is the default order (see migrations.ts).
    const direction = query.sort.descending ? 'DESC' : 'ASC';
    const figures =
      collection === 'findings' && query.sort.key === 'epss'
        ? this.intel.epssSort(shown, query.sort.descending)
        : collection === 'endpoints' && query.sort.key === 'exploit_probability_30d'
          ? this.exploitSort(orgRowId, query.sort.descending)
          : collection === 'findings' && query.sort.key === 'fix_by'
            ? this.fixBy.sort(shown, query.sort.descending)
            : collection === 'endpoints' && query.sort.key === 'fix_by'
              ? this.fixBy.endpointSort(shown, query.sort.descending, () => this.endpointKeys(orgRowId))
              : this.figureSort(orgRowId, collection, query.sort.key);
    const narrowed: ListSearch[] = [];
    if (q !== undefined && search) search(where, q);
    else if (q !== undefined) narrowed.push({ key: `q=${q}`, rows: () => this.searchedFindings(shown, q) });
    const given: Record<string, unknown> = query;
    const consoleFilters: Record<string, ConsoleFilterRows> = this.consoleFilterRows[collection];
    for (const [parameter, rows] of Object.entries(consoleFilters)) if (given[parameter] === true) narrowed.push(rows(shown, asOf));
    if (collection === 'findings') {
      for (const filter of Object.keys(findingIntelFilters) as (keyof typeof findingIntelFilters)[]) {
        if (given[filter] !== undefined) narrowed.push(this.intel.filterRows(shown, filter, given[filter]));
      }
      for (const filter of Object.keys(findingFixByFilters) as FixByFilter[]) {
        if (given[filter] !== undefined) narrowed.push(this.fixBy.filterRows(shown, filter, given[filter]));
      }
    }
    const fixByFilters = collection === 'endpoints' ? fixByFiltersGiven(given) : undefined;
    if (fixByFilters) narrowed.push(this.fixBy.endpointRows(shown, fixByFilters));
    const byEndpoint = this.endpointFilterRows(shown, collection, given);
    if (byEndpoint) narrowed.push(byEndpoint);
    return { ...shown, table, where, direction, figures, search: bothOf(narrowed) };
  }

  /**
   * The rows the collection's endpoint filters given in `query` keep, all of them at once: the
   * endpoints' list conditions of those filters pick the endpoints (one of their indexes), those
   * by context (`tag`, `criticality`) narrow them, and their rows are read once per filter and
   * version (endpoint-filter-rows.ts). Undefined when none is given.
   */
  private endpointFilterRows(shown: ShownInventory, collection: CollectionName, query: Record<string, unknown>): ListSearch | undefined {
    const filters: Record<string, ConsoleFilter> = collections[collection].consoleFilters;
    const given = Object.entries(filters).filter(([parameter, filter]) => filter.kind === 'endpoint' && query[parameter] !== undefined);
    if (given.length === 0) return undefined;
    const byContext = (parameter: string) => parameter in endpointContextFilters;
    const endpointQuery = Object.fromEntries(given.filter(([parameter]) => !byContext(parameter)).map(([parameter]) => [parameter, query[parameter]]));
    const selection = Object.fromEntries(given.filter(([parameter]) => byContext(parameter)).map(([parameter]) => [parameter, query[parameter]])) as EndpointSelection;
    const endpoints = listConditions(shown.inventoryId, 'endpoints', endpointQuery);
    // Findings and targets name their endpoint in `endpoint_id`; an endpoint is its own.
    const table = collectionTables[collection].table as TableWithEndpoints;
    // A filter by context keeps other rows after a write of context, which orders kept by this key do not follow by themselves.
    const context = selectionKey(selection) && `|${selectionKey(selection)}@${this.versions.version(endpointContextWrites)}`;
    return { key: `endpoint:${endpoints.key}${context}`, rows: () => this.endpointRows.of(shown, table, endpoints, selection) };
  }

  /**
   * How a sort key whose values are figures looks them up (collection-tables.ts, `figureSort`);
   * undefined for a key SQLite orders by. A finding's due date depends on the deadlines, kept
   * under their key; an endpoint's exposure leaves out the findings exceptions leave out, kept
   * under their key, and is weighed by the endpoints' criticality, kept under the version of
   * the endpoint context; a finding's hostname or product depends on the data alone.
   */
  private figureSort(orgRowId: number, collection: CollectionName, key: string): FigureSort | undefined {
    if (!(collectionTables[collection].figureSort as readonly string[]).includes(key)) return undefined;
    if (collection === 'findings' && key === 'due_at') return this.deadlines.dueSort(orgRowId, this.deadlines.rule(orgRowId));
    const exceptedKey = collection === 'endpoints' ? this.exceptions.keyOf(orgRowId) : '';
    const context = new OneVersion(this.versions, [endpointContextWrites]);
    return {
      key: collection === 'endpoints' ? `${exceptedKey}|context@${context.version}` : '',
      lookup: async () => {
        const figures = await this.exposure.of(orgRowId);
        // Figures of another context than the key's would be kept under it: asked again.
        if (exceptedKey && figures.exceptedKey !== exceptedKey) throw new VersionMoved();
        if (collection === 'endpoints') context.check();
        return figureSortLookup(figures, collection, key);
      },
    };
  }

  /** The endpoints' sort by exploit probability (exploit-figures.ts), each endpoint found by its seq in the exposure figures. */
  private exploitSort(orgRowId: number, descending: boolean): FigureSort {
    return this.exploit.endpointSort(orgRowId, this.exceptions.keyOf(orgRowId), descending, async () => (await this.endpointKeys(orgRowId)).keyOf);
  }

  /** Each endpoint's key in the coverage columns by its seq, from the exposure figures, and those columns. */
  private async endpointKeys(orgRowId: number): Promise<{ columns: CoverageColumns; keyOf: (seq: number) => number }> {
    const { endpointBySeq, columns } = (await this.exposure.of(orgRowId)).sortValues;
    return { columns, keyOf: (seq) => endpointBySeq.get(seq) ?? -1 };
  }

  /** The findings a search names, ascending by seq, read in chunks once per version. */
  private searchedFindings(shown: ShownInventory, q: string): Promise<Int32Array> {
    const { inventoryId } = shown;
    return this.searches.settled(`${inventoryId}|${q}`, async (checkpoint) => {
      checkStillShown(this.db, shown);
      const textCves = await this.textCves.settled(String(inventoryId), async (pause) => {
        checkStillShown(this.db, shown);
        return textCvesOf(this.db, inventoryId, pause);
      });
      checkpoint();
      return searchedFindings(this.db, inventoryId, q, textCves, new TimeSlices(checkpoint));
    });
  }
}

/** The rows every one of `searches` names (none: no narrowing), ascending by seq. */
function bothOf(searches: ListSearch[]): ListSearch | undefined {
  if (searches.length <= 1) return searches[0];
  return {
    key: searches.map((search) => search.key).join('&'),
    rows: async () => {
      let rows = await searches[0]!.rows();
      for (const search of searches.slice(1)) rows = intersection(rows, await search.rows());
      return rows;
    },
  };
}

/** The values of two ascending arrays that are in both, ascending. */
function intersection(a: Int32Array, b: Int32Array): Int32Array {
  const both = new Int32Array(Math.min(a.length, b.length));
  let count = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      both[count++] = a[i++]!;
      j++;
    }
  }
  return both.slice(0, count);
}
