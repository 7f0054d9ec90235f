import type { SqlValue } from 'sql.js';

/** How many maps a {@link ShardedMap} spreads its keys over: a power of two. */
const shardCount = 256;

/**
 * The shard of a value: a hash, the same for values a Map takes for one key (-0 and 0, NaN and
 * NaN). A string's is FNV-1a over all its UTF-16 units: hashing some of them only left lists'
 * values (hostnames differing in a few digits) in a few shards. It costs about as much as the
 * Map's own hashing of the string.
 */
export function shardOf(value: SqlValue): number {
  if (typeof value === 'string') {
    let hash = 0x811c9dc5;
    for (let i = 0; i < value.length; i++) hash = Math.imul(hash ^ value.charCodeAt(i), 0x01000193);
    return (hash ^ (hash >>> 16)) & (shardCount - 1);
  }
  if (typeof value === 'number') {
    // Both 32-bit halves of 1009 × the value, mixed: whole days in milliseconds share their low
    // ten bits, and a fraction (CVSS 7.5) counts. NaN and ±Infinity go to 0.
    const scaled = value * 1009;
    let hash = (scaled | 0) ^ ((scaled / 2 ** 32) | 0);
    hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
    return (hash ^ (hash >>> 16)) & (shardCount - 1);
  }
  return value === null ? 0 : value.length & (shardCount - 1);
}

/**
 * A Map from SQL values, split over {@link shardCount} maps by {@link shardOf}. A Map grows by
 * rehashing every key it holds in one step, which no pause can split: one `set` took 153–301 ms
 * at 2^20 keys, and ranking a million distinct first-detection instants held the thread that
 * answers requests 56 ms in one such step. Split, each step rehashes a 256th as many; since the
 * keys spread evenly, the shards grow at about the same moment, and 2,048 keys set one after
 * the other took at most 15–18 ms around a million (64 shards: 21–36 ms). Setting a million
 * keys takes about 1.3 times as long as in one Map.
 */
export class ShardedMap<V> {
  private readonly shards = Array.from({ length: shardCount }, () => new Map<SqlValue, V>());

  get(key: SqlValue): V | undefined {
    return this.shards[shardOf(key)]!.get(key);
  }

  set(key: SqlValue, value: V): void {
    this.shards[shardOf(key)]!.set(key, value);
  }
}
