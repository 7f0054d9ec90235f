/**
 * A small seeded pseudo-random generator (sfc32, seeded through splitmix32), so that the demo
 * data is the same for the same seed on every machine and Node version: Math.random cannot be
 * seeded, and node:crypto would make every run different.
 */

const TWO_POW_32 = 4_294_967_296;

/** FNV-1a of a string: turns a stream name into seed material. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** One step of splitmix32: spreads similar seeds (1, 2, 3...) over unrelated states. */
function splitmix32(state: number): number {
  let z = (state + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

// UUIDs are written into one reused buffer and decoded once: concatenating 20 pieces would leave
// a rope of small strings behind each of the million ids of the large dataset.
const uuidBuffer = Buffer.alloc(36, 0x2d); // '-' at 8, 13, 18 and 23 stays put
const hexDigits = Buffer.from('0123456789abcdef', 'latin1');
const uuidCharOffset = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/** A seeded random stream. Separate streams (by name) keep each part of the data independent of the others. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /**
   * @param seed any safe integer
   * @param stream the name of the stream: the same seed gives unrelated numbers for different names
   */
  constructor(seed: number, stream: string) {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, not ${seed}`);
    const low = seed >>> 0;
    const high = Math.floor(seed / TWO_POW_32) >>> 0;
    const name = fnv1a(stream);
    this.a = splitmix32(low ^ name);
    this.b = splitmix32(high ^ Math.imul(name, 0x9e3779b1));
    this.c = splitmix32(this.a ^ 0x5bd1e995);
    this.d = 1;
    // The first outputs of a fresh sfc32 state are poorly mixed.
    for (let i = 0; i < 15; i++) this.uint32();
  }

  /** A uniformly distributed unsigned 32-bit integer. */
  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.uint32() / TWO_POW_32;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** An integer in [min, max], both included. */
  intBetween(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** One item of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)] as T;
  }

  /**
   * An index drawn by weight.
   * @param cumulative running sums of the weights (the last one is the total)
   */
  weighted(cumulative: ArrayLike<number>): number {
    const last = cumulative.length - 1;
    const x = this.float() * (cumulative[last] as number);
    let lo = 0;
    let hi = last;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] as number) > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /**
   * An index of a list of n items, newer (higher) indexes more likely: fleets run mostly recent
   * versions and a tail of old ones.
   */
  skewedToLast(n: number): number {
    return Math.min(n - 1, Math.floor(this.float() ** 0.9 * n));
  }

  /** Shuffles the array in place (Fisher-Yates). */
  shuffle(items: Int32Array): Int32Array {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.float() * (i + 1));
      const t = items[i] as number;
      items[i] = items[j] as number;
      items[j] = t;
    }
    return items;
  }

  /** A random RFC 4122 version-4 UUID, lowercase. */
  uuid(): string {
    const buffer = uuidBuffer;
    for (let word = 0; word < 4; word++) {
      let bits = this.uint32();
      for (let k = 0; k < 4; k++) {
        const index = word * 4 + k;
        let byte = bits & 0xff;
        bits >>>= 8;
        if (index === 6) byte = (byte & 0x0f) | 0x40; // version 4
        else if (index === 8) byte = (byte & 0x3f) | 0x80; // RFC 4122 variant
        const at = uuidCharOffset[index] as number;
        buffer[at] = hexDigits[byte >>> 4] as number;
        buffer[at + 1] = hexDigits[byte & 0x0f] as number;
      }
    }
    return buffer.toString('latin1', 0, 36);
  }
}
