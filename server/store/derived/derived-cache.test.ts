import { describe, expect, it } from 'vitest';
import { ChangeVersions, derivedValue } from './change-kinds.js';
import { DerivedCache, type DerivedCacheOptions } from './derived-cache.js';

/** A stand-in for the database: its version is raised by hand, as a statement outside a named write raises it. */
const data = () => ({ version: 0 });

/** A value read from the inventory. */
const tested = derivedValue('test', ['inventory']);

/** A cache of values read from the inventory, following `source`. */
const cacheOf = <V>(source: { version: number }, options: DerivedCacheOptions<V>) => new DerivedCache<V>(new ChangeVersions(source), tested, options);

/** A value computed at most once per call of `compute`, counting computations. */
function counted<V>(value: V) {
  const calls = { count: 0 };
  return { calls, compute: () => (calls.count++, value) };
}

describe('DerivedCache', () => {
  it('computes a value once per version and drops everything when the version changes', () => {
    const source = data();
    const cache = cacheOf<string>(source, { bound: { entries: 10 } });
    const { calls, compute } = counted('a');
    expect(cache.getOrCompute('k', compute)).toBe('a');
    expect(cache.getOrCompute('k', compute)).toBe('a');
    expect(calls.count).toBe(1);
    source.version++;
    expect(cache.get('k')).toBeUndefined();
    expect(cache.weight).toBe(0);
    expect(cache.getOrCompute('k', compute)).toBe('a');
    expect(calls.count).toBe(2);
  });

  it('does not keep a value whose computation wrote', () => {
    const source = data();
    const cache = cacheOf<string>(source, { bound: { entries: 10 } });
    expect(cache.getOrCompute('k', () => (source.version++, 'read inside a write'))).toBe('read inside a write');
    expect(cache.get('k')).toBeUndefined();
  });

  it('keeps nothing for a lookup that finds nothing, so that asking for what does not exist fills nothing', () => {
    const cache = cacheOf<string | undefined>(data(), { bound: { entries: 1 } });
    cache.getOrCompute('valid', () => 'organization');
    for (const key of ['tried-1', 'tried-2']) expect(cache.getOrCompute(key, () => undefined)).toBeUndefined();
    expect(cache.get('valid')).toBe('organization');
    expect(cache.weight).toBe(1);
  });

  it('drops the least recently used entries past a bound in entries', () => {
    const cache = cacheOf<number>(data(), { bound: { entries: 3 } });
    for (const key of ['a', 'b', 'c']) cache.getOrCompute(key, () => 1);
    cache.get('a');
    cache.getOrCompute('d', () => 1);
    expect(['a', 'b', 'c', 'd'].map((key) => cache.get(key) !== undefined)).toEqual([true, false, true, true]);
    expect(cache.weight).toBe(3);
  });

  it('drops the least recently used entries past a bound in weight, and keeps nothing heavier than the bound', () => {
    const cache = cacheOf<Int32Array>(data(), { bound: { weight: 100, weigh: (rows) => rows.length } });
    for (const key of ['a', 'b', 'c']) cache.getOrCompute(key, () => new Int32Array(30));
    cache.get('a');
    cache.getOrCompute('d', () => new Int32Array(30));
    expect(['a', 'b', 'c', 'd'].map((key) => cache.get(key) !== undefined)).toEqual([true, false, true, true]);
    expect(cache.weight).toBe(90);
    expect(cache.getOrCompute('huge', () => new Int32Array(101))).toHaveLength(101);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.weight).toBe(90);
  });

  it('keeps a value from its second request when asked to, remembering a bounded number of first requests', () => {
    const cache = cacheOf<string>(data(), { bound: { entries: 10 }, keepFromSecondRequest: { remembered: 3 } });
    cache.getOrCompute('polled', () => 'page');
    expect(cache.get('polled')).toBeUndefined();
    cache.getOrCompute('polled', () => 'page');
    expect(cache.get('polled')).toBe('page');
    // Past the remembered first requests, the oldest is forgotten: its next request is a first one again.
    for (const key of ['a', 'b', 'c', 'd']) cache.getOrCompute(key, () => key);
    cache.getOrCompute('a', () => 'a');
    expect(cache.get('a')).toBeUndefined();
    cache.getOrCompute('d', () => 'd');
    expect(cache.get('d')).toBe('d');
  });

  it('forgets first requests oldest first, however many keys pass and some are asked again', () => {
    const cache = cacheOf<string>(data(), { bound: { entries: 10 }, keepFromSecondRequest: { remembered: 3 } });
    const ask = (key: string) => cache.getOrCompute(key, () => key);
    for (const key of ['a', 'b', 'c', 'b', 'd', 'e', 'f']) ask(key);
    // b was asked again (kept); a and c were dropped, oldest first, to make room for e and f.
    expect(cache.get('b')).toBe('b');
    ask('c');
    expect(cache.get('c')).toBeUndefined();
    // Many more keys, every third asked twice in a row: the last three asked once are remembered.
    for (let i = 0; i < 1000; i++) {
      ask(`k${i}`);
      if (i % 3 === 0) ask(`k${i}`);
    }
    for (const key of ['k998', 'k997', 'k995', 'k994']) ask(key);
    expect([cache.get('k998'), cache.get('k997'), cache.get('k995'), cache.get('k994')]).toEqual(['k998', 'k997', undefined, undefined]);
  });

  it('shares one asynchronous computation between the callers that wait for it', async () => {
    const cache = cacheOf<string>(data(), { bound: { entries: 10 } });
    let computations = 0;
    const compute = async () => {
      computations++;
      await new Promise((resolve) => setImmediate(resolve));
      return 'columns';
    };
    expect(await Promise.all([cache.settled('k', compute), cache.settled('k', compute)])).toEqual(['columns', 'columns']);
    expect(await cache.settled('k', compute)).toBe('columns');
    expect(computations).toBe(1);
  });

  it('starts a computation again when the data changes while it pauses, answering for the new data', async () => {
    const source = data();
    const cache = cacheOf<number>(source, { bound: { entries: 10 } });
    const started: number[] = [];
    const pending = cache.settled('k', async (checkpoint) => {
      const version = source.version;
      started.push(version);
      await new Promise((resolve) => setImmediate(resolve));
      checkpoint();
      return version;
    });
    source.version++;
    expect(await pending).toBe(1);
    expect(started).toEqual([0, 1]);
  });

  it('keeps an asynchronous computation as its value, weighed by a bound in weight', async () => {
    const cache = cacheOf<number[]>(data(), { bound: { weight: 5, weigh: (value) => value.length } });
    let computations = 0;
    const compute = (length: number) => async () => {
      computations++;
      await new Promise((resolve) => setImmediate(resolve));
      return Array.from({ length }, (_, i) => i);
    };
    expect(await cache.settled('small', compute(3))).toEqual([0, 1, 2]);
    expect(cache.weight).toBe(3);
    expect(await cache.settled('small', compute(3))).toEqual([0, 1, 2]);
    expect(computations).toBe(1);
    // Heavier than the whole bound: answered, not kept, computed again when asked again.
    expect(await cache.settled('large', compute(6))).toHaveLength(6);
    expect(await cache.settled('large', compute(6))).toHaveLength(6);
    expect(computations).toBe(3);
    expect(cache.weight).toBe(3);
  });

  it('does not keep a failed computation', async () => {
    const cache = cacheOf<string>(data(), { bound: { entries: 10 } });
    let attempt = 0;
    const compute = async () => {
      if (++attempt === 1) throw new Error('the read failed');
      return 'read';
    };
    await expect(cache.settled('k', compute)).rejects.toThrow('the read failed');
    expect(await cache.settled('k', compute)).toBe('read');
  });
});
