import type {
  ConsoleEndpointQuery,
  ConsoleFindingQuery,
  ConsoleScopeQuery,
  ConsoleTargetQuery,
  Dashboard,
} from '../schemas/console-api.js';
import { osFamilies } from '../schemas/common.js';
import { findingSeverities } from '../schemas/vulnerability-finding.js';
import type { Database } from './database.js';
import { type Conditions as Where, collectionTables, listConditions } from './inventory-reads.js';
import { containing, findingTextCondition, textCvesOf } from './finding-search.js';
import { SortedOrders } from './sorted-orders.js';

/** A page of ids in list order, with the number of items matching. */
export interface IdPage {
  ids: string[];
  total: number;
}

/** The console's lists: the v1 filters plus `sort` and, where it stays cheap, `q`. */
export type ConsoleListQuery =
  | { collection: 'endpoints'; query: ConsoleEndpointQuery }
  | { collection: 'remediationTargets'; query: ConsoleTargetQuery }
  | { collection: 'scopes'; query: ConsoleScopeQuery }
  | { collection: 'findings'; query: ConsoleFindingQuery };

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
 * The SQL of the console's own reads: lists with sort and free text and dashboard aggregates
 * (scope coverage is in scope-coverage.ts). Results of the heavy queries (a full pass over up to a
 * million findings) are memoized until the next write, as the v1 list totals are.
 */
export class ConsoleQueries {
  private readonly memo = new Map<string, unknown>();
  private memoVersion = -1;
  private readonly sortedOrders: SortedOrders;

  constructor(private readonly db: Database) {
    this.sortedOrders = new SortedOrders(db);
  }

  /**
   * One page of a console list as ids. The default order (or its reverse) walks an index;
   * other orders are sorted once per filter and kept until the next write (sorted-orders.ts).
   */
  listIds(orgRowId: number, list: ConsoleListQuery): IdPage {
    const { table, where, direction } = this.listWhere(orgRowId, list);
    if (list.query.sort.key !== 'created_at') {
      return this.sortedOrders.page({ orgRowId, collection: list.collection, table, where }, list.query.sort, list.query);
    }
    const ids = this.db.column(inSeqOrder(table, `WHERE ${where.sql} ORDER BY seq ${direction} LIMIT ? OFFSET ?`, direction), [
      ...where.params,
      list.query.limit,
      list.query.offset,
    ]) as string[];
    const total = this.memoized(`count|${table}|${where.sql}|${JSON.stringify(where.params)}`, () =>
      Number(this.db.value(`SELECT count(*) FROM ${table} WHERE ${where.sql}`, where.params)),
    );
    return { ids, total };
  }

