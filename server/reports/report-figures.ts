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
import type { TimeSlices } from '../store/derived/time-slices.js';
import { type SectionFindings, idsAt, idsBetweenLooks, marks, reportSlices } from './report-findings.js';
import { type ReportFilter, findingsQuery } from './report-filter.js';
import { type RecordedSync, type SyncSpan, syncDeltaIds, syncInstant } from './sync-delta.js';

/** Rows a chunk of a list reads (its seqs, then the open ones' ids): a few milliseconds of SQL. */
const rowsPerRead = 2_048;

/**
 * Each chunk of the seqs of the findings list with this query, in its order, given to `each` as
 * it is read; none for a query that keeps nothing. A chunk's read is synchronous SQL, and on
 * figures already computed the list's generator never waits on anything but promises: the
 * slices' pauses let `/health` and other requests answer meanwhile (without them, 200,000 ids
 * held the thread 3.8 s).
 */
async function eachSeqChunk(
  store: Store,
  orgRowId: number,
  query: ConsoleQuery<'findings'> | undefined,
  asOf: number,
  slices: TimeSlices,
  each: (chunk: number[]) => void | Promise<void>,
): Promise<void> {
  if (!query) return;
  for await (const chunk of store.console.listAllSeqs(orgRowId, 'findings', query, asOf, rowsPerRead)) {
    await each(chunk);
    await slices.pause();
  }
}

/** Every seq of the findings list with this query, in its order (see {@link eachSeqChunk}). */
async function allSeqs(store: Store, orgRowId: number, query: ConsoleQuery<'findings'> | undefined, asOf: number, slices: TimeSlices): Promise<number[]> {
  const seqs: number[] = [];
  await eachSeqChunk(store, orgRowId, query, asOf, slices, (chunk) => {
    for (const seq of chunk) seqs.push(seq);
  });
  return seqs;
}

/**
 * The open findings of a section: the ids of the open ones, read with their seqs (in the same
 * turn, so of the same rows), and the KEV and overdue ones found among them by seq, in the seq
 * order of the lists. Counted by seq, as lists of numbers: no set of a million ids is built.
 */
async function sectionFindings(
  store: Store,
  orgRowId: number,
  queries: Record<'open' | 'kev', ConsoleQuery<'findings'> | undefined>,
  asOf: number,
): Promise<{ findings: SectionFindings; openSeqs: number[]; kevCount: number; overdueCount: number }> {
  const slices = reportSlices();
  const openSeqs: number[] = [];
  const open: string[] = [];
  // Only the open ones' seqs and ids are kept: the list's million seqs are not gathered a second time.
  await eachSeqChunk(store, orgRowId, queries.open, asOf, slices, (chunk) => {
    const ids = store.console.idsOfSeqs('findings', chunk);
    chunk.forEach((seq, i) => {
      if (ids[i] === undefined) return;
      openSeqs.push(seq);
      open.push(ids[i]);
    });
  });
  const kevSeqs = await allSeqs(store, orgRowId, queries.kev, asOf, slices);
  // The overdue list is the open list (the filter, status=open) narrowed to the overdue rows, and
  // its order (created_at, the seq order) is theirs: the overdue rows, among the open ones, in
  // order. Listed as a list of its own, its order was sorted again at each minute (1.1-1.5 s).
  const overdueSeqs = queries.open ? await store.console.overdueFindingSeqs(orgRowId, asOf) : new Int32Array(0);
  // A million open findings on `large`: the index, its look-ups and the lists, each with pauses
  // (in one go they held the thread 95 ms of CPU, 210 ms at load 9).
  const indexOf = await seqIndex(openSeqs, slices);
  const kevAt = await indexOf(kevSeqs);
  const overdueAt = await indexOf(overdueSeqs);
  const findings = { open, kev: await idsAt(open, kevAt, slices), overdue: await idsAt(open, overdueAt, slices), kevAt, overdueAt };
  return { findings, openSeqs, kevCount: kevSeqs.length, overdueCount: overdueAt.length };
}

/**
 * Looks seqs up among `seqs` by a dense array over their range, built and read with `slices`'
 * pauses: the index in `seqs` of each of `wanted` found, in the order of `wanted`.
 */
