/**
 * The store's half of the collection registry (contracts/collections.ts): for each collection,
 * its table, the SQL that turns a row into the item's JSON, and the SQL of its filters, sort
 * keys and free-text search. A filter compares the column named as its parameter in snake case
 * (`osFamily` → `os_family`) unless it is listed in `filterSql`; a sort key orders by its
 * column (`lower()` of it for text) unless it is listed in `sortSql`; both are typed by the
 * registry entry, so that a filter or sort key that needs SQL of its own does not compile
 * without it.
 */
import type { SqlValue } from 'sql.js';
import { type CollectionName, type Collections, type SortKey, type V1Query, collectionNames, collections } from '../../../contracts/collections.js';
import { type ExposureSortKey, exposureSortKinds } from '../../../contracts/console/exposure.js';
import { findingSeverities } from '../../../contracts/enums.js';
import type { Filter } from '../../../contracts/list-queries.js';

/**
 * A WHERE clause, its terms ANDed; a term with an undefined value is left out.
 *
 * The list filters bind their values as `+?`, which the query planner does not read: SQLite
 * marks a statement whose plan depends on a bound value (`org_id = ?` before `ORDER BY seq`,
 * `LIMIT ?`), and sql.js clears the bindings before each run, which makes SQLite prepare a
 * marked statement again at every run: a fifth of a cache-cold v1 page
 * (docs/decisions/the-v1-api/cache-cold-pages.md). The unary plus keeps the value, its affinity
 * and the index the statement uses.
 */
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

  /** A key naming this clause and its values, for what is computed from it. */
  get key(): string {
    return `${this.sql}|${JSON.stringify(this.params)}`;
  }
}

/** The hostname of the endpoint a row `x` names, null when the replica does not hold it. */
const endpointHostname = '(SELECT e.hostname FROM endpoints e WHERE e.org_id = x.org_id AND e.id = x.endpoint_id)';
/** The OS family of the endpoint a row `x` names, and whether it has an agent: null when the replica does not hold it. */
const endpointFactSql = {
  endpoint_os_family: '(SELECT e.os_family FROM endpoints e WHERE e.org_id = x.org_id AND e.id = x.endpoint_id)',
  endpoint_has_agent: `json(CASE (SELECT e.has_agent FROM endpoints e WHERE e.org_id = x.org_id AND e.id = x.endpoint_id) WHEN 1 THEN 'true' WHEN 0 THEN 'false' END)`,
};
/** A column of the remediation target a finding `x` names, null when the replica does not hold it. */
const targetColumn = (column: 'product' | 'version') =>
  `(SELECT t.${column} FROM remediation_targets t WHERE t.org_id = x.org_id AND t.id = x.remediation_target_id)`;

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

