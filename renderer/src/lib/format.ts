// One formatter each, made once: toLocaleString with options builds a new Intl formatter on
// every call, a large share of a scrolling table's script time (docs/decisions.md, "Formatters
// once, rows memoized, first fetch from the route").
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const countFormat = new Intl.NumberFormat();
const shareFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

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
 * A share from 0 to 1 as a percentage with at most one decimal, written "52.3 %" as the
 * remediation plan's sentences write theirs, and rounded down as they are: a share shown never
 * claims more than is closed (0.5698 is 56.9 %, which the sentence calls 56 %, not 57 %).
 */
export function formatShare(share: number): string {
  // The epsilon keeps a share that is exactly a tenth (0.95) from falling a tenth short through floating point.
  return `${shareFormat.format(Math.floor(share * 1000 + 1e-9) / 10)} %`;
}

/** Days with at most one decimal ("12.5 days"); a dash for none. */
export function formatDays(days: number | null): string {
  return days === null ? '—' : `${shareFormat.format(days)} days`;
}

/** The NVD page of a CVE. */
export function nvdUrl(cveId: string): string {
  return `https://nvd.nist.gov/vuln/detail/${encodeURIComponent(cveId.toUpperCase())}`;
}
