/**
 * Why an intelligence file was refused, as a sentence naming the line or field: a 400 on /app,
 * an error on the command line. Nothing is written before a file is read whole and found valid.
 */
export class IntelFileError extends Error {}

const dateTime = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A file's own date (`2026-09-29T12:00:22Z`, `2025-08-25T17:04:19.9796Z`, `2022-03-01T00:00:00+0000`,
 * `2026-08-17`, or ENISA's `2026/08/17`) as an ISO date-time in UTC, or undefined when it is
 * none; a date without a time is its midnight UTC, one without an offset is UTC.
 */
export function sourceDateTime(text: string): string | undefined {
  const match = dateTime.exec(text.length <= 64 ? text.replaceAll('/', '-') : '');
  if (!match) return undefined;
  const [, year, month, day, hours = '00', minutes = '00', seconds = '00', fraction = '', offset = 'Z'] = match;
  const zone = offset === 'Z' ? 'Z' : `${offset.slice(0, 3)}:${offset.slice(-2)}`;
  const ms = Date.parse(`${year}-${month}-${day}T${hours}:${minutes}:${seconds}${fraction.slice(0, 4)}${zone}`);
  if (Number.isNaN(ms)) return undefined;
  const date = new Date(ms);
  // Date.parse rolls 2026-02-30 over to March: a date that is not on the calendar is refused.
  if (offset === 'Z' && date.getUTCDate() !== Number(day)) return undefined;
  return date.toISOString();
}

/** A calendar date `YYYY-MM-DD` (or ENISA's `YYYY/MM/DD`) as `YYYY-MM-DD`, or undefined when it is none. */
export function calendarDate(text: string): string | undefined {
  if (!/^\d{4}[-/]\d{2}[-/]\d{2}$/.test(text)) return undefined;
  return sourceDateTime(text)?.slice(0, 10);
}