async function seqIndex(seqs: readonly number[], slices: TimeSlices): Promise<(wanted: ArrayLike<number>) => Promise<Int32Array>> {
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < seqs.length; i++) {
    if (seqs[i]! < first) first = seqs[i]!;
    if (seqs[i]! > last) last = seqs[i]!;
    if (i % idsBetweenLooks === 0) await slices.pause();
  }
  const indexBySeq = new Int32Array(seqs.length ? last - first + 1 : 0).fill(-1);
  for (let i = 0; i < seqs.length; i++) {
    indexBySeq[seqs[i]! - first] = i;
    if (i % idsBetweenLooks === 0) await slices.pause();
  }
  return async (wanted) => {
    const found = new Int32Array(wanted.length);
    let count = 0;
    for (let i = 0; i < wanted.length; i++) {
      const index = indexBySeq[wanted[i]! - first] ?? -1;
      if (index >= 0) found[count++] = index;
      if (i % idsBetweenLooks === 0) await slices.pause();
    }
    return found.slice(0, count);
  };
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
  const change = delta ? `; ${delta.syncs ? 'between the two syncs compared' : 'since the previous report'}, ${delta.fixed.count} fixed and ${delta.appeared.count} appeared` : '';
  return `${parts.join(', ')}${change}.`;
}

/** The previous report of the same filter: its id, when it was made, and the open findings its section of the organization counted. */
export interface PreviousSection {
  id: string;
  created_at: string;
  findings: SectionFindings;
}

/** What a section's delta compares: the previous report of the same filter, or two syncs of the organization. */
export type DeltaBase = { previousReport: PreviousSection } | { syncs: SyncSpan };

/**
 * The section of `organization` for `filter`, at `asOf` (the deadlines' instant), with the
 * delta against `base` when there is one; and the open findings it counted, for the next.
 */
export async function reportSection(
  store: Store,
  organization: Organization,
  filter: ReportFilter,
  asOf: number,
  base: DeltaBase | undefined,
): Promise<{ section: ReportSection; findings: SectionFindings }> {
  const org = organization.rowId;
  const withFilter = (more: Record<string, string>) => findingsQuery(filter.text, more);
  // In the stored order: no order of the whole organization is computed for sets of ids.
  const { findings, openSeqs, kevCount, overdueCount } = await sectionFindings(
    store,
    org,
    {
      open: withFilter({ status: 'open', sort: 'created_at' }),
      kev: withFilter({ status: 'open', isKev: 'true', sort: 'created_at' }),
    },
    asOf,
  );
  // One count after the other: counted side by side, their slices ran one after another in the same turn (a wait of 108 ms).
  const bySeverity = {} as ReportSection['counts']['open_by_severity'];
  for (const severity of findingSeverities) bySeverity[severity] = await total(store, org, withFilter({ status: 'open', severity }), asOf);
  const epssImported = store.intel.list().some((record) => record.kind === 'epss' && record.current && record.finished);
  const threshold = store.intel.changes.settings().epss_threshold;
  const highEpss = epssImported ? { threshold, count: await total(store, org, withFilter({ status: 'open', epssMin: String(threshold) }), asOf) } : null;

  const performance = await store.deadlines.performance(org, asOf, filter.selection);
  const plan = await store.software.plan(org, filter.selection);
  const exceptions = await store.exceptions.list(org, 'active');
  const sync = store.sync.get(org);

  const counts = { open: findings.open.length, open_by_severity: bySeverity, open_kev: kevCount, open_high_epss: highEpss, overdue: overdueCount };
  const performanceFigures = {
    deadline_policy: performance.deadline_policy,
    policy_days: Object.fromEntries(slaPolicyKeys.map((key) => [key, performance.policy[key]])),
    remediated_with_deadline: performance.totals.remediated_with_deadline,
    remediated_in_time: performance.totals.remediated_in_time,
    share_in_time: performance.totals.share_in_time,
    median_days_to_remediate: performance.totals.median_days_to_remediate,
    monthly: performance.monthly.map(({ month, open_at_end, overdue_at_end }) => ({ month, open_at_end, overdue_at_end })),
  };
  const delta =
    base === undefined
      ? null
      : 'previousReport' in base
        ? await reportDelta(store, org, asOf, findings, base.previousReport)
        : await syncsDelta(store, org, filter, asOf, { findings, openSeqs }, base.syncs);
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
  return { section, findings };
}

/**
 * What changed since `previous`, from its stored ids and today's: each of today's open findings
 * found among the previous ones, by position while both lists hold the same ids (no sync
 * between the two reports), then by a map of the previous ones' ids from where they differ. Each
 * list in the order of the list it is taken from, as the sets' differences.
 */
