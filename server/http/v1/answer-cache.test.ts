import { describe, expect, it } from 'vitest';
import { AnswerCache } from './answer-cache.js';

const body = (bytes: number) => Buffer.alloc(bytes, 0x61);

/** Offers an answer twice, as a second request of the same page does. */
function cacheTwice(cache: AnswerCache, version: number, key: string, answer: Buffer): void {
  cache.set(version, key, answer);
  cache.set(version, key, answer);
}

describe('AnswerCache', () => {
  it('keeps answers of the current version only', () => {
    const cache = new AnswerCache(1000);
    expect(cache.get(1, 'a')).toBeUndefined();
    cacheTwice(cache, 1, 'a', body(10));
    expect(cache.get(1, 'a')).toEqual(body(10));
    expect(cache.get(2, 'a')).toBeUndefined();
    expect(cache.size).toBe(0);
    // An answer computed before a write is not kept after it.
    cacheTwice(cache, 1, 'b', body(10));
    expect(cache.get(2, 'b')).toBeUndefined();
  });

  it('keeps an answer from its second time, so that pages read once push nothing out', () => {
    const cache = new AnswerCache(100);
    cache.get(1, '');
    cacheTwice(cache, 1, 'polled', body(49));
    for (let page = 0; page < 20; page++) cache.set(1, `scanned-${page}`, body(49));
    expect(cache.get(1, 'polled')).toEqual(body(49));
    expect(cache.get(1, 'scanned-3')).toBeUndefined();
    cache.set(1, 'once', body(10));
    expect(cache.get(1, 'once')).toBeUndefined();
    cache.set(1, 'once', body(10));
    expect(cache.get(1, 'once')).toEqual(body(10));
  });

  it('drops the least recently used answers past its size, counting keys and bodies', () => {
    const cache = new AnswerCache(100);
    cache.get(1, '');
    cacheTwice(cache, 1, 'a', body(29));
    cacheTwice(cache, 1, 'b', body(29));
    cacheTwice(cache, 1, 'c', body(29));
    expect(cache.get(1, 'a')).toBeDefined();
    cacheTwice(cache, 1, 'd', body(29));
    expect(cache.get(1, 'b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(1, key) !== undefined)).toEqual([true, true, true]);
    expect(cache.size).toBe(90);
    cacheTwice(cache, 1, 'e', body(200));
    expect(cache.get(1, 'e')).toBeUndefined();
    expect(cache.size).toBe(90);
  });
});
