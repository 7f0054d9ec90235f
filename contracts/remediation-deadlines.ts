/**
 * Remediation deadlines, written once for the store that computes due dates, overdue findings and
 * remediation performance, the console that shows and edits them, and the tests that check them.
 * Free of zod, for the renderer's bundle.
 *
 * An organization's policy gives the days to remediate a finding of each severity (none for a
 * severity whose value is null) and the days for a finding whose CVE is in CISA's KEV catalog,
 * which apply when they are sooner (BOD 22-01 gives two weeks). A finding's deadline is the
 * smaller of the two that apply; its due date is `first_detected_at` plus that many days of
 * 24 hours; it has none when neither applies. An open finding is overdue once the instant the
 * figures are computed at is past its due date; a remediated one was remediated in time when
 * `remediated_at` is at or before it.
 */
import { type FindingSeverity, findingSeverities } from './enums.js';

/** Days to remediate per severity, and for KEV findings: a whole number of days, or null for no deadline. */
export type SlaPolicy = Readonly<Record<FindingSeverity | 'kev', number | null>>;

/** The keys of a policy, severities most severe first, then `kev`. */
export const slaPolicyKeys = [...findingSeverities, 'kev'] as const;

/** The policy of an organization that never set one: DefectDojo's and Defender's usual days, BOD 22-01's two weeks for KEV. */
export const defaultSlaPolicy: SlaPolicy = { critical: 15, high: 30, medium: 90, low: 180, info: null, kev: 14 };

/** The bounds of a policy's days: at least one day, at most ten years. */
export const slaDaysBounds = { min: 1, max: 3650 } as const;

/** A day of 24 hours, in milliseconds: due dates and ages count in these, not calendar days. */
export const dayMs = 86_400_000;

/** The days to remediate a finding: the smaller of its severity's days and, for a KEV finding, the KEV days; null when neither applies. */
export function deadlineDays(policy: SlaPolicy, severity: FindingSeverity, isKev: boolean): number | null {
  const bySeverity = policy[severity];
  const byKev = isKev ? policy.kev : null;
  if (bySeverity === null) return byKev;
  return byKev === null ? bySeverity : Math.min(bySeverity, byKev);
}

/** When a finding first detected at `firstDetectedMs` is due, in ms since the epoch; null without a deadline. */
export function dueAtMs(policy: SlaPolicy, severity: FindingSeverity, isKev: boolean, firstDetectedMs: number): number | null {
  const days = deadlineDays(policy, severity, isKev);
  return days === null ? null : firstDetectedMs + days * dayMs;
}

/** Whole days of 24 hours from `fromMs` to `toMs` (rounded down), 0 when `toMs` is not after `fromMs`. */
export function wholeDays(fromMs: number, toMs: number): number {
  return Math.max(0, Math.floor((toMs - fromMs) / dayMs));
}

/** Open findings' age groups, in whole days since first detection: the upper bound included, null for no bound. */
export const ageBuckets = [
  { label: '0–7 days', maxDays: 7 },
  { label: '8–30 days', maxDays: 30 },
  { label: '31–90 days', maxDays: 90 },
  { label: '91–180 days', maxDays: 180 },
  { label: 'Over 180 days', maxDays: null },
] as const;

/** The index in {@link ageBuckets} of an age in whole days. */
export function ageBucketOf(days: number): number {
  const index = ageBuckets.findIndex((bucket) => bucket.maxDays !== null && days <= bucket.maxDays);
  return index < 0 ? ageBuckets.length - 1 : index;
}

/** How many calendar months (UTC) the performance's monthly series covers, the current one included. */
export const performanceMonths = 12;

/** The explanation of due dates the console shows beside them. */
export const deadlineExplanation =
  'Due: first detection plus the days to remediate its severity, or the KEV days when sooner. Overdue: open past its due date, and not under an exception.';
