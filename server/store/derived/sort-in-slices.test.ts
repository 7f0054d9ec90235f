import { afterEach, describe, expect, it, vi } from 'vitest';
import { sortInSlices } from './sort-in-slices.js';
import { TimeSlices, sliceMs } from './time-slices.js';

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number): () => number {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

describe('sortInSlices', () => {
  afterEach(() => vi.restoreAllMocks());

  it('sorts as Array#sort does, across the sizes of its blocks and merges', async () => {
    const next = random(7);
    const byNumber = (a: number, b: number) => a - b;
    for (const length of [0, 1, 2, 4095, 4096, 4097, 8192, 12_289, 40_000]) {
      const items = Array.from({ length }, () => Math.floor(next() * 1000));
      expect(await sortInSlices(items, byNumber, new TimeSlices(() => undefined))).toEqual([...items].sort(byNumber));
    }
  });

  it('keeps equal items in their order, and leaves the input as it was', async () => {
    const items = Array.from({ length: 10_000 }, (_, index) => ({ key: index % 7, index }));
    const copy = items.map((item) => ({ ...item }));
    const sorted = await sortInSlices(items, (a, b) => a.key - b.key, new TimeSlices(() => undefined));
    expect(sorted).toEqual([...copy].sort((a, b) => a.key - b.key || a.index - b.index));
    expect(items).toEqual(copy);
  });

  it('gives the event loop turns once a slice has run its time, and stops when the data changed meanwhile', async () => {
    // Every look at the clock finds a slice's time gone.
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (now += sliceMs));
    const items = Array.from({ length: 20_000 }, (_, index) => 20_000 - index);
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    let checks = 0;
    try {
      await sortInSlices(items, (a, b) => a - b, new TimeSlices(() => checks++));
    } finally {
      clearInterval(ticking);
    }
    expect(checks).toBeGreaterThan(5);
    expect(turns).toBeGreaterThan(0);

    const written = new TimeSlices(() => {
      throw new Error('written meanwhile');
    });
    await expect(sortInSlices(items, (a, b) => a - b, written)).rejects.toThrow('written meanwhile');
  });
});
