import { files } from './engine-files.js';
import { inflatePage } from './page-delta.js';

/** How the snapshot is read: up to `length` bytes at `position` into `into` at `offset`, fewer only past its end. */
export interface SnapshotReader {
  readSync(into: Uint8Array, offset: number, length: number, position: number): number;
  close(): void;
}

/** A snapshot held in memory (the tap's probe, tests). */
export function readerOfBytes(bytes: Uint8Array): SnapshotReader {
  return {
    readSync: (into, offset, length, position) => {
      const read = Math.max(0, Math.min(length, bytes.length - position));
      into.set(bytes.subarray(position, position + read), offset);
      return read;
    },
    close: () => undefined,
  };
}

/**
 * The unit pages are tracked and read in: SQLite's page size, and a multiple of every smaller
 * one. Only the units a read reaches are read: reading the unread ones of an aligned window
 * around each made the counts of a sync read many times more of the file, an index's pages
 * lying among the table's.
 */
const unitBytes = 4096;
/** {@link SnapshotPages.readAll} reads this much at a time. */
const readAllBytes = 16 * 2 ** 20;

/**
 * The snapshot's bytes that have not been read into sql.js's in-memory file yet, read there when
 * SQLite first reads them. A command that changes a few rows (a key, a sync that finds nothing
 * new) then reads the pages it uses, not the whole file (copied whole before anything else
 * could run, and held in memory). sql.js's file system holds `image` itself, not a copy (the
 * tap checks it when the module loads), so bytes read into it are what SQLite reads next.
 *
 * That file system replaces its array when the file is truncated or grows past it, copying the
 * bytes not read yet as zeros: the whole snapshot is read first ({@link beforeResize},
 * {@link beforeWrite}). Bytes written or truncated away are never read from the snapshot again,
 * so a checkpoint, which changes in the snapshot only pages the logs hold, never changes one
 * still to be read; the data directory's lock keeps every other writer out meanwhile.
 *
 * A page whose last version in the logs is a delta (page-delta.ts) is made when it is first
 * read too ({@link deferDelta}): its base read from the snapshot, then the delta inflated over
 * it. A command after a week of folds otherwise applied all 88,000 at its open, about a second,
 * and kept them resident. A checkpoint reads each such page (to log it whole) before it writes
 * the snapshot.
 */
export class SnapshotPages {
  /** One byte per unit of the snapshot: 1 once its bytes in `image` are the current ones. */
  private readonly current: Uint8Array;
  private unread: number;
  private closed = false;
  /** The deltas of units not read yet, deflated: applied over the unit's snapshot bytes when it is read. */
  private readonly deltas = new Map<number, Uint8Array>();
  /**
   * The time spent applying them so far: the replay budget counts each delta once, as what
   * `serve`'s open takes to apply it, so the statements timed around a read that applied some
   * leave this time out (Database.elapsedMicroseconds).
   */
  deltaMicroseconds = 0;

  constructor(
    /** The array sql.js's file system is given: the snapshot's bytes, then room. */
    readonly image: Uint8Array,
    private readonly snapshotBytes: number,
    private readonly reader: SnapshotReader,
  ) {
    const units = Math.ceil(snapshotBytes / unitBytes);
    this.current = new Uint8Array(units);
    this.unread = units;
  }

  /** A snapshot file's pages, read from `fd` (closed by {@link close}). */
  static ofFile(fd: number, image: Uint8Array, snapshotBytes: number): SnapshotPages {
    return new SnapshotPages(image, snapshotBytes, {
      readSync: (into, offset, length, position) => files.readSync(fd, into, offset, length, position),
      close: () => files.closeSync(fd),
    });
  }

  /** Whether every byte of the snapshot is in `image`. */
  get complete(): boolean {
    return this.unread === 0;
  }

  /**
   * Whether a delta of a page of `pageBytes` at `offset` can wait for its page's first read: a
   * unit of the snapshot (one past it has no bytes to read; its base is zeros).
   */
  defers(offset: number, pageBytes: number): boolean {
    return pageBytes === unitBytes && offset % unitBytes === 0 && offset / unitBytes < this.current.length;
  }

  /**
   * Makes the page at `offset` the one `deflated` gives over the snapshot's bytes there, when it
   * is first read. Called after every frame of the logs is applied: it is the page's last
   * version, whatever an earlier frame wrote there ({@link defers} must hold).
   */
  deferDelta(offset: number, deflated: Uint8Array): void {
    const unit = offset / unitBytes;
    if (this.current[unit] === 1) {
      this.current[unit] = 0;
      this.unread++;
    }
    this.deltas.set(unit, deflated);
  }

