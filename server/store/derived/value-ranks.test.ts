import type { SqlValue } from 'sql.js';
import { describe, expect, it } from 'vitest';
import { orderByNumbers } from './numeric-order.js';
import { compareSqlValues } from './sql-value-order.js';
import { TimeSlices } from './time-slices.js';
import { ValueRanks } from './value-ranks.js';

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number): () => number {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

const noPauses = () => new TimeSlices(() => undefined);

/** The order an independent computation gives: by SQLite's order of values (-0 is 0), ties in the rows' order. */
function expectedOrder(rows: number[], values: SqlValue[]): number[] {
  const normal = (value: SqlValue) => (Object.is(value, -0) ? 0 : value);
  return rows
    .map((row, i) => ({ row, value: normal(values[i]!), i }))
    .sort((a, b) => compareSqlValues(a.value, b.value) || a.i - b.i)
    .map(({ row }) => row);
}

describe('orderByNumbers', () => {
  it('orders rows by their numbers, NULL first, ties in the order the rows come', async () => {
    const next = random(11);
    for (const length of [0, 1, 2, 1000, 70_000]) {
      const rows = Array.from({ length }, (_, i) => 5000 + ((i * 7919) % (length || 1)));
      const values: SqlValue[] = rows.map(() => {
        const draw = next();
        if (draw < 0.05) return null;
        if (draw < 0.1) return [0, -0, -1.5, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, -Infinity, Infinity][Math.floor(next() * 8)]!;
        // Instants as due dates are, many equal, and small fractions, negative too.
        return draw < 0.6 ? 1.7e12 + Math.floor(next() * 2000) * 86_400_000 : (next() - 0.5) * 100;
      });
      const numbers = Float64Array.from(values, (value) => (value === null ? Number.NaN : (value as number)));
      const order = await orderByNumbers(Int32Array.from(rows), numbers, noPauses());
      expect(Array.from(order)).toEqual(expectedOrder(rows, values));
    }
  });

  it('gives the event loop turns and stops when the data changed meanwhile', async () => {
    let checks = 0;
    const slices = new TimeSlices(() => {
      if (++checks > 2) throw new Error('written meanwhile');
    });
    Object.defineProperty(slices, 'due', { get: () => true });
    const length = 200_000;
    await expect(orderByNumbers(new Int32Array(length), Float64Array.from({ length }, (_, i) => length - i), slices)).rejects.toThrow('written meanwhile');
  });
});

describe('ValueRanks', () => {
  it('gives numbers and NULL back as numbers, in the order added, when they are many distinct ones', () => {
    const values = new ValueRanks();
    const many = Array.from({ length: 5000 }, (_, i) => i / 4);
    values.add([3, null, -0]);
    values.add(many);
    expect(Array.from(values.numbers()!)).toEqual([3, Number.NaN, -0, ...many]);
  });

  it('ranks a few distinct numbers instead, NULL first', async () => {
    const values = new ValueRanks();
    values.add([9.8, null, 7.5, 9.8, 0, -0]);
    expect(values.numbers()).toBeUndefined();
    expect(Array.from((await values.ranks(noPauses())).ranks)).toEqual([3, 0, 2, 3, 1, 1]);
  });

  it('ranks values in SQLite order once text comes after numbers, equal values alike', async () => {
    const chunks: SqlValue[][] = [[3, null, 1.5, 3, -2], ['b', 7, 'a', null, 'b', 1.5, '𝒜', 'Z']];
    const values = new ValueRanks();
    for (const chunk of chunks) values.add(chunk);
    expect(values.numbers()).toBeUndefined();
    const all = chunks.flat();
    const distinct = [...new Set(all)].sort(compareSqlValues);
    const { ranks, count } = await values.ranks(noPauses());
    expect(count).toBe(distinct.length);
    expect(Array.from(ranks)).toEqual(all.map((value) => distinct.indexOf(value)));
  });
});
