import { type CollectionName, type SortKey, collections } from '../../../contracts/collections.js';
import type { Inventory } from '../../../contracts/inventory.js';

type Value = string | number | null;
type Item = { id: string } & Record<string, any>;

const severityRank: Record<string, number> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 };
const lower = (text: string | null) => (text === null ? null : text.toLowerCase());

/** What each sort key of the console's lists compares, computed from the JSON of a console item. */
const sortValues: { [C in CollectionName]: Record<SortKey<C>, (item: Item) => Value> } = {
  endpoints: {
    hostname: (e) => lower(e.hostname),
    os_family: (e) => e.operating_system.family,
    os_version: (e) => e.operating_system.version,
    updated_at: (e) => Date.parse(e.updated_at),
    created_at: (e) => Date.parse(e.created_at),
    risk_score: (e) => e.risk_score,
    open_critical: (e) => e.open_findings.critical,
    open_high: (e) => e.open_findings.high,
    open_medium: (e) => e.open_findings.medium,
    open_low: (e) => e.open_findings.low,
    open_info: (e) => e.open_findings.info,
    open_kev_findings: (e) => e.open_kev_findings,
    highest_open_cvss: (e) => e.highest_open_cvss,
    // Without a figure (no EPSS file) last in both directions: see nullsLast.
    exploit_probability_30d: (e) => e.exploit_probability_30d ?? null,
    // The earliest of its open findings; without one last in both directions, as EPSS.
    fix_by: (e) => (e.fix_by === null ? null : Date.parse(e.fix_by)),
  },
  remediationTargets: {
    vendor: (t) => lower(t.vendor),
    product: (t) => lower(t.product),
    version: (t) => t.version,
    highest_cvss_score: (t) => t.highest_cvss_score,
    status: (t) => t.status,
    created_at: (t) => Date.parse(t.created_at),
  },
  scopes: { name: (s) => lower(s.name), status: (s) => s.status, created_at: (s) => Date.parse(s.created_at) },
  findings: {
    // KEV first, then CVSS, a finding without a score below the KEV ones with one.
    risk: (f) => (f.is_kev ? 20 : 0) + (f.cvss_score ?? -1),
    severity: (f) => severityRank[f.severity]!,
    cvss_score: (f) => f.cvss_score,
    cve_id: (f) => lower(f.cve_id),
    status: (f) => f.status,
    first_detected_at: (f) => f.first_detected_at,
    created_at: (f) => Date.parse(f.created_at),
    endpoint_hostname: (f) => lower(f.endpoint_hostname),
    target_product: (f) => lower(f.target_product),
    due_at: (f) => (f.due_at === null ? null : Date.parse(f.due_at)),
    // Unscored last in both directions: see nullsLast.
    epss: (f) => f.epss,
    // Without a fix-by date last in both directions, as EPSS.
    fix_by: (f) => (f.fix_by === null ? null : Date.parse(f.fix_by)),
  },
};

/** Sort keys whose items without a value come last in both directions (ties still by id, reversed when descending). */
const nullsLast = new Set(['epss', 'exploit_probability_30d', 'fix_by']);

const compareValues = (a: Value, b: Value) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/**
 * `items` in the order the console API promises for `sort` (`key` or `-key`): by the key, NULL
 * first, then by id; descending is exactly the reverse.
 */
export function inSortOrder<T extends { id: string }>(collection: CollectionName, sort: string, items: readonly T[]): T[] {
  const key = sort.replace(/^-/, '');
  const valueOf = (sortValues[collection] as Record<string, (item: Item) => Value>)[key];
  if (!valueOf) throw new Error(`No sort key ${key} for ${collection}`);
  const descending = sort.startsWith('-');
  const value = nullsLast.has(key) ? (item: Item) => valueOf(item) ?? (descending ? -Infinity : Infinity) : valueOf;
  const sorted = [...items].sort((a, b) => compareValues(value(a as Item), value(b as Item)) || compareValues(a.id.toLowerCase(), b.id.toLowerCase()));
  return descending ? sorted.reverse() : sorted;
}

/** The console list paths, the collection each serves and the items of an inventory it holds, as the console answers them. */
export function consoleLists(inventory: Inventory): { path: string; collection: CollectionName; items: readonly { id: string }[] }[] {
  const { endpoints, findings } = withConsoleFields(inventory);
  return [
    { path: 'endpoints', collection: 'endpoints', items: endpoints },
    { path: 'remediation-targets', collection: 'remediationTargets', items: inventory.remediationTargets },
    { path: 'scopes', collection: 'scopes', items: inventory.scopes },
    { path: 'vulnerability-findings', collection: 'findings', items: findings },
  ];
}

const severityWeights: Record<string, number> = { critical: 100, high: 30, medium: 10, low: 3, info: 1 };

