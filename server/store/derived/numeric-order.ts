import type { TimeSlices } from './time-slices.js';

/** Rows handled between two looks at the clock. */
const rowsBetweenLooks = 65_536;
/** Bits of the key sorted by per pass: four passes over a 64-bit key. */
const digitBits = 16;
const digitValues = 1 << digitBits;

/** The 64 bits of a double, read through one buffer (the platform's order: little-endian on every platform Node runs on). */
const double = new Float64Array(1);
const words = new Uint32Array(double.buffer);

/**
 * `rows` ordered by their numbers, ascending, NULL (NaN) first, equal numbers (0 and -0 too)
 * in the order the rows come: a stable least-significant-digit radix sort over a 64-bit key
 * that orders as the doubles do. No comparison is made, so a million rows take a few passes
 * over typed arrays rather than twenty million calls of a comparator; every pass runs in
 * slices of the event loop.
 */
export async function orderByNumbers(rows: Int32Array, numbers: Float64Array, slices: TimeSlices): Promise<Int32Array> {
  const length = rows.length;
  let high = new Uint32Array(length);
  let low = new Uint32Array(length);
  let order = rows.slice();
  for (let i = 0; i < length; i++) {
    if (i % rowsBetweenLooks === 0) await slices.pause();
    const number = numbers[i]!;
    // NULL keeps the key 0, below every number's; -0 is 0.
    if (Number.isNaN(number)) continue;
    double[0] = number === 0 ? 0 : number;
    // Negative numbers: every bit flipped (a larger magnitude is smaller); others: the sign bit set.
    const negative = (words[1]! & 0x80000000) !== 0;
    high[i] = negative ? ~words[1]! >>> 0 : (words[1]! | 0x80000000) >>> 0;
    low[i] = negative ? ~words[0]! >>> 0 : words[0]!;
  }
  let [nextHigh, nextLow, nextOrder] = [new Uint32Array(length), new Uint32Array(length), new Int32Array(length)];
  const counts = new Int32Array(digitValues);
  for (let pass = 0; pass < 64 / digitBits; pass++) {
    const [word, shift] = pass < 2 ? [low, pass * digitBits] : [high, (pass - 2) * digitBits];
    counts.fill(0);
    for (let i = 0; i < length; i++) {
      if (i % rowsBetweenLooks === 0) await slices.pause();
      counts[(word[i]! >>> shift) & (digitValues - 1)]!++;
    }
    // A digit every row shares orders nothing.
    if (counts.includes(length)) continue;
    for (let digit = 0, start = 0; digit < digitValues; digit++) [counts[digit], start] = [start, start + counts[digit]!];
    for (let i = 0; i < length; i++) {
      if (i % rowsBetweenLooks === 0) await slices.pause();
      const place = counts[(word[i]! >>> shift) & (digitValues - 1)]!++;
      nextHigh[place] = high[i]!;
      nextLow[place] = low[i]!;
      nextOrder[place] = order[i]!;
    }
    [high, nextHigh, low, nextLow, order, nextOrder] = [nextHigh, high, nextLow, low, nextOrder, order];
  }
  return order;
}

/** The row numbers 0 to `count` − 1: the rows {@link orderByNumbers} orders when the numbers are given in row order. */
export function rowNumbers(count: number): Int32Array {
  const rows = new Int32Array(count);
  for (let row = 0; row < count; row++) rows[row] = row;
  return rows;
}
