import type { SqlValue } from 'sql.js';
import type { RemediationPerformance } from '../../../contracts/console/deadlines.js';
import { type FindingSeverity, findingStatuses } from '../../../contracts/enums.js';
import { dueAtMs, wholeDays } from '../../../contracts/remediation-deadlines.js';
import { fixByDueMs } from '../../../contracts/fix-by.js';
import { type FixByFigures, fixByColumns } from '../ssvc/fix-by-figures.js';
import type { EffectiveEndpointContext } from '../basics/effective-endpoint-context.js';
import { type EndpointContextSource, type EndpointSelection, endpointTest, selectedEndpointKeys, selectionKey, selects } from '../basics/endpoint-selection.js';
import { type CoverageColumns, type EndpointColumns, coverageColumns } from '../basics/coverage-columns.js';
import type { Database } from '../engine/database.js';
import { type ChangeVersions, type RecordWrite, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { type ExceptedFindings, type ExceptedFindingsSource, exceptedFindings } from '../basics/excepted-findings.js';
import { onOneVersion } from '../derived/one-version.js';
import type { CoverageColumnSource } from '../exposure/exposure-figures.js';
import { type FindingTimeline, type FindingTimelines, findingTimelines } from '../basics/finding-timeline.js';
import { type ShownInventory, checkStillShown } from '../basics/inventory-ids.js';
import { type DueTimes, type PerformanceEndpoints, deadlineTable, remediationPerformance } from './remediation-performance.js';
import { SlaPolicies } from './sla-policies.js';
import type { FigureSort } from '../inventory/sorted-orders.js';
import { TimeSlices } from '../derived/time-slices.js';

// The values this file keeps, by name and the kinds of change they are read from (derived/change-kinds.ts).
const remediationPerformanceAnswers = derivedValue('remediation performance', ['inventory', 'endpoint-context']);
const overdueFindings = derivedValue('overdue findings', ['inventory']);

/** What a finding's deadline fields are computed from, as its row holds them (collection-tables.ts, `consoleFacts`). */
export interface FindingDeadlineFacts {
  seq: number;
  severity: FindingSeverity;
  is_kev: number;
  status: string;
  first_detected_at: string;
  remediated_at: string | null;
  endpoint_id: string | null;
  cve_id: string;
}

/**
 * An organization's deadline rule now: its deadline policy and days per severity, and the key
 * of what its due dates depend on. Under `bod-26-04` and `kev-due-date` that is the fix-by
 * dates' inputs too, named by their settings and version (what a value kept under the data's
 * version alone follows them by).
 */
export interface DeadlineRule {
  deadlinePolicy: DueTimes['deadlinePolicy'];
  policy: DueTimes['policy'];
  key: string;
}

const open = findingStatuses.indexOf('open');
/** Findings tested between two looks at the clock. */
const findingsBetweenLooks = 65_536;
/** Tagged endpoints looked at between two looks at the clock. */
const endpointsBetweenLooks = 4_096;
const minuteMs = 60_000;
const dayMs = 86_400_000;

/**
 * Deadlines, ages and remediation performance (contracts/remediation-deadlines.ts) of each
 * organization: its policy (a local record, kept across syncs), the findings' timeline (read
 * once per version of the data, beside the coverage columns it is indexed like), and what is
 * derived from them at an instant, `asOf`: now to the minute, so that the answers of one
 * minute are computed once, and a list's filter, its items and the counts agree.
 *
 * Every cache of a value that depends on the policy or the exceptions has their keys in its
 * own: both are records written without changing the data's version.
 */
export class DeadlineFigures {
  readonly policies: SlaPolicies;
  /** Performance answers by organization, policy, minute and exceptions. Bound: 64, a few kilobytes each. */
  private readonly answers: DerivedCache<RemediationPerformance>;
  /** Overdue findings' seqs by organization, policy, minute and exceptions. Bound: 4M seqs (16 MB). */
  private readonly overdueSets: DerivedCache<Int32Array>;

  constructor(
    private readonly db: Database,
    private readonly versions: ChangeVersions,
    private readonly coverage: CoverageColumnSource,
    private readonly excepted: ExceptedFindingsSource,
    private readonly now: () => number,
    /** Endpoints' tags and criticality: the answers (per tag, of a selection) depend on its writes. */
    private readonly context: EndpointContextSource,
    /** How the policies write (their kind: `deadline-policies`). */
    write: RecordWrite,
    private readonly timelines: FindingTimelines,
    /** The fix-by dates, which the `bod-26-04` and `kev-due-date` policies read. */
    private readonly fixBy: FixByFigures,
  ) {
    this.policies = new SlaPolicies(db, now, write);
    this.answers = new DerivedCache(versions, remediationPerformanceAnswers, { bound: { entries: 64 } });
    this.overdueSets = new DerivedCache(versions, overdueFindings, { bound: { weight: 4_000_000, weigh: (seqs) => seqs.length } });
  }

  /** The instant figures are computed at: the store's clock, down to the minute. */
  asOf(): number {
    return Math.floor(this.now() / minuteMs) * minuteMs;
  }

  /** The timeline of an organization's findings at the data's current version, read once per version. */
  timeline(orgRowId: number): Promise<FindingTimeline> {
    return this.timelines.of(orgRowId);
  }

  /** The organization's deadline rule now (see {@link DeadlineRule}). */
  rule(orgRowId: number): DeadlineRule {
    const sla = this.policies.get(orgRowId);
    const { settings, key } = this.fixBy.settings.get(orgRowId);
    const deadlinePolicy = settings.deadline_policy;
    if (deadlinePolicy === 'severity-days') return { deadlinePolicy, policy: sla.policy, key: sla.key };
    const fixByKey = `${key}@fixby${this.fixBy.version()}`;
    return { deadlinePolicy, policy: sla.policy, key: deadlinePolicy === 'bod-26-04' ? `bod-26-04|${fixByKey}` : `kev-due-date|${sla.key}|${fixByKey}` };
  }

  /**
   * Each finding's due instant under `rule`, by its index in the timeline's columns, NaN for
   * none: first detection plus the days of its severity (`severity-days`, and `kev-due-date`
   * where the CVE has no CISA due date), the end of its fix-by day (`bod-26-04`), the end of
   * CISA's KEV due date (`kev-due-date`). Answers the timeline the indexes are of.
   */
  async dueTimes(orgRowId: number, rule: DeadlineRule): Promise<{ timeline: FindingTimeline; due: DueTimes }> {
    const fixBy = rule.deadlinePolicy === 'severity-days' ? undefined : await this.fixBy.columns(orgRowId);
    const timeline = fixBy?.timeline ?? (await this.timeline(orgRowId));
    const { columns, firstDetectedMs } = timeline;
    const deadlines = deadlineTable(rule.policy);
    const dueMs = new Float64Array(columns.count);
    for (let i = 0; i < columns.count; i++) {
      const bySeverity = firstDetectedMs[i]! + deadlines[columns.severity[i]! * 2 + columns.kev[i]!]!;
      if (!fixBy) dueMs[i] = bySeverity;
      else if (rule.deadlinePolicy === 'bod-26-04') dueMs[i] = (fixBy.fixByDay[i]! + 1) * dayMs;
      else dueMs[i] = Number.isNaN(fixBy.kevDueDay[i]!) ? bySeverity : (fixBy.kevDueDay[i]! + 1) * dayMs;
    }
    return { timeline, due: { deadlinePolicy: rule.deadlinePolicy, policy: rule.policy, dueMs } };
  }

  /**
   * The organization's remediation performance at `asOf`, under its policy, its exceptions left
   * out of what is overdue, per tag too; with `selection`, of the findings of the endpoints it keeps.
   */
  async performance(orgRowId: number, asOf = this.asOf(), selection?: EndpointSelection): Promise<RemediationPerformance> {
    const rule = this.rule(orgRowId);
    const { key: exceptedKey } = await this.excepted(orgRowId);
    return this.answers.settled(`${orgRowId}|${rule.key}|${asOf}|${exceptedKey}|${selectionKey(selection)}`, async (checkpoint) => {
      const { timeline, due, excepted } = await this.timelineWithExceptions(orgRowId, rule, checkpoint);
      const context = await this.context(orgRowId);
      checkpoint();
      const slices = new TimeSlices(checkpoint);
      const endpoints = await performanceEndpoints(timeline.columns.endpoints, context, selection, slices);
      return remediationPerformance(timeline, due, asOf, excepted, endpoints, slices);
    });
  }

  /**
   * The seqs of the organization's overdue findings at `asOf` under `policy`, ascending: open,
   * past their due date, not under an exception. What the findings list's `overdue=true` keeps.
   */
  async overdueSeqs(shown: ShownInventory, rule: DeadlineRule, asOf: number): Promise<Int32Array> {
    const { key: exceptedKey } = await this.excepted(shown.orgRowId);
    return this.overdueSets.settled(`${shown.inventoryId}|${rule.key}|${asOf}|${exceptedKey}`, async (checkpoint) => {
      checkStillShown(this.db, shown);
      const { timeline, due, excepted } = await this.timelineWithExceptions(shown.orgRowId, rule, checkpoint);
      const { columns } = timeline;
      const slices = new TimeSlices(checkpoint);
      const seqs = new Int32Array(columns.count);
      let count = 0;
      for (let i = 0; i < columns.count; i++) {
        if (i % findingsBetweenLooks === 0) await slices.pause();
        if (columns.status[i] !== open || excepted.byColumn[i] === 1) continue;
        // NaN (no deadline) is never past.
        if (asOf > due.dueMs[i]!) seqs[count++] = columns.seq[i]!;
      }
      return seqs.slice(0, count);
    });
  }

  /** How the findings list sorts by `due_at` under `rule`: each finding's due instant by its seq, null for none. */
  dueSort(orgRowId: number, rule: DeadlineRule): FigureSort {
    return {
      key: rule.key,
      lookup: async () => {
        const { timeline, due } = await this.dueTimes(orgRowId, rule);
        const { indexBySeq, firstSeq } = timeline;
        return (seq: number): SqlValue => {
          const index = indexBySeq[seq - firstSeq] ?? -1;
          const dueMs = index < 0 ? Number.NaN : due.dueMs[index]!;
          return Number.isNaN(dueMs) ? null : dueMs;
        };
      },
    };
  }

  /**
   * The console's deadline fields of findings of the organization at `asOf`, as JSON members to
   * add to each item (`"age_days":…,"due_at":…,"overdue":…`), from each row's own facts: a page
   * reads no timeline. Call it, then use the function without awaiting anything in between.
   */
  async findingFields(orgRowId: number, asOf: number): Promise<(facts: FindingDeadlineFacts) => string> {
    const { policy, deadlinePolicy } = this.rule(orgRowId);
    const isExcepted = await this.exceptedTest(orgRowId);
    const dates = deadlinePolicy === 'severity-days' ? undefined : await this.fixBy.findingDates(orgRowId);
    return (facts) => {
      const firstMs = Date.parse(facts.first_detected_at);
      const bySeverity = dueAtMs(policy, facts.severity, facts.is_kev === 1, firstMs);
      const { fixBy, kevDue } = dates?.(facts) ?? { fixBy: null, kevDue: null };
      const due =
        deadlinePolicy === 'bod-26-04' ? (fixBy === null ? null : fixByDueMs(fixBy)) : deadlinePolicy === 'kev-due-date' && kevDue !== null ? fixByDueMs(kevDue) : bySeverity;
      const isOpen = facts.status === 'open';
      const endMs = isOpen ? asOf : facts.remediated_at === null ? null : Date.parse(facts.remediated_at);
      const overdue = isOpen && due !== null && asOf > due && !isExcepted(facts.seq);
      return `"age_days":${endMs === null ? null : wholeDays(firstMs, endMs)},"due_at":${due === null ? null : `"${new Date(due).toISOString()}"`},"overdue":${overdue}`;
    };
  }

  /** Whether a finding (by seq) is under an exception now; the coverage columns are read only when some finding is. */
  private async exceptedTest(orgRowId: number): Promise<(seq: number) => boolean> {
    // Both of one version, or the indexes would name other findings.
    return onOneVersion(this.versions, [exceptedFindings, coverageColumns], async () => {
      const excepted = await this.excepted(orgRowId);
      if (excepted.count === 0) return () => false;
      const columns = await this.coverage.currentColumns(orgRowId);
      return (seq: number) => excepted.byColumn[columnIndexOf(columns, seq)] === 1;
    });
  }

  /** The timeline, the due times under `rule` and the exceptions of one version of the data, then checked by `checkpoint` to be of the computation's. */
  private async timelineWithExceptions(orgRowId: number, rule: DeadlineRule, checkpoint: () => void): Promise<{ timeline: FindingTimeline; due: DueTimes; excepted: ExceptedFindings }> {
    const read = await onOneVersion(this.versions, [findingTimelines, fixByColumns, exceptedFindings], async () => ({
      ...(await this.dueTimes(orgRowId, rule)),
      excepted: await this.excepted(orgRowId),
    }));
    checkpoint();
    return read;
  }
}

/** The index of a finding in the columns by its seq (they are in seq order), -1 for none. */
function columnIndexOf(columns: CoverageColumns, seq: number): number {
  let low = 0;
  let high = columns.count - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = columns.seq[middle]!;
    if (at === seq) return middle;
    if (at < seq) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * The endpoints whose findings the performance counts (`selection`'s, or all) and the tags it
 * figures apart, with each endpoint key's tags; a tag's endpoints are those `selection` keeps.
 */
async function performanceEndpoints(
  endpoints: EndpointColumns,
  context: EffectiveEndpointContext,
  selection: EndpointSelection | undefined,
  slices: TimeSlices,
): Promise<PerformanceEndpoints> {
  const selected = selects(selection) ? endpointTest(context, selection) : undefined;
  const keyOf = new Map(endpoints.id.map((id, key) => [id, key]));
  await slices.pause();
  const tagsOfKey: number[][] = [];
  const tags: { tag: string; endpoints: number }[] = [];
  // Every tag's endpoints with pauses: in one go they held the thread 26-45 ms of CPU on `large` (a report's turn of 334 ms at load 9).
  for (const [index, { tag, endpoints: count }] of context.tagCounts().entries()) {
    let kept = 0;
    let looked = 0;
    for (const id of context.endpointsWithAnyTag([tag])) {
      if (++looked % endpointsBetweenLooks === 0) await slices.pause();
      if (selected && !selected(id)) continue;
      kept++;
      const key = keyOf.get(id);
      if (key !== undefined) (tagsOfKey[key] ??= []).push(index);
    }
    tags.push({ tag, endpoints: selected ? kept : count });
  }
  return { keep: selected && selectedEndpointKeys(endpoints, context, selection!), tags, tagsOfKey };
}