  /**
   * All ids of a console list in its order (limit and offset ignored), `chunk` at a time. Each
   * chunk continues after the last row's `seq`, so reading a million rows stays linear where
   * growing offsets would walk the index again for every page.
   */
  *listAllIds(orgRowId: number, list: ConsoleListQuery, chunk = 1000): Generator<string[]> {
    const { table, where, direction } = this.listWhere(orgRowId, list);
    if (list.query.sort.key !== 'created_at') {
      yield* this.sortedOrders.all({ orgRowId, collection: list.collection, table, where }, list.query.sort, chunk);
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

  private listWhere(orgRowId: number, list: ConsoleListQuery): { table: string; where: Where; direction: 'ASC' | 'DESC' } {
    const where = listConditions(orgRowId, list);
    const { collection, query } = list;
    // Free text scans the table only where that stays cheap: 20,000 endpoints or fewer rows.
    if (query.q) {
      const text = containing(query.q);
      if (collection === 'endpoints') where.add("(lower(hostname) LIKE ? ESCAPE '\\' OR ip LIKE ? ESCAPE '\\')", text, text);
      if (collection === 'remediationTargets') {
        where.add(
          "(lower(product) LIKE ? ESCAPE '\\' OR lower(vendor) LIKE ? ESCAPE '\\' OR lower(package_name) LIKE ? ESCAPE '\\')",
          text,
          text,
          text,
        );
      }
      if (collection === 'scopes') where.add("lower(name) LIKE ? ESCAPE '\\'", text);
      if (collection === 'findings') {
        const q = query.q;
        const condition = this.memoized(`findingText|${orgRowId}|${q}`, () =>
          findingTextCondition(this.db, orgRowId, q, () => this.memoized(`textCves|${orgRowId}`, () => textCvesOf(this.db, orgRowId))),
        );
        where.add(condition.sql, ...condition.params);
      }
    }
    // Descending walks the same index backwards: seq is the default order (see migrations.ts).
    return { table: collectionTables[collection], where, direction: query.sort.descending ? 'DESC' : 'ASC' };
  }

  /** The dashboard of an organization; the first call after a write makes a few passes over its findings. */
  dashboard(orgRowId: number): Dashboard {
    return this.memoized(`dashboard|${orgRowId}`, () => this.computeDashboard(orgRowId));
  }

  private computeDashboard(org: number): Dashboard {
    const count = (sql: string) => Number(this.db.value(sql, [org]));
    const bySeverityStatus = this.db.all<{ severity: string; status: string; n: number }>(
      'SELECT severity, status, count(*) AS n FROM findings WHERE org_id = ? GROUP BY severity, status',
      [org],
    );
    const byOsAgent = this.db.all<{ os_family: string; has_agent: number; n: number }>(
      'SELECT os_family, has_agent, count(*) AS n FROM endpoints WHERE org_id = ? GROUP BY os_family, has_agent',
      [org],
    );
    // Counting open findings per target first keeps the join to one lookup per target.
    const topProducts = this.db.all<{ vendor: string | null; product: string; open_findings: number; targets: number }>(
      `SELECT t.vendor, t.product, sum(c.n) AS open_findings, count(*) AS targets
       FROM (SELECT remediation_target_id AS target_id, count(*) AS n FROM findings
             WHERE org_id = ? AND status = 'open' AND remediation_target_id IS NOT NULL
             GROUP BY remediation_target_id) c
       JOIN remediation_targets t ON t.org_id = ? AND t.id = c.target_id
       WHERE t.product IS NOT NULL
       GROUP BY t.vendor, t.product
       ORDER BY open_findings DESC, t.vendor, t.product
       LIMIT 10`,
      [org, org],
    );
    const overTime = this.db.all<{ month: string; severity: string; n: number }>(
      `SELECT substr(first_detected_at, 1, 7) AS month, severity, count(*) AS n
       FROM findings WHERE org_id = ? GROUP BY month, severity ORDER BY month`,
      [org],
    );

    const severityCount = (severity: string, status: string) =>
      bySeverityStatus.find((row) => row.severity === severity && row.status === status)?.n ?? 0;
    const endpointsOf = (predicate: (row: { os_family: string; has_agent: number }) => boolean) =>
      byOsAgent.filter(predicate).reduce((sum, row) => sum + row.n, 0);
    const months = new Map<string, Dashboard['findingsOverTime'][number]>();
    for (const row of overTime) {
      let entry = months.get(row.month);
      if (!entry) {
        entry = { month: row.month, critical: 0, high: 0, medium: 0, low: 0, info: 0 };
        months.set(row.month, entry);
      }
      if (row.severity in entry) entry[row.severity as (typeof findingSeverities)[number]] = row.n;
    }

    return {
      totals: {
        endpoints: endpointsOf(() => true),
        remediationTargets: count('SELECT count(*) FROM remediation_targets WHERE org_id = ?'),
        findings: bySeverityStatus.reduce((sum, row) => sum + row.n, 0),
        openFindings: bySeverityStatus.filter((row) => row.status === 'open').reduce((sum, row) => sum + row.n, 0),
        openKevFindings: count("SELECT count(*) FROM findings WHERE org_id = ? AND status = 'open' AND is_kev = 1"),
        scopes: count('SELECT count(*) FROM scopes WHERE org_id = ?'),
      },
      findingsBySeverity: findingSeverities.map((severity) => ({
        severity,
        open: severityCount(severity, 'open'),
        remediated: severityCount(severity, 'remediated'),
      })),
      endpointsByOsFamily: osFamilies
        .map((family) => ({ family, count: endpointsOf((row) => row.os_family === family) }))
        .filter((entry) => entry.count > 0),
      agentCoverage: { withAgent: endpointsOf((row) => row.has_agent === 1), withoutAgent: endpointsOf((row) => row.has_agent === 0) },
      topVulnerableProducts: topProducts.map((row) => ({
        vendor: row.vendor,
        product: row.product,
        openFindings: row.open_findings,
        remediationTargets: row.targets,
      })),
      findingsOverTime: [...months.values()],
    };
  }

  private memoized<T>(key: string, compute: () => T): T {
    if (this.memoVersion !== this.db.version) {
      this.memo.clear();
      this.memoVersion = this.db.version;
    }
    if (this.memo.has(key)) return this.memo.get(key) as T;
    const value = compute();
    if (this.memo.size >= 10_000) this.memo.clear();
    this.memo.set(key, value);
    return value;
  }
}
