import type { Dashboard } from '../../../contracts/console/dashboard.js';
import { findingSeverities, findingStatuses, osFamilies } from '../../../contracts/enums.js';
import { type EndpointContextSource, type EndpointSelection, endpointTest, selectedEndpointKeys, selectionKey, selects } from '../basics/endpoint-selection.js';
import type { CoverageColumns } from '../basics/coverage-columns.js';
import type { Database } from '../engine/database.js';
import { type ChangeVersions, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { inventoryOf } from '../basics/inventory-ids.js';
import { compareSqlValues } from '../derived/sql-value-order.js';
import type { ScopeCoverage } from './scope-coverage.js';
import { TimeSlices } from '../derived/time-slices.js';

// The values this file keeps, by name and the kinds of change they are read from (derived/change-kinds.ts).
const dashboards = derivedValue('dashboards', ['inventory']);
const selectedDashboards = derivedValue('dashboards of a selection', ['inventory', 'endpoint-context']);

const open = findingStatuses.indexOf('open');
/** Findings counted between two looks at the clock. */
const findingsBetweenPauses = 65_536;
/** Endpoints whose remediation targets one statement counts: some ten each, a few milliseconds of SQL. */
const endpointsPerCount = 512;
const remediated = findingStatuses.indexOf('remediated');

/**
 * The dashboard of an organization. The finding aggregates are counted over the coverage columns
 * (server/store/coverage-columns.ts), which are read in chunks that leave other requests
 * answered and are shared with scope coverage, and counted in slices likewise: a few passes of
 * SQL over a million findings held the event loop for seconds at every first view after a write. Endpoints, targets and scopes
 * are counted in SQL: they are few, or counted along an index.
 */
export class DashboardAggregates {
  /** Dashboards by organization, of all its endpoints: they read no context. Bound: 1,000 organizations, a few kilobytes each. */
  private readonly dashboards: DerivedCache<Dashboard>;
  /** Dashboards of a selection by tag or criticality, which context writes change. Bound: as many. */
  private readonly selectedDashboards: DerivedCache<Dashboard>;

  constructor(
    private readonly db: Database,
    versions: ChangeVersions,
    private readonly coverage: ScopeCoverage,
    /** Endpoints' tags and criticality: a dashboard of a tag or a criticality depends on its writes. */
    private readonly context: EndpointContextSource,
  ) {
    this.dashboards = new DerivedCache(versions, dashboards, { bound: { entries: 1_000 } });
    this.selectedDashboards = new DerivedCache(versions, selectedDashboards, { bound: { entries: 1_000 } });
  }

  /**
   * The dashboard of an organization, kept until the next write; with `selection`, of the
   * endpoints it keeps (by tag or criticality), their targets and their findings.
   */
  dashboard(orgRowId: number, selection?: EndpointSelection): Promise<Dashboard> {
    const cache = selects(selection) ? this.selectedDashboards : this.dashboards;
    return cache.settled(`${orgRowId}|${selectionKey(selection)}`, async (checkpoint) => {
      const context = selects(selection) ? await this.context(orgRowId) : undefined;
      const columns = await this.coverage.currentColumns(orgRowId);
      // The context and the columns are of the version this computation started at; each pause
      // below checks that it still is, so the SQL counts at the end and the columns are of one version.
      checkpoint();
      const kept = context && selects(selection) ? { test: endpointTest(context, selection), keys: selectedEndpointKeys(columns.endpoints, context, selection) } : undefined;
      return this.compute(orgRowId, columns, kept, new TimeSlices(checkpoint));
    });
  }

  private async compute(
    orgRowId: number,
    columns: CoverageColumns,
    kept: { test: (endpointId: string) => boolean; keys: Uint8Array } | undefined,
    slices: TimeSlices,
  ): Promise<Dashboard> {
    const inventoryId = inventoryOf(this.db, orgRowId);
    const severities = findingSeverities.length;
    let findings = 0;
    const bySeverityStatus = new Float64Array(severities * findingStatuses.length);
    let openKev = 0;
    const openByTarget = new Float64Array(columns.targetKind.length);
    const byMonthSeverity = new Map<number, Float64Array>();
    for (let i = 0; i < columns.count; i++) {
      if (i % findingsBetweenPauses === 0) await slices.pause();
      if (kept && kept.keys[columns.endpoint[i]!] !== 1) continue;
      findings++;
      const severity = columns.severity[i]!;
      const status = columns.status[i]!;
      bySeverityStatus[status * severities + severity]!++;
      if (status === open) {
        if (columns.kev[i]) openKev++;
        const target = columns.target[i]!;
        if (target >= 0) openByTarget[target]!++;
      }
      const month = columns.firstDetectedMonth[i]!;
      let counts = byMonthSeverity.get(month);
      if (!counts) byMonthSeverity.set(month, (counts = new Float64Array(severities)));
      counts[severity]!++;
    }
    const countOf = (severity: number, status: number) => bySeverityStatus[status * severities + severity]!;
    const selectedEndpoints = kept && this.selectedEndpoints(orgRowId, kept.test);
    const byOsAgent = selectedEndpoints
      ? selectedEndpoints.map(({ os_family, has_agent }) => ({ os_family, has_agent, n: 1 }))
      : this.db.all<{ os_family: string; has_agent: number; n: number }>(
          'SELECT os_family, has_agent, count(*) AS n FROM endpoints WHERE org_id = ? GROUP BY os_family, has_agent',
          [inventoryId],
        );
    const endpointsOf = (predicate: (row: { os_family: string; has_agent: number }) => boolean) =>
      byOsAgent.filter(predicate).reduce((sum, row) => sum + row.n, 0);
    const count = (sql: string) => Number(this.db.value(sql, [inventoryId]));
    const remediationTargets = selectedEndpoints
      ? await this.selectedTargets(inventoryId, selectedEndpoints, slices)
      : count('SELECT count(*) FROM remediation_targets WHERE org_id = ?');

    return {
      totals: {
        endpoints: endpointsOf(() => true),
        remediationTargets,
        findings,
        openFindings: findingSeverities.reduce((sum, _severity, severity) => sum + countOf(severity, open), 0),
        openKevFindings: openKev,
        scopes: count('SELECT count(*) FROM scopes WHERE org_id = ?'),
      },
      findingsBySeverity: findingSeverities.map((severity, index) => ({
        severity,
        open: countOf(index, open),
        remediated: countOf(index, remediated),
      })),
      endpointsByOsFamily: osFamilies
        .map((family) => ({ family, count: endpointsOf((row) => row.os_family === family) }))
        .filter((entry) => entry.count > 0),
      agentCoverage: { withAgent: endpointsOf((row) => row.has_agent === 1), withoutAgent: endpointsOf((row) => row.has_agent === 0) },
      topVulnerableProducts: topProducts(columns, openByTarget),
      findingsOverTime: [...byMonthSeverity.keys()]
        .sort((a, b) => a - b)
        .map((month) => {
          const counts = byMonthSeverity.get(month)!;
          const entry = { month: `${String(Math.floor(month / 12)).padStart(4, '0')}-${String((month % 12) + 1).padStart(2, '0')}`, critical: 0, high: 0, medium: 0, low: 0, info: 0 };
          findingSeverities.forEach((severity, index) => (entry[severity] = counts[index]!));
          return entry;
        }),
    };
  }

  /** The endpoints a selection keeps (`selected`) with their OS family and agent: a few thousand, read as one JSON array. */
  private selectedEndpoints(orgRowId: number, selected: (endpointId: string) => boolean): { id: string; os_family: string; has_agent: number }[] {
    const rows = this.db.value('SELECT json_group_array(json_array(id, os_family, has_agent)) FROM endpoints WHERE org_id = ?', [inventoryOf(this.db, orgRowId)]);
    return (JSON.parse(String(rows)) as [string, string, number][]).flatMap(([id, os_family, has_agent]) => (selected(id) ? [{ id, os_family, has_agent }] : []));
  }

  /**
   * The remediation targets of `endpoints`, counted along the (org_id, endpoint_id) index
   * {@link endpointsPerCount} endpoints per statement, pausing as `slices` says between them.
   */
  private async selectedTargets(inventoryId: number, endpoints: { id: string }[], slices: TimeSlices): Promise<number> {
    // CROSS JOIN keeps the listed endpoints the outer loop: each one's targets by the index.
    const sql = 'SELECT count(*) FROM json_each(?) AS listed CROSS JOIN remediation_targets x ON x.org_id = ? AND x.endpoint_id = listed.value';
    let count = 0;
    for (let start = 0; start < endpoints.length; start += endpointsPerCount) {
      const ids = endpoints.slice(start, start + endpointsPerCount).map(({ id }) => id);
      count += Number(this.db.value(sql, [JSON.stringify(ids), inventoryId]));
      await slices.pause();
    }
    return count;
  }
}

/** The ten products with the most open findings, over the targets the replica holds. */
function topProducts(columns: CoverageColumns, openByTarget: Float64Array): Dashboard['topVulnerableProducts'] {
  // Summed by kind first (about a thousand, against hundreds of thousands of targets), then by
  // the product the kinds name.
  const kindCount = columns.kinds.product.length;
  const openByKind = new Float64Array(kindCount);
  const targetsByKind = new Float64Array(kindCount);
  for (let target = 0; target < openByTarget.length; target++) {
    const openFindings = openByTarget[target]!;
    if (openFindings === 0) continue;
    const kind = columns.targetKind[target]!;
    openByKind[kind]! += openFindings;
    targetsByKind[kind]!++;
  }
  const products = new Map<string, Dashboard['topVulnerableProducts'][number]>();
  for (let kind = 0; kind < kindCount; kind++) {
    if (targetsByKind[kind] === 0) continue;
    const product = columns.kinds.product[kind] ?? null;
    // A target the replica does not hold has a kind of nulls: it names no product.
    if (product === null) continue;
    const vendor = columns.kinds.vendor[kind] ?? null;
    const key = JSON.stringify([vendor, product]);
    const entry = products.get(key) ?? { vendor, product, openFindings: 0, remediationTargets: 0 };
    entry.openFindings += openByKind[kind]!;
    entry.remediationTargets += targetsByKind[kind]!;
    products.set(key, entry);
  }
  return [...products.values()]
    .sort((a, b) => b.openFindings - a.openFindings || compareSqlValues(a.vendor, b.vendor) || compareSqlValues(a.product, b.product))
    .slice(0, 10);
}