/**
 * The exposure of a set of open findings, computed here: by severity, KEV ones, the highest CVSS
 * and the risk score with the weights of the README (five times for KEV), written out rather
 * than imported so that a change of the product's weights that its documentation does not
 * follow fails.
 */
export function exposureOf(open: readonly { severity: string; is_kev: boolean; cvss_score: number | null }[]) {
  const scores = open.map((f) => f.cvss_score).filter((score) => score !== null);
  return {
    open_findings: Object.fromEntries(Object.keys(severityWeights).map((s) => [s, open.filter((f) => f.severity === s).length])),
    open_kev_findings: open.filter((f) => f.is_kev).length,
    highest_open_cvss: scores.length ? Math.max(...scores) : null,
    risk_score: open.reduce((sum, f) => sum + severityWeights[f.severity]! * (f.is_kev ? 5 : 1), 0),
  };
}

/** Days to remediate by severity under the default deadlines, and for KEV when sooner: written out, as the risk weights are. */
const defaultDeadlineDays: Record<string, number | null> = { critical: 15, high: 30, medium: 90, low: 180, info: null };
const defaultKevDays = 14;

/** A finding's due date under the default deadlines, as an ISO instant; null for none. */
export function defaultDueAt(finding: { severity: string; is_kev: boolean; first_detected_at: string }): string | null {
  const bySeverity = defaultDeadlineDays[finding.severity]!;
  const days = finding.is_kev ? Math.min(bySeverity ?? Infinity, defaultKevDays) : bySeverity;
  return days === null ? null : new Date(Date.parse(finding.first_detected_at) + days * 86_400_000).toISOString();
}

/**
 * An open finding's fix-by date with no intelligence imported and no tag set, written out: its
 * Automatable and Technical impact unknown count as yes and total (the shorter timeline), so BOD
 * 26-04 gives 3 days & forensic investigation in KEV, else 3 days for a finding that names no
 * endpoint (exposure unknown, counted as yes) and 60 days for one that does (no exposure tag);
 * counted in calendar days from the day of first detection. Null when not open.
 */
export function defaultFixBy(finding: { status: string; is_kev: boolean; first_detected_at: string; endpoint_id: string | null }): string | null {
  if (finding.status !== 'open') return null;
  const days = finding.is_kev || finding.endpoint_id === null ? 3 : 60;
  return new Date(Date.parse(`${new Date(finding.first_detected_at).toISOString().slice(0, 10)}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The endpoints and findings of an inventory with the console's own fields that do not depend
 * on the clock, computed here from the inventory: an endpoint's exposure ({@link exposureOf}) and
 * earliest fix-by date, a finding's hostname, target, due date under the default deadlines and fix-by date.
 */
export function withConsoleFields(inventory: Inventory) {
  const endpoints = inventory.endpoints.map((endpoint) => {
    const open = inventory.findings.filter((f) => f.endpoint_id === endpoint.id && f.status === 'open');
    const exposure = exposureOf(open);
    // The earliest fix-by date of its open findings (none is fix on system upgrade without intelligence).
    const fixBy = open.map(defaultFixBy).sort()[0] ?? null;
    // No exception: nothing is left out.
    return { ...endpoint, ...exposure, excepted_open_findings: 0, risk_score_before_exceptions: exposure.risk_score, fix_by: fixBy };
  });
  const findings = inventory.findings.map((finding) => {
    const target = inventory.remediationTargets.find((t) => t.id === finding.remediation_target_id);
    const endpoint = inventory.endpoints.find((e) => e.id === finding.endpoint_id);
    return {
      ...finding,
      endpoint_hostname: endpoint?.hostname ?? null,
      endpoint_os_family: endpoint?.operating_system.family ?? null,
      endpoint_has_agent: endpoint ? endpoint.agent_id !== null : null,
      target_product: target?.product ?? null,
      target_version: target?.version ?? null,
      exception: null,
      due_at: defaultDueAt(finding),
      fix_by: defaultFixBy(finding),
    };
  });
  return { endpoints, findings };
}

/** Every sort parameter of a collection's list, both directions. */
export function sortParameters(collection: CollectionName): string[] {
  return collections[collection].sortKeys.flatMap((key: string) => [key, `-${key}`]);
}

/** Whether a finding of `inventory` matches the findings' free text `q` (CVE id, title, or endpoint hostname). */
export function findingMatchesText(inventory: Inventory, finding: Inventory['findings'][number], q: string): boolean {
  const text = q.toLowerCase();
  const hostname = inventory.endpoints.find((e) => e.id === finding.endpoint_id)?.hostname ?? '';
  return [finding.cve_id, finding.title, hostname].some((field) => field.toLowerCase().includes(text));
}