/** `LIKE` that finds `text` anywhere, its own wildcards taken literally. */
export function containing(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A condition over the columns of any of `columns` containing the text (case-insensitive). */
function anyColumnContains(columns: string[]): (where: Conditions, text: string) => void {
  return (where, text) => {
    const pattern = containing(text);
    where.add(`(${columns.map((column) => `lower(${column}) LIKE ? ESCAPE '\\'`).join(' OR ')})`, ...columns.map(() => pattern));
  };
}

/** Least severe first, so that descending puts critical on top. */
const severityRank = `CASE x.severity ${[...findingSeverities]
  .reverse()
  .map((severity, rank) => `WHEN '${severity}' THEN ${rank}`)
  .join(' ')} END`;

type FilterParameters<C extends CollectionName> = keyof Collections[C]['filters'] & string;
/** The parameters of a collection whose filter is not a plain comparison of its column. */
type SpecialFilters<C extends CollectionName> = {
  [P in FilterParameters<C>]: Collections[C]['filters'][P] extends { kind: 'cve' } ? P : never;
}[FilterParameters<C>];

/** The store's facts of one collection. */
export interface CollectionTable<C extends CollectionName> {
  table: string;
  /** Joins the row JSON needs beside the table aliased `x`. */
  joins: string;
  /** The row `x` as the item's JSON, built by SQLite. */
  json: string;
  /** The SQL of the filters that are not a plain comparison of their column. */
  filterSql: { [P in SpecialFilters<C>]: string } & Partial<Record<FilterParameters<C>, string>>;
  /** The SQL value of the sort keys that do not order by their own column, on the table aliased `x`. */
  sortSql: Partial<Record<SortKey<C>, string>>;
  /**
   * The sort keys whose values are looked up in the exposure figures (exposure-figures.ts: an
   * endpoint's exposure, a finding's hostname) by each row's seq: a million findings sort by
   * their endpoints' hostnames in a fraction of what a sub-query per row costs.
   */
  figureSort: readonly SortKey<C>[];
  /** The SQL of the console's fields (the registry's `consoleFields`) that SQLite reads, on the row aliased `x`. */
  consoleFieldSql: { [F in keyof Collections[C]['consoleFields']]?: string };
  /**
   * Columns of the row `x` that the console's fields computed outside SQLite read, beside the
   * item's JSON (a finding's deadline fields: deadline-figures.ts); none where empty.
   */
  consoleFacts: string;
  /**
   * Adds the condition of the console's `q`, where that stays cheap: a scan of at most the
   * organization's endpoints, targets or scopes. Findings are searched through their CVEs,
   * texts and endpoints instead (finding-search.ts), given as `findingText`.
   */
  search?: (where: Conditions, text: string) => void;
}

/** The tables of the collections, with their SQL. */
export const collectionTables: { [C in CollectionName]: CollectionTable<C> } = {
  endpoints: {
    table: 'endpoints',
    joins: '',
    json: `json_object(
      'id', x.id, 'hostname', x.hostname, 'ip', x.ip, 'mac_address', x.mac_address,
      'operating_system', json_object('name', x.os_name, 'version', x.os_version, 'family', x.os_family,
                                      'vendor', x.os_vendor, 'architecture', x.os_architecture),
      'agent_id', x.agent_id, 'agent_version', x.agent_version,
      'created_at', x.created_at, 'updated_at', x.updated_at)`,
    filterSql: {},
    sortSql: { updated_at: 'x.updated_ms' },
    figureSort: Object.keys(exposureSortKinds) as ExposureSortKey[],
    consoleFieldSql: {},
    consoleFacts: '',
    search: anyColumnContains(['hostname', 'ip']),
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
    filterSql: {},
    sortSql: {},
    figureSort: [],
    consoleFieldSql: endpointFactSql,
    consoleFacts: '',
    search: anyColumnContains(['product', 'vendor', 'package_name']),
  },
  scopes: {
    table: 'scopes',
    joins: '',
    json: `json_object(
      'id', x.id, 'name', x.name, 'description', x.description, 'status', x.status,
      'subject_filter', json(x.subject_filter), 'endpoint_filter', json(x.endpoint_filter),
      'finding_filter', json(x.finding_filter), 'created_at', x.created_at, 'updated_at', x.updated_at)`,
    filterSql: {},
    sortSql: {},
    figureSort: [],
    consoleFieldSql: {},
    consoleFacts: '',
    search: anyColumnContains(['name']),
  },
  findings: {
    table: 'findings',
    joins: 'JOIN cves c ON c.id = x.cve_ref JOIN finding_texts t ON t.id = x.text_ref',
    json: findingJson('c.cve_id', (column) => `t.${column}`),
    filterSql: { cveId: 'cve_ref = (SELECT id FROM cves WHERE cve_id = +?)' },
    sortSql: { severity: severityRank, cve_id: '(SELECT c.cve_id FROM cves c WHERE c.id = x.cve_ref)' },
    // Risk (KEV, then CVSS) from the coverage columns: the console's default order of findings, read along no row.
    figureSort: ['endpoint_hostname', 'target_product', 'due_at', 'risk'],
    consoleFieldSql: { endpoint_hostname: endpointHostname, ...endpointFactSql, target_product: targetColumn('product'), target_version: targetColumn('version') },
    consoleFacts: 'x.seq, x.severity, x.is_kev, x.status, x.first_detected_at, x.remediated_at, x.id, x.endpoint_id, (SELECT cve_id FROM cves WHERE id = x.cve_ref) AS cve_id',
  },
};

/**
 * A single finding by scalar sub-queries for its CVE and texts: one statement, and for one row
 * SQLite answers it several times faster than the joins of the list's page. Its values are
 * bound as `+?`, as the list filters' are (see {@link Conditions}).
 */
const findingGetJson = findingJson('(SELECT cve_id FROM cves WHERE id = x.cve_ref)', (column) => `(SELECT ${column} FROM finding_texts WHERE id = x.text_ref)`);
export const findingGetSql = `SELECT ${findingGetJson} FROM findings x WHERE x.org_id = +? AND x.id = +?`;

/** The SELECT of one item of a collection as the console answers it (see {@link consoleGetSql}). */
function consoleGetSqlOf(collection: CollectionName): string {
  const { table, json, consoleFacts } = collectionTables[collection];
  const fields: Record<string, string | undefined> = collectionTables[collection].consoleFieldSql;
  const base = collection === 'findings' ? findingGetJson : json;
  const inserts = Object.entries(fields).map(([field, sql]) => `, '$.${field}', ${sql}`);
  const item = inserts.length ? `json_insert(${base}${inserts.join('')})` : base;
  return `SELECT ${item} AS json${consoleFacts ? `, ${consoleFacts}` : ''} FROM ${table} x WHERE x.org_id = ? AND x.id = ?`;
}

/**
 * The SELECT of one item of each collection as the console answers it, the organization's
 * inventory and the item's id as parameters: the /v1 JSON with the console's fields SQLite
 * reads (column `json`), and the columns the others are computed from (`consoleFacts`; they are
 * added by console-items.ts). Built once, not per item read.
 */
export const consoleGetSql = Object.fromEntries(collectionNames.map((collection) => [collection, consoleGetSqlOf(collection)])) as Record<CollectionName, string>;

const snakeCase = (parameter: string) => parameter.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The value a filter compares its column with. */
function filterValue(filter: Filter, value: unknown): SqlValue | undefined {
  if (value === undefined) return undefined;
  if (filter.kind === 'boolean') return value ? 1 : 0;
  if (filter.kind === 'uuid') return String(value).toLowerCase();
  return value as SqlValue;
}

/** The WHERE clause of a list: the inventory (inventory-ids.ts), `updatedSince`, and the collection's filters. */
export function listConditions<C extends CollectionName>(inventoryId: number, collection: C, query: Omit<V1Query<C>, 'limit' | 'offset'>): Conditions {
  const where = new Conditions();
  where.add('org_id = +?', inventoryId);
  where.add('updated_ms >= +?', query.updatedSince === undefined ? undefined : Date.parse(query.updatedSince));
  const special: Partial<Record<string, string>> = collectionTables[collection].filterSql;
  const values: Record<string, unknown> = query;
  for (const [parameter, filter] of Object.entries<Filter>(collections[collection].filters)) {
    where.add(special[parameter] ?? `${snakeCase(parameter)} = +?`, filterValue(filter, values[parameter]));
  }
  return where;
}

/** The SQL value a console list orders by, on its table aliased `x`; `created_at` is the rowid order. */
export function sortExpression<C extends CollectionName>(collection: C, key: SortKey<C>): string {
  if (key === 'created_at') return 'x.seq';
  const special: Partial<Record<string, string>> = collectionTables[collection].sortSql;
  const kinds: Record<string, string> = collections[collection].sortKinds;
  return special[key] ?? (kinds[key] === 'text' ? `lower(x.${key})` : `x.${key}`);
}
