/**
 * The figures of one organization's section of a report, read from the store's own figures: the
 * findings list's totals for the counts (what the console's list shows with the same filters),
 * the remediation performance, the plan, the exceptions, the sync records and the imports. None
 * is computed a second way here.
 */
import type { ConsoleQuery } from '../../contracts/collections.js';
import { type ReportDelta, type ReportFinding, type ReportSection, reportListLength } from '../../contracts/console/reports.js';
import { findingSeverities } from '../../contracts/enums.js';
import { slaPolicyKeys } from '../../contracts/remediation-deadlines.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import { type SectionFindings, idSet, idsNotIn, pause } from './report-findings.js';
import { type ReportFilter, findingsQuery } from './report-filter.js';

/**
 * Every id of the findings list with this query, in its order; none for a query that keeps
 * nothing. A chunk's read is synchronous SQL, and on figures already computed the list's
 * generator never waits on anything but promises: the pause after each chunk lets `/health`
 * and other requests answer meanwhile (without it, 200,000 ids held the thread 3.8 s).
 */
async function allIds(store: Store, orgRowId: number, query: ConsoleQuery<'findings'> | undefined, asOf: number): Promise<string[]> {
  const ids: string[] = [];
  if (!query) return ids;
  for await (const chunk of store.console.listAllIds(orgRowId, 'findings', query, asOf, 5_000)) {
    for (const id of chunk) ids.push(id);
    await pause();
  }
  return ids;
}

/** The findings list's total with this query; 0 for a query that keeps nothing. */
async function total(store: Store, orgRowId: number, query: ConsoleQuery<'findings'> | undefined, asOf: number): Promise<number> {
  return query ? (await store.console.listIds(orgRowId, 'findings', query, asOf)).total : 0;
}

/** The findings of these ids as a report names them, those the replica still holds (others by id alone). */
async function reportFindings(store: Store, orgRowId: number, ids: readonly string[], asOf: number): Promise<ReportFinding[]> {
  const shown = ids.slice(0, reportListLength.deltaFindings);
  const items = new Map(
    (await store.consoleItems.get('findings', orgRowId, shown, asOf)).map((json) => {
      const item = JSON.parse(json) as { id: string; cve_id: string; severity: string; endpoint_hostname: string | null };
      return [item.id, item] as const;
    }),
  );
  return shown.map((id) => {
    const item = items.get(id);
    return { id, cve_id: item?.cve_id ?? null, severity: item?.severity ?? null, endpoint_hostname: item?.endpoint_hostname ?? null };
  });
}

/** An exception's scope in words. */
function scopeText(scope: { kind: string; cve_id?: string; endpoint_ids?: string[]; finding_id?: string }): string {
  if (scope.kind === 'finding') return `finding ${scope.finding_id}`;
  if (scope.kind === 'cve_on_endpoints') return `${scope.cve_id} on ${scope.endpoint_ids!.length} endpoint(s)`;
  return `${scope.cve_id} on every endpoint`;
}

/** The one sentence of posture. */
function postureSentence(section: Pick<ReportSection, 'counts' | 'performance'>, delta: ReportDelta | null): string {
  const { counts, performance } = section;
  const parts = [
    `${counts.open} open finding${counts.open === 1 ? '' : 's'} (${counts.open_by_severity.critical} critical, ${counts.open_kev} known exploited)`,
    `${counts.overdue} overdue`,
  ];
  if (performance.share_in_time !== null) parts.push(`${Math.round(performance.share_in_time * 100)} % of remediated findings with a deadline were remediated in time`);
  const change = delta ? `; since the previous report, ${delta.fixed.count} fixed and ${delta.appeared.count} appeared` : '';
  return `${parts.join(', ')}${change}.`;
}

/** The previous report of the same filter: its id, when it was made, and the open findings its section of the organization counted. */
export interface PreviousSection {
  id: string;
  created_at: string;
  findings: SectionFindings;
}

/**
 * The section of `organization` for `filter`, at `asOf` (the deadlines' instant), with the
 * delta against `previous` when there is one; and the open findings it counted, for the next.
 */
