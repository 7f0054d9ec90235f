import type { SqlValue } from 'sql.js';
import type {
  EndpointListQuery,
  RemediationTargetListQuery,
  ScopeListQuery,
  VulnerabilityFindingListQuery,
} from '../schemas/list-queries.js';
import type { Database } from './database.js';

/** A page of a list with each item already serialized to JSON by SQLite. */
export interface JsonPage {
  items: string[];
  total: number;
}

/** A finding row `x` as the JSON of its resource, given how to read its CVE id and its texts' columns. */
function findingJson(cveId: string, text: (column: 'title' | 'description' | 'solution') => string): string {
  return `json_object(
      'id', x.id, 'endpoint_id', x.endpoint_id, 'remediation_target_id', x.remediation_target_id,
      'cve_id', ${cveId}, 'severity', x.severity, 'cvss_score', x.cvss_score,
      'is_kev', json(CASE x.is_kev WHEN 1 THEN 'true' ELSE 'false' END), 'status', x.status,
      'source', x.source, 'title', ${text('title')}, 'description', ${text('description')}, 'solution', ${text('solution')},
      'first_detected_at', x.first_detected_at, 'remediated_at', x.remediated_at,
      'created_at', x.created_at, 'updated_at', x.updated_at)`;
}

/** The four collections and how each turns a row into the JSON of its resource. */
const collections = {
  endpoints: {
    table: 'endpoints',
    joins: '',
    json: `json_object(
      'id', x.id, 'hostname', x.hostname, 'ip', x.ip, 'mac_address', x.mac_address,
      'operating_system', json_object('name', x.os_name, 'version', x.os_version, 'family', x.os_family,
                                      'vendor', x.os_vendor, 'architecture', x.os_architecture),
      'agent_id', x.agent_id, 'agent_version', x.agent_version,
      'created_at', x.created_at, 'updated_at', x.updated_at)`,
  },
  remediationTargets: {
    table: 'remediation_targets',
    joins: '',
    json: `json_object(
      'id', x.id, 'endpoint_id', x.endpoint_id, 'target_type', x.target_type, 'vendor', x.vendor,
      'product', x.product, 'version', x.version, 'install_path', x.install_path,
      'package_name', x.package_name, 'package_manager', x.package_manager, 'status', x.status,
      'source', x.source, 'associated_cves', json(x.associated_cves),
      'highest_cvss_score', x.highest_cvss_score, 'created_at', x.created_at, 'updated_at', x.updated_at)`,
  },
  scopes: {
    table: 'scopes',
    joins: '',
    json: `json_object(
      'id', x.id, 'name', x.name, 'description', x.description, 'status', x.status,
      'subject_filter', json(x.subject_filter), 'endpoint_filter', json(x.endpoint_filter),
      'finding_filter', json(x.finding_filter), 'created_at', x.created_at, 'updated_at', x.updated_at)`,
  },
  findings: {
    table: 'findings',
    joins: 'JOIN cves c ON c.id = x.cve_ref JOIN finding_texts t ON t.id = x.text_ref',
    json: findingJson('c.cve_id', (column) => `t.${column}`),
  },
} as const;

/**
 * A single finding by scalar sub-queries for its CVE and texts: one statement, and for one row
 * SQLite answers it several times faster than the joins of the list's page.
 */
const findingGetSql = `SELECT ${findingJson('(SELECT cve_id FROM cves WHERE id = x.cve_ref)', (column) => `(SELECT ${column} FROM finding_texts WHERE id = x.text_ref)`)}
  FROM findings x WHERE x.org_id = ? AND x.id = ?`;

/** One of the four collections of the v1 API. */
export type Collection = keyof typeof collections;

/** A WHERE clause, its terms ANDed; a term with an undefined value is left out. */
export class Conditions {
  readonly terms: string[] = [];
  readonly params: SqlValue[] = [];

  add(term: string, ...values: (SqlValue | undefined)[]): void {
    if (values.some((value) => value === undefined)) return;
    this.terms.push(term);
    this.params.push(...(values as SqlValue[]));
  }

  get sql(): string {
    return this.terms.join(' AND ');
  }
}

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

/** A list query of the v1 API, by collection. */
export type ListQuery =
  | { collection: 'endpoints'; query: EndpointListQuery }
  | { collection: 'remediationTargets'; query: RemediationTargetListQuery }
  | { collection: 'scopes'; query: ScopeListQuery }
  | { collection: 'findings'; query: VulnerabilityFindingListQuery };

/** The table of each collection. */
export const collectionTables: Record<Collection, string> = {
  endpoints: 'endpoints',
  remediationTargets: 'remediation_targets',
  scopes: 'scopes',
  findings: 'findings',
};

