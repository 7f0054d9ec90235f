import type { TimeSlices } from './time-slices.js';

/** Items sorted natively at a time: a few milliseconds of comparisons. */
const blockLength = 4096;
/** Items merged between two looks at the clock. */
const mergeStep = 1024;

/**
 * A copy of `items` sorted by `compare` (stably), in slices that leave the event loop other
 * turns: blocks sorted by Array#sort, then merged pairwise pass after pass. Sorting a million
 * strings in one call holds the thread for a second.
 */
export async function sortInSlices<T>(items: readonly T[], compare: (a: T, b: T) => number, slices: TimeSlices): Promise<T[]> {
  let from = items.slice();
  for (let start = 0; start < from.length; start += blockLength) {
    const sorted = from.slice(start, start + blockLength).sort(compare);
    for (let i = 0; i < sorted.length; i++) from[start + i] = sorted[i]!;
    await slices.pause();
  }
  let to = new Array<T>(from.length);
  for (let width = blockLength; width < from.length; width *= 2) {
    for (let left = 0; left < from.length; left += 2 * width) {
      const middle = Math.min(left + width, from.length);
      const end = Math.min(left + 2 * width, from.length);
      let [i, j, k] = [left, middle, left];
      while (k < end) {
        for (const stop = Math.min(end, k + mergeStep); k < stop; k++) {
          to[k] = j >= end || (i < middle && compare(from[i]!, from[j]!) <= 0) ? from[i++]! : from[j++]!;
        }
        await slices.pause();
      }
    }
    [from, to] = [to, from];
  }
  return from;
}