async function reportDelta(store: Store, org: number, asOf: number, now: SectionFindings, previous: PreviousSection): Promise<ReportDelta> {
  const then = previous.findings;
  const slices = reportSlices();
  let same = 0;
  while (same < now.open.length && same < then.open.length && now.open[same] === then.open[same]) {
    if (++same % idsBetweenLooks === 0) await slices.pause();
  }
  const thenIndex = new Map<string, number>();
  for (let i = same; i < then.open.length; i++) {
    thenIndex.set(then.open[i]!, i);
    if (i % idsBetweenLooks === 0) await slices.pause();
  }
  // The index in `then.open` of each of today's open findings, -1 for one that appeared.
  const thenAt = new Int32Array(now.open.length);
  const kept = new Uint8Array(then.open.length).fill(1, 0, same);
  const appeared: string[] = [];
  for (let i = 0; i < now.open.length; i++) {
    const index = i < same ? i : (thenIndex.get(now.open[i]!) ?? -1);
    thenAt[i] = index;
    if (index >= 0) kept[index] = 1;
    else appeared.push(now.open[i]!);
    if (i % idsBetweenLooks === 0) await slices.pause();
  }
  const fixed: string[] = [];
  for (let i = same; i < then.open.length; i++) {
    if (kept[i] !== 1) fixed.push(then.open[i]!);
    if (i % idsBetweenLooks === 0) await slices.pause();
  }
  /** Today's findings at `at` (indexes in `now.open`) that were not open, or not among `marked`, then. */
  const newly = async (at: Int32Array, marked: Int32Array) => {
    const wasMarked = marks(then.open.length, marked);
    const ids: string[] = [];
    for (let i = 0; i < at.length; i++) {
      const index = thenAt[at[i]!]!;
      if (index < 0 || wasMarked[index] !== 1) ids.push(now.open[at[i]!]!);
      if (i % idsBetweenLooks === 0) await slices.pause();
    }
    return ids;
  };
  const list = deltaList(store, org, asOf);
  return {
    previous_report_id: previous.id,
    previous_created_at: previous.created_at,
    fixed: await list(fixed),
    appeared: await list(appeared),
    newly_kev: await list(await newly(now.kevAt, then.kevAt)),
    newly_overdue: await list(await newly(now.overdueAt, then.overdueAt)),
  };
}

/** A list of a delta: its count, and the first of its findings named. */
const deltaList = (store: Store, org: number, asOf: number) => async (ids: string[]) => ({ count: ids.length, findings: await reportFindings(store, org, ids, asOf) });

/**
 * What changed between two syncs of the organization, under the filter (sync-delta.ts): the
 * overdue findings at each sync's instant found among today's open ones by seq, and the findings
 * not open now checked against the filter by their seqs among the filter's (any status).
 */
async function syncsDelta(
  store: Store,
  org: number,
  filter: ReportFilter,
  asOf: number,
  now: { findings: SectionFindings; openSeqs: number[] },
  span: SyncSpan,
): Promise<ReportDelta> {
  const slices = reportSlices();
  const indexOf = await seqIndex(now.openSeqs, slices);
  const overdueAt = async (sync: RecordedSync) => indexOf(now.openSeqs.length ? await store.console.overdueFindingSeqs(org, syncInstant(sync)) : []);
  const matching = async (ids: string[]): Promise<Set<string>> => {
    if (filter.text === '') return new Set(ids);
    const seqs: { id: string; seq: number }[] = [];
    for (let from = 0; from < ids.length; from += rowsPerRead) {
      for (const [id, seq] of store.console.findingSeqsOfIds(org, ids.slice(from, from + rowsPerRead))) seqs.push({ id, seq });
      await slices.pause();
    }
    const taken = new Set<string>();
    if (seqs.length === 0) return taken;
    // The filter's findings in any status, found among these by seq chunk by chunk.
    const candidateAt = await seqIndex(seqs.map(({ seq }) => seq), slices);
    await eachSeqChunk(store, org, findingsQuery(filter.text, { sort: 'created_at' }), asOf, slices, async (chunk) => {
      for (const index of await candidateAt(chunk)) taken.add(seqs[index]!.id);
    });
    return taken;
  };
  const ids = await syncDeltaIds(store, span, {
    now: now.findings,
    overdueAtFrom: await overdueAt(span.from),
    overdueAtUntil: await overdueAt(span.until),
    matching,
  });
  const list = deltaList(store, org, asOf);
  return {
    previous_report_id: null,
    previous_created_at: null,
    syncs: { from: { id: span.from.id, finished_at: span.from.finishedAt }, until: { id: span.until.id, finished_at: span.until.finishedAt } },
    fixed: await list(ids.fixed),
    appeared: await list(ids.appeared),
    newly_kev: await list(ids.newlyKev),
    newly_overdue: await list(ids.newlyOverdue),
  };
}