/** The WHERE clause of a v1 list: the organization, `updatedSince`, and the list's filters. */
export function listConditions(orgRowId: number, { collection, query }: ListQuery): Conditions {
  const where = new Conditions();
  where.add('org_id = ?', orgRowId);
  where.add('updated_ms >= ?', query.updatedSince === undefined ? undefined : Date.parse(query.updatedSince));
  switch (collection) {
    case 'endpoints':
      where.add('os_family = ?', query.osFamily);
      where.add('has_agent = ?', flag(query.hasAgent));
      break;
    case 'remediationTargets':
      where.add('endpoint_id = ?', query.endpointId?.toLowerCase());
      where.add('target_type = ?', query.targetType);
      where.add('status = ?', query.status);
      break;
    case 'scopes':
      where.add('status = ?', query.status);
      break;
    case 'findings':
      where.add('endpoint_id = ?', query.endpointId?.toLowerCase());
      where.add('remediation_target_id = ?', query.remediationTargetId?.toLowerCase());
      where.add('severity = ?', query.severity);
      where.add('status = ?', query.status);
      where.add('is_kev = ?', flag(query.isKev));
      where.add('cve_ref = (SELECT id FROM cves WHERE cve_id = ?)', query.cveId);
      break;
  }
  return where;
}

/** Every this many rows of a filtered list, its seq is remembered, so that a deep offset seeks. */
const skipStride = 1000;
/** Filtered lists whose skip positions are kept: bounded whatever filters the clients send. */
const skipListsKept = 256;

/**
 * The list and get queries of the v1 API. Totals are memoized until the next write, since at
 * a million findings a count costs more than the page itself and the data rarely changes.
 * Deep offsets would cost a walk over every row before them (a full sync of a million findings
 * pages to offset 999,900): the seq of every {@link skipStride}th row of a filtered list is
 * remembered until the next write, so a page seeks to the nearest one and skips fewer than
 * {@link skipStride} rows.
 */
export class InventoryReads {
  private readonly totals = new Map<string, number>();
  /** Per filtered list, in least recently used order: `skips[k]` is the seq at offset (k + 1) × skipStride. */
  private readonly skips = new Map<string, number[]>();
  private cachedVersion = -1;

  constructor(private readonly db: Database) {}

  /** One page of a v1 list with the number of items matching its filters. */
  list(orgRowId: number, list: ListQuery): JsonPage {
    // With updatedSince, SQLite walks the updated_ms index and sorts the matches: a page costs the
    // matches, not the offset, and a seek would move it onto the organization's whole index.
    const seekable = list.query.updatedSince === undefined;
    return this.page(list.collection, listConditions(orgRowId, list), list.query, seekable);
  }

  /** One resource of the organization as JSON, or undefined when it has none with that id. */
  get(collection: Collection, orgRowId: number, id: string): string | undefined {
    const { table, joins, json } = collections[collection];
    const sql = collection === 'findings' ? findingGetSql : `SELECT ${json} FROM ${table} x ${joins} WHERE x.org_id = ? AND x.id = ?`;
    const value = this.db.value(sql, [orgRowId, id.toLowerCase()]);
    return typeof value === 'string' ? value : undefined;
  }

  private page(collection: Collection, where: Conditions, paging: { limit: number; offset: number }, seekable: boolean): JsonPage {
    const { table, joins, json } = collections[collection];
    this.dropStaleCaches();
    const key = `${table}|${where.sql}|${JSON.stringify(where.params)}`;
    const seek = seekable ? this.seek(table, where, key, paging.offset) : undefined;
    const from = seek ? ' AND seq >= ?' : '';
    // The inner query walks one index to the page's rows; only those 100 rows are joined.
    const items = this.db.column(
      `SELECT ${json}
       FROM (SELECT seq FROM ${table} WHERE ${where.sql}${from} ORDER BY seq LIMIT ? OFFSET ?) AS page
       JOIN ${table} x ON x.seq = page.seq ${joins}
       ORDER BY page.seq`,
      seek ? [...where.params, seek.seq, paging.limit, seek.skip] : [...where.params, paging.limit, paging.offset],
    ) as string[];
    return { items, total: this.total(table, where, key) };
  }

  private dropStaleCaches(): void {
    if (this.cachedVersion === this.db.version) return;
    this.totals.clear();
    this.skips.clear();
    this.cachedVersion = this.db.version;
  }

  /**
   * Where a page at `offset` starts: the nearest remembered seq at or before it and the rows to
   * skip from there; undefined for offsets before the first stride. Positions not yet known are
   * found stride by stride from the last known one, so paging forward costs one stride per stride.
   */
  private seek(table: string, where: Conditions, key: string, offset: number): { seq: number; skip: number } | undefined {
    const wanted = Math.floor(offset / skipStride);
    if (wanted === 0) return undefined;
    const skips = this.skips.get(key) ?? [];
    this.skips.delete(key);
    if (this.skips.size >= skipListsKept) this.skips.delete(this.skips.keys().next().value!);
    this.skips.set(key, skips);
    while (skips.length < wanted) {
      const next = this.db.value(`SELECT seq FROM ${table} WHERE ${where.sql} AND seq >= ? ORDER BY seq LIMIT 1 OFFSET ?`, [
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

  private total(table: string, where: Conditions, key: string): number {
    let total = this.totals.get(key);
    if (total === undefined) {
      total = Number(this.db.value(`SELECT count(*) FROM ${table} WHERE ${where.sql}`, where.params));
      if (this.totals.size >= 10_000) this.totals.clear();
      this.totals.set(key, total);
    }
    return total;
  }
}
