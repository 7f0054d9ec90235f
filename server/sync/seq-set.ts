/** Seqs a chunk of the bitmap covers: 8 KiB of bits. */
const chunkBits = 1 << 16;

/**
 * A set of rows' seqs (their rowids, non-negative integers) as a bitmap in chunks of 65,536
 * seqs, made as seqs land in them: one bit a row, whatever its id's length. A reconcile marks
 * the replica's rows the remote sent here; held as their id strings in a map, the million ids
 * of a `large` tenant's findings took about 75 MiB of the sync's peak
 * (docs/decisions/sync/a-full-sync-of-a-replica-with-data-compares-first.md).
 */
export class SeqSet {
  private readonly chunks = new Map<number, Uint32Array>();

  /** Whether `seq` is in the set. */
  has(seq: number): boolean {
    const chunk = this.chunks.get(Math.floor(seq / chunkBits));
    if (!chunk) return false;
    const bit = seq % chunkBits;
    return (chunk[bit >>> 5]! & (1 << (bit & 31))) !== 0;
  }

  /** Adds `seq`; answers false when it was in the set already. */
  add(seq: number): boolean {
    const key = Math.floor(seq / chunkBits);
    let chunk = this.chunks.get(key);
    if (!chunk) {
      chunk = new Uint32Array(chunkBits / 32);
      this.chunks.set(key, chunk);
    }
    const bit = seq % chunkBits;
    const mask = 1 << (bit & 31);
    if ((chunk[bit >>> 5]! & mask) !== 0) return false;
    chunk[bit >>> 5]! |= mask;
    return true;
  }
}
