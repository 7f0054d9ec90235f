import { describe, expect, it } from 'vitest';
import { AnswerCache } from './answer-cache.js';

const body = (bytes: number) => Buffer.alloc(bytes, 0x61);

describe('AnswerCache', () => {
  it('keeps answers of the current version only', () => {
    const cache = new AnswerCache(1000);
    expect(cache.get(1, 'a')).toBeUndefined();
    cache.set(1, 'a', body(10));
    expect(cache.get(1, 'a')).toEqual(body(10));
    expect(cache.get(2, 'a')).toBeUndefined();
    expect(cache.size).toBe(0);
    // An answer computed before a write is not kept after it.
    cache.set(1, 'b', body(10));
    expect(cache.get(2, 'b')).toBeUndefined();
  });

  it('drops the least recently used answers past its size, counting keys and bodies', () => {
    const cache = new AnswerCache(100);
    cache.get(1, '');
    cache.set(1, 'a', body(29));
    cache.set(1, 'b', body(29));
    cache.set(1, 'c', body(29));
    expect(cache.get(1, 'a')).toBeDefined();
    cache.set(1, 'd', body(29));
    expect(cache.get(1, 'b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(1, key) !== undefined)).toEqual([true, true, true]);
    expect(cache.size).toBe(90);
    cache.set(1, 'e', body(200));
    expect(cache.get(1, 'e')).toBeUndefined();
    expect(cache.size).toBe(90);
  });
});
