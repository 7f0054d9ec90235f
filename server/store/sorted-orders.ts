import type { ListSort, sortKeys } from '../schemas/console-api.js';
import { findingSeverities } from '../schemas/vulnerability-finding.js';
import type { Database } from './database.js';
import type { Collection, Conditions } from './inventory-reads.js';

type SortKey<C extends Collection> = (typeof sortKeys)[C][number];

/** Least severe first, so that descending puts critical on top. */
const severityRank = `CASE x.severity ${[...findingSeverities]
  .reverse()
  .map((severity, rank) => `WHEN '${severity}' THEN ${rank}`)
  .join(' ')} END`;

/**
 * The SQL value each sort key orders by, on the list's table aliased `x`. Names compare without
 * case; NULLs come first ascending (SQLite's rule), hence last descending.
 */
const sortExpressions: { [C in Collection]: Record<SortKey<C>, string> } = {
  endpoints: {
    hostname: 'lower(x.hostname)',
    os_family: 'x.os_family',
    os_version: 'x.os_version',
    updated_at: 'x.updated_ms',
    created_at: 'x.seq',
  },
  remediationTargets: {
    vendor: 'lower(x.vendor)',
    product: 'lower(x.product)',
    version: 'x.version',
    highest_cvss_score: 'x.highest_cvss_score',
    status: 'x.status',
    created_at: 'x.seq',
  },
  scopes: { name: 'lower(x.name)', status: 'x.status', created_at: 'x.seq' },
  findings: {
    severity: severityRank,
    cvss_score: 'x.cvss_score',
    cve_id: '(SELECT c.cve_id FROM cves c WHERE c.id = x.cve_ref)',
    status: 'x.status',
    first_detected_at: 'x.first_detected_at',
    created_at: 'x.seq',
  },
};

/** Positions `start` to `end` (exclusive) of an ascending order, read forwards or backwards. */
function slice(order: Int32Array, descending: boolean, start: number, end: number): number[] {
  const seqs: number[] = [];
  for (let i = start; i < end && i < order.length; i++) seqs.push(order[descending ? order.length - 1 - i : i]!);
  return seqs;
}

/** Cached orders may hold this many row numbers in all (4 bytes each): 32 MB. */
const maxCachedRows = 8_000_000;

/**
 * Lists in an order no index serves: the rows matching a filter are sorted once (a pass over up
 * to a million rows) into an array of their `seq`, kept until the next write, and every page is
 * then a slice of it. Descending reads the ascending array backwards, so both share one entry.
 * The least recently used orders are dropped beyond {@link maxCachedRows}.
 */
export class SortedOrders {
  private readonly orders = new Map<string, Int32Array>();
  private cachedRows = 0;
  private version = -1;

  constructor(private readonly db: Database) {}

  /** The ids of one page of the list in the given order, and how many rows match. */
  page(collection: Collection, table: string, where: Conditions, sort: ListSort, paging: { limit: number; offset: number }): { ids: string[]; total: number } {
    const order = this.order(collection, table, where, sort.key);
    return { ids: this.idsOf(table, slice(order, sort.descending, paging.offset, paging.offset + paging.limit)), total: order.length };
  }

  /** Every id of the list in the given order, `chunk` at a time. */
  *all(collection: Collection, table: string, where: Conditions, sort: ListSort, chunk: number): Generator<string[]> {
    const order = this.order(collection, table, where, sort.key);
    for (let start = 0; start < order.length; start += chunk) yield this.idsOf(table, slice(order, sort.descending, start, start + chunk));
  }

  private idsOf(table: string, seqs: number[]): string[] {
    if (seqs.length === 0) return [];
    return this.db.column(
      `SELECT x.id FROM json_each(?) AS page JOIN ${table} x ON x.seq = page.value ORDER BY page.key`,
      [JSON.stringify(seqs)],
    ) as string[];
  }

  private order(collection: Collection, table: string, where: Conditions, key: string): Int32Array {
    if (this.version !== this.db.version) {
      this.orders.clear();
      this.cachedRows = 0;
      this.version = this.db.version;
    }
    const cacheKey = `${table}|${key}|${where.sql}|${JSON.stringify(where.params)}`;
    const cached = this.orders.get(cacheKey);
    if (cached) {
      // Re-inserting marks it most recently used: a Map iterates in insertion order.
      this.orders.delete(cacheKey);
      this.orders.set(cacheKey, cached);
      return cached;
    }
    const expression = (sortExpressions[collection] as Record<string, string>)[key]!;
    const order = Int32Array.from(
      this.db.column(`SELECT x.seq FROM ${table} x WHERE ${where.sql} ORDER BY ${expression}, x.id`, where.params) as number[],
    );
    this.orders.set(cacheKey, order);
    this.cachedRows += order.length;
    for (const [oldKey, old] of this.orders) {
      if (this.cachedRows <= maxCachedRows || oldKey === cacheKey) break;
      this.orders.delete(oldKey);
      this.cachedRows -= old.length;
    }
    return order;
  }
}
