import type { MonthlyPerformance, RemediationPerformance } from '../../../contracts/console/deadlines.js';
import { findingSeverities, findingStatuses } from '../../../contracts/enums.js';
import { type SlaPolicy, ageBucketOf, ageBuckets, dayMs, deadlineDays, performanceMonths } from '../../../contracts/remediation-deadlines.js';
import type { ExceptedFindings } from '../basics/excepted-findings.js';
import type { FindingTimeline } from '../basics/finding-timeline.js';
import type { DeadlinePolicy } from '../../../contracts/fix-by.js';
import { median } from '../derived/median.js';
import type { TimeSlices } from '../derived/time-slices.js';

const open = findingStatuses.indexOf('open');
const severityCount = findingSeverities.length;
/** Findings counted between two looks at the clock: each costs about a microsecond (a month's end at a time, twelve times). */
const findingsBetweenLooks = 4_096;

/** Days (from milliseconds) to one decimal, as the answer gives them. */
export const daysFigure = (ms: number | null): number | null => (ms === null ? null : Math.round((ms / dayMs) * 10) / 10);

/**
 * The deadline of each severity (rows) without and with KEV (columns), in milliseconds; NaN for
 * none: looked up per finding rather than computed.
 */
export function deadlineTable(policy: SlaPolicy): Float64Array {
  const table = new Float64Array(severityCount * 2);
  findingSeverities.forEach((severity, index) => {
    for (const kev of [0, 1]) table[index * 2 + kev] = (deadlineDays(policy, severity, kev === 1) ?? Number.NaN) * dayMs;
  });
  return table;
}

/**
 * What an organization's findings are due by: its deadline policy, its days per severity (what
 * `severity-days` applies, and `kev-due-date` where a CVE has no CISA due date), and each
 * finding's due instant by its index in the timeline's columns, NaN for none.
 */
export interface DueTimes {
  deadlinePolicy: DeadlinePolicy;
  policy: SlaPolicy;
  dueMs: Float64Array;
}

/** The remediated findings of a group: their times to remediate in ms, and how many kept to a deadline. */
class RemediationGroup {
  private delays: number[] = [];
  private sum = 0;
  private withDeadline = 0;
  private inTime = 0;

  add(delayMs: number, hasDeadline: boolean, inTime: boolean): void {
    this.delays.push(delayMs);
    this.sum += delayMs;
    if (hasDeadline) this.withDeadline++;
    if (inTime) this.inTime++;
  }

  figures() {
    const count = this.delays.length;
    return {
      remediated: count,
      remediated_with_deadline: this.withDeadline,
      remediated_in_time: this.inTime,
      share_in_time: this.withDeadline ? this.inTime / this.withDeadline : null,
      median_days_to_remediate: daysFigure(median(Float64Array.from(this.delays))),
      mean_days_to_remediate: daysFigure(count ? this.sum / count : null),
    };
  }
}

/** The open findings of a group: their ages in ms, and how many are overdue, with and without an exception. */
class OpenGroup {
  private ages: number[] = [];
  private overdue = 0;
  private overdueExcepted = 0;

  add(ageMs: number, overdue: boolean, excepted: boolean): void {
    this.ages.push(ageMs);
    if (overdue && excepted) this.overdueExcepted++;
    else if (overdue) this.overdue++;
  }

  figures() {
    return {
      open: this.ages.length,
      open_overdue: this.overdue,
      open_overdue_excepted: this.overdueExcepted,
      median_open_age_days: daysFigure(median(Float64Array.from(this.ages))),
    };
  }
}

/**
 * Which findings the figures count, by their endpoint's key in the coverage columns: those
 * `keep` keeps (all without it); and the tags whose open findings are figured apart, with the
 * tags of each endpoint key as indexes into them.
 */
export interface PerformanceEndpoints {
  keep: Uint8Array | undefined;
  tags: readonly { tag: string; endpoints: number }[];
  tagsOfKey: readonly (readonly number[] | undefined)[];
}

/** The months of the series (UTC), oldest first: each month's first instant, and the instant its counts are taken at. */
function seriesMonths(asOfMs: number): { month: string; startMs: number; nextMs: number; endMs: number }[] {
  const now = new Date(asOfMs);
  return Array.from({ length: performanceMonths }, (_, k) => {
    const startMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (performanceMonths - 1 - k), 1);
    const nextMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (performanceMonths - 2 - k), 1);
    return { month: new Date(startMs).toISOString().slice(0, 7), startMs, nextMs, endMs: Math.min(nextMs - 1, asOfMs) };
  });
}

/**
 * The remediation performance of one organization at `asOfMs` under `policy`, in one pass over
 * its findings (in slices, so that other requests are answered meanwhile) and a median per group.
 *
 * - A finding's deadline and due date are remediation-deadlines.ts's; it is overdue when open
 *   and `asOfMs` is past its due date; an overdue finding under an exception counts in
 *   `open_overdue_excepted`, not in `open_overdue`.
 * - Ages and times to remediate are instants' differences (never below 0: a first detection
 *   after `asOfMs` is 0 days old), in days of 24 hours; medians and means to one decimal.
 * - The remediated figures are over the findings whose status is remediated and whose
 *   `remediated_at` is known; the series counts them in the UTC month of `remediated_at`, and
 *   at each month's end (the current month: `asOfMs`) the findings detected by then and not
 *   remediated by then, and those of them past their due date (exceptions aside).
 * - Only the findings of the endpoints `endpoints.keep` keeps are counted; the open ones are
 *   figured per tag of their endpoint too.
 */