  /** Before `length` bytes at `offset` are read from `image`: the units not read yet, each run of them in one read. */
  beforeRead(offset: number, length: number): void {
    if (this.unread === 0 || length <= 0) return;
    const end = Math.min(this.current.length, Math.floor((offset + length - 1) / unitBytes) + 1);
    for (let unit = Math.floor(offset / unitBytes); unit < end; ) {
      if (this.current[unit] === 1) {
        unit++;
        continue;
      }
      let runEnd = unit + 1;
      while (runEnd < end && this.current[runEnd] === 0) runEnd++;
      this.readRun(unit, runEnd);
      unit = runEnd;
    }
  }

  /**
   * Before `length` bytes are written at `offset` of `image`: the units the write covers whole
   * need no read, the ones it covers in part are read first. A write past the array makes the
   * file system replace it: everything is read first.
   */
  beforeWrite(offset: number, length: number): void {
    if (this.unread === 0 || length <= 0) return;
    if (offset + length > this.image.length) {
      this.readAll();
      return;
    }
    const end = offset + length;
    const first = Math.floor(offset / unitBytes);
    const last = Math.min(this.current.length - 1, Math.floor((end - 1) / unitBytes));
    for (let unit = first; unit <= last; unit++) {
      if (this.current[unit] === 1) continue;
      const unitStart = unit * unitBytes;
      const unitEnd = Math.min(unitStart + unitBytes, this.snapshotBytes);
      if (offset > unitStart || end < unitEnd) this.readRun(unit, unit + 1);
      else this.mark(unit);
    }
  }

  /** Before the in-memory file is truncated or extended: its file system copies it to a new array then. */
  beforeResize(): void {
    this.readAll();
  }

  /**
   * Before the image is cut to `size` bytes, then zeroed after it (a log's truncation replayed at
   * open): what lies after is never read from the snapshot again.
   */
  beforeTruncateOfImage(size: number): void {
    if (this.unread === 0) return;
    const boundary = Math.floor(size / unitBytes);
    if (size % unitBytes !== 0 && boundary < this.current.length && this.current[boundary] === 0) this.readRun(boundary, boundary + 1);
    for (let unit = Math.ceil(size / unitBytes); unit < this.current.length; unit++) if (this.current[unit] === 0) this.mark(unit);
  }

  /** Reads every unit not read yet. */
  readAll(): void {
    if (this.unread === 0) return;
    const unitsAtOnce = readAllBytes / unitBytes;
    for (let unit = 0; unit < this.current.length; ) {
      if (this.current[unit] === 1) {
        unit++;
        continue;
      }
      let end = unit + 1;
      while (end < this.current.length && end - unit < unitsAtOnce && this.current[end] === 0) end++;
      this.readRun(unit, end);
      unit = end;
    }
  }

  /** Closes the snapshot; the bytes not read by then are no longer needed (the store closes). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.reader.close();
  }

  /** Reads units [first, end) from the snapshot into the image. */
  private readRun(first: number, end: number): void {
    if (this.closed) throw new Error('The store is closed: its snapshot can no longer be read');
    const from = first * unitBytes;
    const to = Math.min(end * unitBytes, this.snapshotBytes);
    for (let position = from; position < to; ) {
      const read = this.reader.readSync(this.image, position, to - position, position);
      if (read <= 0) throw new Error(`The snapshot ended at ${position} bytes, before the ${this.snapshotBytes} it had when opened`);
      position += read;
    }
    if (this.deltas.size > 0) {
      const startedAt = performance.now();
      for (let unit = first; unit < end; unit++) {
        const deflated = this.deltas.get(unit);
        if (!deflated) continue;
        const at = unit * unitBytes;
        this.image.set(inflatePage(deflated, this.image.subarray(at, at + unitBytes), unitBytes), at);
      }
      this.deltaMicroseconds += (performance.now() - startedAt) * 1000;
    }
    for (let unit = first; unit < end; unit++) this.mark(unit);
  }

  /** The unit's bytes in `image` are the current ones: never read again, nor a delta applied to them. */
  private mark(unit: number): void {
    this.current[unit] = 1;
    this.unread--;
    this.deltas.delete(unit);
  }
}
