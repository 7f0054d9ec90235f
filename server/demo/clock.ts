/**
 * The generator's notion of time. Every timestamp is this fixed reference minus a seeded spread,
 * never the wall clock, so that the same seed gives the same data whenever it runs.
 */

/** "Now" for generated data: 2026-06-01T00:00:00.000Z. Nothing generated is later. */
export const referenceMs = Date.UTC(2026, 5, 1);

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

// Date#toISOString costs about a microsecond, and the large dataset formats millions of
// timestamps: the date part is cached per day and the time written into a reused buffer, which
// also yields flat strings rather than ropes.
const isoBuffer = Buffer.alloc(24);
const dayPrefixes = new Map<number, Buffer>();

function writeDigits(at: number, value: number, width: number): void {
  for (let i = at + width - 1; i >= at; i--) {
    isoBuffer[i] = 48 + (value % 10);
    value = Math.floor(value / 10);
  }
}

/** ISO 8601 in UTC with milliseconds (what Date#toISOString gives), for instants from year 1970 to 9999. */
export function iso(ms: number): string {
  const instant = Math.floor(ms);
  const day = Math.floor(instant / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = Buffer.from(new Date(day * DAY_MS).toISOString().slice(0, 11), 'latin1');
    dayPrefixes.set(day, prefix);
  }
  for (let i = 0; i < 11; i++) isoBuffer[i] = prefix[i] as number;
  let rest = instant - day * DAY_MS;
  const hours = Math.floor(rest / HOUR_MS);
  rest -= hours * HOUR_MS;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  writeDigits(11, hours, 2);
  isoBuffer[13] = 58; // ':'
  writeDigits(14, minutes, 2);
  isoBuffer[16] = 58;
  writeDigits(17, seconds, 2);
  isoBuffer[19] = 46; // '.'
  writeDigits(20, rest - seconds * 1000, 3);
  isoBuffer[23] = 90; // 'Z'
  return isoBuffer.toString('latin1', 0, 24);
}
