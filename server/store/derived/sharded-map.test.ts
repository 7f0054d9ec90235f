import type { SqlValue } from 'sql.js';
import { describe, expect, it } from 'vitest';
import { ShardedMap, shardOf } from './sharded-map.js';

describe('ShardedMap', () => {
  it('finds each key as one Map does, -0 as 0 and NaN as NaN', () => {
    const blob = new Uint8Array([1, 2, 3]);
    const keys: SqlValue[] = ['', 'a', 'CVE-2024-0001', '2025-03-14T09:26:53.589Z', 'é😀', 0, 7.5, -1, 1.7e12, Number.NaN, Infinity, null, blob];
    const sharded = new ShardedMap<number>();
    const plain = new Map<SqlValue, number>();
    keys.forEach((key, i) => {
      sharded.set(key, i);
      plain.set(key, i);
    });
    for (const key of [...keys, -0, Number.NaN, 'b', 8, new Uint8Array([1, 2, 3])]) expect(sharded.get(key)).toBe(plain.get(key));
    sharded.set(-0, 99);
    expect(sharded.get(0)).toBe(99);
  });

  it('spreads the values lists sort by evenly over its shards', () => {
    const kinds: Record<string, SqlValue[]> = {
      instants: Array.from({ length: 100_000 }, (_, i) => new Date(1.6e12 + i * 7919).toISOString()),
      'CVE ids': Array.from({ length: 100_000 }, (_, i) => `CVE-${2000 + (i % 25)}-${String(1000 + i).padStart(5, '0')}`),
      hostnames: Array.from({ length: 100_000 }, (_, i) => `host-${String(i).padStart(5, '0')}.corp.example.com`),
      'whole numbers': Array.from({ length: 100_000 }, (_, i) => 1.7e12 + i * 86_400_000),
    };
    for (const [kind, values] of Object.entries(kinds)) {
      const sizes = new Map<number, number>();
      for (const value of values) sizes.set(shardOf(value), (sizes.get(shardOf(value)) ?? 0) + 1);
      const mean = values.length / 256;
      expect(sizes.size, kind).toBe(256);
      expect(Math.max(...sizes.values()), kind).toBeLessThan(1.5 * mean);
    }
  });
});