export async function reportSection(
  store: Store,
  organization: Organization,
  filter: ReportFilter,
  asOf: number,
  previous: PreviousSection | undefined,
): Promise<{ section: ReportSection; findings: SectionFindings }> {
  const org = organization.rowId;
  const withFilter = (more: Record<string, string>) => findingsQuery(filter.text, more);
  // In the stored order: no order of the whole organization is computed for sets of ids.
  const open = await allIds(store, org, withFilter({ status: 'open', sort: 'created_at' }), asOf);
  const kev = await allIds(store, org, withFilter({ status: 'open', isKev: 'true', sort: 'created_at' }), asOf);
  const overdue = await allIds(store, org, withFilter({ overdue: 'true', sort: 'created_at' }), asOf);
  const bySeverity = Object.fromEntries(
    await Promise.all(findingSeverities.map(async (severity) => [severity, await total(store, org, withFilter({ status: 'open', severity }), asOf)] as const)),
  ) as ReportSection['counts']['open_by_severity'];
  const epssImported = store.intel.list().some((record) => record.kind === 'epss' && record.current && record.finished);
  const threshold = store.intel.changes.settings().epss_threshold;
  const highEpss = epssImported ? { threshold, count: await total(store, org, withFilter({ status: 'open', epssMin: String(threshold) }), asOf) } : null;

  const performance = await store.deadlines.performance(org, asOf, filter.selection);
  const plan = await store.software.plan(org, filter.selection);
  const exceptions = await store.exceptions.list(org, 'active');
  const sync = store.sync.get(org);

  const counts = { open: open.length, open_by_severity: bySeverity, open_kev: kev.length, open_high_epss: highEpss, overdue: overdue.length };
  const performanceFigures = {
    deadline_policy: performance.deadline_policy,
    policy_days: Object.fromEntries(slaPolicyKeys.map((key) => [key, performance.policy[key]])),
    remediated_with_deadline: performance.totals.remediated_with_deadline,
    remediated_in_time: performance.totals.remediated_in_time,
    share_in_time: performance.totals.share_in_time,
    median_days_to_remediate: performance.totals.median_days_to_remediate,
    monthly: performance.monthly.map(({ month, open_at_end, overdue_at_end }) => ({ month, open_at_end, overdue_at_end })),
  };
  const delta = previous ? await reportDelta(store, org, asOf, { open, kev, overdue }, previous) : null;
  const section: ReportSection = {
    organization: { id: organization.id, slug: organization.slug, name: organization.name, kind: organization.kind },
    posture: postureSentence({ counts, performance: performanceFigures }, delta),
    counts,
    performance: performanceFigures,
    plan: {
      open_critical_or_kev: plan.open_critical_or_kev,
      steps: plan.steps
        .slice(0, reportListLength.planSteps)
        .map(({ vendor, product, closes, endpoints, cumulative_share }) => ({ vendor, product, closes, endpoints, cumulative_share })),
      milestones: plan.milestones.map((milestone) => milestone.sentence),
    },
    accepted_risks: exceptions.slice(0, reportListLength.exceptions).map((exception) => ({
      id: exception.id,
      reason: exception.reason,
      scope: scopeText(exception.scope),
      expires_at: exception.expires_at,
      open_findings: exception.open_findings,
    })),
    accepted_risks_total: exceptions.length,
    provenance: {
      last_synced_at: sync.lastSuccessAt,
      last_matched_at: sync.lastMatchedAt,
      intelligence: store.intel
        .list()
        .filter((record) => record.current && record.finished)
        .map(({ kind, source_date, version, sha256 }) => ({ kind, source_date, version, sha256 })),
    },
    delta,
  };
  return { section, findings: { open, kev, overdue } };
}

/** What changed since `previous`, from its stored ids and today's. */
async function reportDelta(
  store: Store,
  org: number,
  asOf: number,
  now: SectionFindings,
  previous: PreviousSection,
): Promise<ReportDelta> {
  const then = previous.findings;
  const list = async (ids: string[]) => ({ count: ids.length, findings: await reportFindings(store, org, ids, asOf) });
  /** The ids in `now` that are not in `then`, in slices with pauses. */
  const notIn = async (now: readonly string[], then: readonly string[]) => idsNotIn(now, await idSet(then));
  return {
    previous_report_id: previous.id,
    previous_created_at: previous.created_at,
    fixed: await list(await notIn(then.open, now.open)),
    appeared: await list(await notIn(now.open, then.open)),
    newly_kev: await list(await notIn(now.kev, then.kev)),
    newly_overdue: await list(await notIn(now.overdue, then.overdue)),
  };
}
