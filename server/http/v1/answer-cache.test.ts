import { describe, expect, it } from 'vitest';
import { ChangeVersions } from '../../store/derived/change-kinds.js';
import { answerCache } from './answer-cache.js';

const body = (bytes: number) => Buffer.alloc(bytes, 0x61);

/** Asks an answer twice, as a second request of the same page does. */
function askTwice(cache: ReturnType<typeof answerCache>, key: string, answer: Buffer): void {
  cache.getOrCompute(key, () => answer);
  cache.getOrCompute(key, () => answer);
}

describe('the cache of v1 answers', () => {
  it('keeps answers of the current version only', () => {
    const data = { version: 1 };
    const cache = answerCache(new ChangeVersions(data), 1000);
    askTwice(cache, 'a', body(10));
    expect(cache.get('a')).toEqual(body(10));
    data.version++;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.weight).toBe(0);
    // An answer read inside a write (a transaction then rolled back) is not kept after it.
    const readInsideWrite = () => {
      data.version++;
      return body(10);
    };
    cache.getOrCompute('b', readInsideWrite);
    cache.getOrCompute('b', readInsideWrite);
    expect(cache.get('b')).toBeUndefined();
  });

  it('keeps an answer from its second time, so that pages read once push nothing out', () => {
    const cache = answerCache(new ChangeVersions({ version: 1 }), 100);
    askTwice(cache, 'polled', body(49));
    for (let page = 0; page < 20; page++) cache.getOrCompute(`scanned-${page}`, () => body(49));
    expect(cache.get('polled')).toEqual(body(49));
    expect(cache.get('scanned-3')).toBeUndefined();
    cache.getOrCompute('once', () => body(10));
    expect(cache.get('once')).toBeUndefined();
    cache.getOrCompute('once', () => body(10));
    expect(cache.get('once')).toEqual(body(10));
  });

  it('drops the least recently used answers past its size, counting keys and bodies', () => {
    const cache = answerCache(new ChangeVersions({ version: 1 }), 100);
    askTwice(cache, 'a', body(29));
    askTwice(cache, 'b', body(29));
    askTwice(cache, 'c', body(29));
    expect(cache.get('a')).toBeDefined();
    askTwice(cache, 'd', body(29));
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key) !== undefined)).toEqual([true, true, true]);
    expect(cache.weight).toBe(90);
    askTwice(cache, 'e', body(200));
    expect(cache.get('e')).toBeUndefined();
    expect(cache.weight).toBe(90);
  });
});
