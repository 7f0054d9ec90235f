import { describe, expect, it } from 'vitest';
import { SeqSet } from './seq-set.js';

describe('SeqSet', () => {
  it('holds the seqs added, across chunks and far apart, and says when one was there already', () => {
    const set = new SeqSet();
    const seqs = [0, 1, 31, 32, 65_535, 65_536, 1_000_000, 2 ** 40 + 7];
    for (const seq of seqs) expect(set.add(seq)).toBe(true);
    for (const seq of seqs) expect(set.has(seq)).toBe(true);
    for (const seq of [2, 30, 33, 65_534, 65_537, 999_999, 2 ** 40 + 6]) expect(set.has(seq)).toBe(false);
    expect(set.add(31)).toBe(false);
    expect(set.add(2 ** 40 + 7)).toBe(false);
  });
});
