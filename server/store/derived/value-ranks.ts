import type { SqlValue } from 'sql.js';
import { ShardedMap } from './sharded-map.js';
import { sortInSlices } from './sort-in-slices.js';
import { compareSqlValues } from './sql-value-order.js';
import type { TimeSlices } from './time-slices.js';

/** Values ranked between two looks at the clock. */
const valuesBetweenLooks = 16_384;
/**
 * Up to this many distinct numbers, ranks are cheaper than sorting by bits: a counting sort
 * over a few ranks (CVSS scores) takes one pass, a radix sort four.
 */
const fewDistinctNumbers = 4096;

/** {@link compareSqlValues} for text with surrogate pairs, where UTF-16 order is not code point order. */
function compareByCodePoints(a: SqlValue, b: SqlValue): number {
  if (typeof a !== 'string' || typeof b !== 'string') return compareSqlValues(a, b);
  const [x, y] = [Array.from(a, (c) => c.codePointAt(0)!), Array.from(b, (c) => c.codePointAt(0)!)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}
const surrogate = /[\uD800-\uDFFF]/;

/**
 * A list's values, fed a chunk at a time, then given back either as numbers (while every value
 * is a number or NULL and they are many distinct ones: due dates, which numeric-order.ts sorts
 * without comparisons) or as ranks in SQLite's order of values (equal values, equal ranks),
 * through a map of the distinct values, which keeps text from being held once per row.
 */
export class ValueRanks {
  /** The values of the chunks before the first that held anything but numbers or NULL, NULL as NaN. */
  private readonly held: Float64Array[] = [];
  /** Whether every value so far is a number or NULL. */
  private allNumbers = true;
  /** Each held value's index in {@link values}, by chunk, while the distinct values are few. */
  private heldIndexes: Int32Array[] | undefined = [];
  /** The values of the chunks after {@link held}: each one's index in {@link values}. */
  private readonly indexes: Int32Array[] = [];
  /** Each distinct value's index in {@link values}: sharded, since there may be a million of them. */
  private readonly distinct = new ShardedMap<number>();
  private readonly values: SqlValue[] = [];
  private surrogates = false;

  /** Takes the next chunk of values. */
  add(values: readonly SqlValue[]): void {
    if (this.allNumbers) {
      const numbers = new Float64Array(values.length);
      let i = 0;
      for (; i < values.length; i++) {
        const value = values[i]!;
        if (value === null) numbers[i] = Number.NaN;
        else if (typeof value === 'number') numbers[i] = value;
        else break;
      }
      if (i === values.length) {
        this.held.push(numbers);
        if (this.heldIndexes) {
          this.heldIndexes.push(this.indexesOf(values));
          if (this.values.length > fewDistinctNumbers) this.heldIndexes = undefined;
        }
        return;
      }
      this.allNumbers = false;
    }
    this.indexes.push(this.indexesOf(values));
  }

  /**
   * Every value added, in order, NULL as NaN, when all are numbers or NULL and more than a few
   * distinct ones (due dates); otherwise undefined: {@link ranks} orders them for less.
   */
  numbers(): Float64Array | undefined {
    return this.allNumbers && !this.heldIndexes ? concatenated(this.held, Float64Array) : undefined;
  }

  /** The rank of every value added, in order, and how many ranks there are (every rank is below it). */
  async ranks(slices: TimeSlices): Promise<{ ranks: Int32Array; count: number }> {
    let heldIndexes = this.heldIndexes;
    if (!heldIndexes) {
      // Many distinct numbers, then other values: the numbers are indexed now.
      heldIndexes = [];
      for (const chunk of this.held) {
        heldIndexes.push(this.indexesOf(Array.from(chunk, (value) => (Number.isNaN(value) ? null : value))));
        await slices.pause();
      }
    }
    const sorted = await sortInSlices(this.values, this.surrogates ? compareByCodePoints : compareSqlValues, slices);
    const rankOfValue = new Int32Array(this.values.length);
    for (let rank = 0; rank < sorted.length; rank++) {
      if (rank % valuesBetweenLooks === 0) await slices.pause();
      rankOfValue[this.distinct.get(sorted[rank]!)!] = rank;
    }
    const ranks = concatenated([...heldIndexes, ...this.indexes], Int32Array);
    for (let i = 0; i < ranks.length; i++) {
      if (i % valuesBetweenLooks === 0) await slices.pause();
      ranks[i] = rankOfValue[ranks[i]!]!;
    }
    return { ranks, count: this.values.length };
  }

  private indexesOf(values: readonly SqlValue[]): Int32Array {
    const indexes = new Int32Array(values.length);
    values.forEach((value, i) => {
      let index = this.distinct.get(value);
      if (index === undefined) {
        this.distinct.set(value, (index = this.values.length));
        this.values.push(value);
        if (typeof value === 'string' && surrogate.test(value)) this.surrogates = true;
      }
      indexes[i] = index;
    });
    return indexes;
  }
}

/** The arrays one after the other, in one of `Type`. */
export function concatenated<T extends Float64Array | Int32Array>(chunks: readonly T[], Type: new (length: number) => T): T {
  const all = new Type(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}
