import type { FileWriteSink } from './file-write-tap.js';

/**
 * The pages SQLite wrote since they were last handed to the change log, by offset only: their
 * bytes are read from the in-memory file when they are handed on, so a page written again and
 * again (a table's last leaf, an index's pages under a sync's staging) is logged once, in its
 * last version, and holding pages costs no memory. Least recently written first: the pages a
 * bulk write keeps coming back to are handed on last.
 *
 * A write that is not one whole aligned page, and a truncation, first hand on every held page,
 * so that the log keeps the order of overlapping writes.
 */
export class HeldPages {
  /** Offsets of the held pages, least recently written first (a Set keeps insertion order). */
  private readonly offsets = new Set<number>();
  private pageBytes = 0;
  private runBuffer = Buffer.alloc(0);

  constructor(
    private readonly sink: FileWriteSink,
    /** Reads the in-memory file's bytes at an offset. */
    private readonly readAt: (offset: number, into: Uint8Array) => void,
  ) {}

  /** The size of the pages held (0 before the first). */
  get pageSize(): number {
    return this.pageBytes;
  }

  /** The bytes held. */
  get bytes(): number {
    return this.offsets.size * this.pageBytes;
  }

  write(offset: number, bytes: Uint8Array): void {
    if (bytes.length !== this.pageBytes || bytes.length === 0 || offset % bytes.length !== 0) {
      this.handOn();
      if (bytes.length === 0 || offset % bytes.length !== 0) {
        this.sink.write(offset, bytes);
        return;
      }
      this.pageBytes = bytes.length;
    }
    this.offsets.delete(offset);
    this.offsets.add(offset);
  }

  /** Holds the page of `pageBytes` at `offset` as if SQLite had written it: it is handed on as the file holds it then. */
  hold(offset: number, pageBytes: number): void {
    if (pageBytes !== this.pageBytes) this.handOn();
    this.pageBytes = pageBytes;
    this.offsets.delete(offset);
    this.offsets.add(offset);
  }

  truncate(size: number): void {
    this.handOn();
    this.sink.truncate(size);
  }

  /**
   * Moves every held page to `other`, which then hands them on (or never: a statement log's
   * pages, durable-file.ts); this holds none after.
   */
  moveTo(other: HeldPages): void {
    if (this.offsets.size === 0) return;
    if (other.offsets.size > 0 && other.pageBytes !== this.pageBytes) other.handOn();
    other.pageBytes = this.pageBytes;
    for (const offset of this.offsets) {
      other.offsets.delete(offset);
      other.offsets.add(offset);
    }
    this.offsets.clear();
  }

  /** Forgets the held pages at or past `size` (the file was cut there). */
  dropFrom(size: number): void {
    for (const offset of this.offsets) if (offset >= size) this.offsets.delete(offset);
  }

  /** Hands on the least recently written pages, up to `maxBytes` of them (all by default). */
  handOn(maxBytes = Infinity): void {
    if (this.offsets.size === 0) return;
    const taken: number[] = [];
    for (const offset of this.offsets) {
      if (taken.length * this.pageBytes >= maxBytes) break;
      taken.push(offset);
    }
    // In file order, adjacent pages read and handed on together; a page stays held until it
    // is handed on, so a failure midway leaves the rest held.
    taken.sort((a, b) => a - b);
    const runPages = Math.max(1, Math.floor(2 ** 20 / this.pageBytes));
    // One buffer for every run, taken while in use (a hand-on the sink started would make its
    // own): the sink copies what it is given, and a new buffer per run left megabytes to the
    // collector with each slice of a settle.
    let buffer = this.runBuffer;
    this.runBuffer = Buffer.alloc(0);
    if (buffer.length < runPages * this.pageBytes) buffer = Buffer.allocUnsafe(runPages * this.pageBytes);
    try {
      for (let i = 0; i < taken.length; ) {
        let end = i + 1;
        while (end < taken.length && end - i < runPages && taken[end] === taken[end - 1]! + this.pageBytes) end++;
        const run = buffer.subarray(0, (end - i) * this.pageBytes);
        this.readAt(taken[i]!, run);
        this.sink.write(taken[i]!, run);
        for (let page = i; page < end; page++) this.offsets.delete(taken[page]!);
        i = end;
      }
    } finally {
      this.runBuffer = buffer;
    }
  }
}
