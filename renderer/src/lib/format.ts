import { counted, percentRoundedDown } from '../../../contracts/figure-text';

// One formatter each, made once: toLocaleString with options builds a new Intl formatter on
// every call, a large share of a scrolling table's script time (docs/decisions/the-console/formatters-once-rows-memoized-first-fetch-from.md, "Formatters
// once, rows memoized, first fetch from the route").
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const countFormat = new Intl.NumberFormat();
const shareFormat = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const daysFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const wholePercentFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

function formatWith(format: Intl.DateTimeFormat, value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : format.format(date);
}

/** A timestamp as the user's locale writes a date and time. */
export function formatDateTime(value: string | null | undefined): string {
  return formatWith(dateTimeFormat, value);
}

/** A date without the time. */
export function formatDate(value: string | null | undefined): string {
  return formatWith(dateFormat, value);
}

/** A value that may be missing. */
export function orDash(value: string | number | null | undefined): string {
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

/** A count with thousands separators. */
export function formatCount(value: number): string {
  return countFormat.format(value);
}

/**
 * A share from 0 to 1 as a percentage with one decimal, always ("39.0 %" beside "39.3 %"),
 * rounded down as the server's sentences round theirs (contracts/figure-text.ts).
 */
export function formatShare(share: number): string {
  return `${shareFormat.format(percentRoundedDown(share))} %`;
}

/** A goal of the remediation plan (50, 80, 95 %): a whole percentage, a target rather than a measure. */
export function formatGoal(goal: number): string {
  return `${wholePercentFormat.format(goal * 100)} %`;
}

/** A CVSS score with one decimal, always, as NVD writes it ("9.0" beside "9.8"); a dash for none. */
export function formatCvss(score: number | null | undefined): string {
  return score === null || score === undefined ? '—' : score.toFixed(1);
}

/** A count and its noun, singular for one ("1 row", "2 rows"): every sentence with a count says it so (contracts/figure-text.ts). */
export function formatCounted(count: number, one: string, many?: string): string {
  return counted(count, one, many, formatCount);
}

/** Days with at most one decimal ("12.5 days", "1 day"); a dash for none. */
export function formatDays(days: number | null): string {
  return days === null ? '—' : counted(days, 'day', 'days', (value) => daysFormat.format(value));
}

/** The NVD page of a CVE. */
export function nvdUrl(cveId: string): string {
  return `https://nvd.nist.gov/vuln/detail/${encodeURIComponent(cveId.toUpperCase())}`;
}