export async function remediationPerformance(
  timeline: FindingTimeline,
  deadlines: DueTimes,
  asOfMs: number,
  excepted: ExceptedFindings,
  endpoints: PerformanceEndpoints,
  slices: TimeSlices,
): Promise<RemediationPerformance> {
  const { keep, tags, tagsOfKey } = endpoints;
  const tagGroups = tags.map(() => new OpenGroup());
  const { columns, firstDetectedMs, remediatedMs } = timeline;
  const { policy, dueMs: due } = deadlines;
  const openGroups = findingSeverities.map(() => new OpenGroup());
  const remediationGroups = findingSeverities.map(() => new RemediationGroup());
  const openAll = new OpenGroup();
  const remediatedAll = new RemediationGroup();
  const months = seriesMonths(asOfMs);
  const monthGroups = months.map(() => new RemediationGroup());
  const openAtEnd = new Float64Array(months.length);
  const overdueAtEnd = new Float64Array(months.length);
  const buckets = ageBuckets.map(() => new Float64Array(severityCount));
  const seriesStartMs = months[0]!.startMs;

  for (let i = 0; i < columns.count; i++) {
    if (i % findingsBetweenLooks === 0) await slices.pause();
    const severity = columns.severity[i]!;
    if (severity >= severityCount) continue;
    const endpoint = columns.endpoint[i]!;
    if (keep && keep[endpoint] !== 1) continue;
    const firstMs = firstDetectedMs[i]!;
    const dueMs = due[i]!;
    const hasDeadline = !Number.isNaN(dueMs);
    const isOpen = columns.status[i] === open;
    const remediatedAtMs = remediatedMs[i]!;
    if (isOpen) {
      const ageMs = Math.max(0, asOfMs - firstMs);
      const overdue = hasDeadline && asOfMs > dueMs;
      const isExcepted = excepted.byColumn[i] === 1;
      openGroups[severity]!.add(ageMs, overdue, isExcepted);
      openAll.add(ageMs, overdue, isExcepted);
      for (const tag of (endpoint >= 0 && tagsOfKey[endpoint]) || []) tagGroups[tag]!.add(ageMs, overdue, isExcepted);
      buckets[ageBucketOf(Math.floor(ageMs / dayMs))]![severity]!++;
    } else if (!Number.isNaN(remediatedAtMs)) {
      const delayMs = Math.max(0, remediatedAtMs - firstMs);
      const inTime = hasDeadline && remediatedAtMs <= dueMs;
      remediationGroups[severity]!.add(delayMs, hasDeadline, inTime);
      remediatedAll.add(delayMs, hasDeadline, inTime);
      if (remediatedAtMs >= seriesStartMs) {
        const month = months.findIndex((m) => remediatedAtMs >= m.startMs && remediatedAtMs < m.nextMs);
        if (month >= 0) monthGroups[month]!.add(delayMs, hasDeadline, inTime);
      }
    } else {
      // Remediated at an unknown instant: neither open at any month's end nor timed.
      continue;
    }
    // Open at a month's end: detected by then and not remediated by then.
    for (let k = 0; k < months.length; k++) {
      const endMs = months[k]!.endMs;
      if (firstMs > endMs || (!isOpen && remediatedAtMs <= endMs)) continue;
      openAtEnd[k]!++;
      if (hasDeadline && endMs > dueMs) overdueAtEnd[k]!++;
    }
  }

  const severities = [];
  for (const [index, severity] of findingSeverities.entries()) {
    severities.push({ severity, deadline_days: policy[severity], ...openGroups[index]!.figures(), ...remediationGroups[index]!.figures() });
    await slices.pause();
  }
  // Each median of all the findings takes its own slice.
  const openTotals = openAll.figures();
  await slices.pause();
  const totals = { ...openTotals, ...remediatedAll.figures() };
  await slices.pause();
  const tagFigures = [];
  for (const [index, { tag, endpoints: count }] of tags.entries()) {
    tagFigures.push({ tag, endpoints: count, ...tagGroups[index]!.figures() });
    if (index % 16 === 15) await slices.pause();
  }
  const monthly: MonthlyPerformance[] = months.map((m, k) => ({
    month: m.month,
    ...monthGroups[k]!.figures(),
    end_at: new Date(m.endMs).toISOString(),
    open_at_end: openAtEnd[k]!,
    overdue_at_end: overdueAtEnd[k]!,
  }));
  return {
    as_of: new Date(asOfMs).toISOString(),
    deadline_policy: deadlines.deadlinePolicy,
    policy: { ...policy },
    severities,
    totals,
    monthly,
    age_buckets: ageBuckets.map((bucket, index) => {
      const counts = buckets[index]!;
      return {
        label: bucket.label,
        min_days: index === 0 ? 0 : ageBuckets[index - 1]!.maxDays! + 1,
        max_days: bucket.maxDays,
        open: counts.reduce((sum, count) => sum + count, 0),
        by_severity: Object.fromEntries(findingSeverities.map((severity, s) => [severity, counts[s]!])) as Record<(typeof findingSeverities)[number], number>,
      };
    }),
    tags: tagFigures,
  };
}
