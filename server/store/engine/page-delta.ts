import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import type * as Fflate from 'fflate';
import type { PageFrameRef } from './change-log.js';
import { files, isMissing } from './engine-files.js';

/**
 * A fold's pages as deltas (the log's `D` frames, change-log.ts): a page's bytes as raw DEFLATE
 * with the snapshot's bytes at its offset as the preset dictionary, so that what a page shares
 * with its version in the snapshot (most of it, after a 1 % sync) costs a back-reference.
 * On `large`, the 61,367 pages three days of 1 % syncs changed (240 MiB) took 10.7 MiB so
 * (docs/decisions/the-engine-sqljs-on-disk/a-folds-pages-are-deltas.md).
 */

/** Level 1: level 6 saved a tenth of the bytes for a third more time. */
const level = 1;

/** `page` deflated against `base`, its bytes in the snapshot (as long as it). */
export function deflatePage(page: Uint8Array, base: Uint8Array): Buffer {
  return zlib.deflateRawSync(page, { level, dictionary: base });
}

/**
 * fflate, loaded by the first delta applied: its module takes about 75 ms to load, which every
 * command that opens a store would pay (store/intel/intel-archive.ts loads it so too).
 */
let fflate: typeof Fflate | undefined;
const inflateSync = (data: Uint8Array, options: Fflate.InflateOptions) => (fflate ??= createRequire(import.meta.url)('fflate') as typeof Fflate).inflateSync(data, options);

/** Where {@link inflatePage} inflates: one byte more than a page, to tell a delta that gives more. */
let inflated = new Uint8Array(4097);

/**
 * The page `deflated` holds, given `base`, valid until the next call; throws unless it is
 * exactly `pageBytes` long. fflate, into one buffer used again: zlib's `inflateRawSync` makes a
 * stream and a buffer for each page, and at `serve`'s start 88,000 deltas of a week took 14 µs
 * each with it, a third of that in its constructor and the collector.
 */
export function inflatePage(deflated: Uint8Array, base: Uint8Array, pageBytes: number): Uint8Array {
  if (inflated.length !== pageBytes + 1) inflated = new Uint8Array(pageBytes + 1);
  const page = inflateSync(deflated, { dictionary: base, out: inflated });
  if (page.length !== pageBytes) throw new Error(`A change log's delta page gives ${page.length === inflated.length ? 'more than' : page.length} bytes, not ${pageBytes}`);
  return page;
}

/** Where an open reads the snapshot's bytes a delta was taken against. */
export interface DeltaBase {
  /** `length` bytes at `offset`, valid until the next read. */
  read(offset: number, length: number): Uint8Array;
}

/**
 * The snapshot file's bytes, read where deltas were taken against them: from the file as it is
 * on disk (never from an image a replay changed in place), zeros past its end.
 */
export class SnapshotBase implements DeltaBase {
  private fd: number | undefined;
  private missing = false;

  private constructor(
    private readonly file: string | undefined,
    fd: number | undefined,
    /** Whether {@link close} closes the descriptor (it was opened here). */
    private readonly owned: boolean,
  ) {
    this.fd = fd;
  }

  /** The snapshot at `file`, opened when first read. */
  static ofFile(file: string): SnapshotBase {
    return new SnapshotBase(file, undefined, true);
  }

  /** The snapshot open at `fd`, which stays open after {@link close}. */
  static ofDescriptor(fd: number): SnapshotBase {
    return new SnapshotBase(undefined, fd, false);
  }

  /** The snapshot's bytes at `offset`, `length` of them. */
  read(offset: number, length: number): Buffer {
    const into = Buffer.alloc(length);
    const fd = this.descriptor();
    if (fd === undefined) return into;
    let read = 0;
    while (read < length) {
      const got = files.readSync(fd, into, read, length - read, offset + read);
      if (got === 0) break;
      read += got;
    }
    return into;
  }

  /** Makes the snapshot's bytes durable, so that a power loss cannot take back the bytes a delta is taken against. */
  sync(): void {
    const fd = this.descriptor();
    if (fd !== undefined) files.fdatasyncSync(fd);
  }

  close(): void {
    if (this.owned && this.fd !== undefined) files.closeSync(this.fd);
    this.fd = undefined;
    // A checkpoint may create the file: the next read looks again.
    this.missing = false;
  }

  private descriptor(): number | undefined {
    if (this.fd !== undefined || this.missing || this.file === undefined) return this.fd;
    try {
      this.fd = files.openSync(this.file, 'r');
    } catch (error) {
      // A store whose first checkpoint has not run yet: its deltas were taken against nothing.
      if (!isMissing(error)) throw error;
      this.missing = true;
    }
    return this.fd;
  }
}

/**
 * The pages of `deltas` that a frame before their last delta writes or cuts (a page
 * transaction's, a truncation's): an open that applies the frames in order onto the
 * snapshot's bytes has lost their base by the time it meets the delta, and reads it from the
 * file. Every other page still holds its base in the image then.
 */
export function basesOverwritten(frames: Iterable<PageFrameRef>, deltas: ReturnType<typeof lastDeltas>): Set<number> {
  const overwritten = new Set<number>();
  if (deltas.size === 0) return overwritten;
  const unit = deltas.values().next().value!.length;
  const pending = new Set(deltas.keys());
  for (const frame of frames) {
    if (pending.size === 0) break;
    if (frame.kind === 'write' && frame.deflatedBytes !== undefined) {
      if (deltas.get(frame.offset) === frame) pending.delete(frame.offset);
    } else if (frame.kind === 'write') {
      for (let page = frame.offset - (frame.offset % unit); page < frame.offset + frame.length; page += unit) {
        if (pending.delete(page)) overwritten.add(page);
      }
    } else {
      for (const page of pending) {
        if (page + unit > frame.size) {
          pending.delete(page);
          overwritten.add(page);
        }
      }
    }
  }
  return overwritten;
}

/** Pages logged as deltas: their offsets and their size. */
export interface DeltaPages {
  offsets: number[];
  pageBytes: number;
}

/**
 * The delta frames among `frames` (in log order) that give their page its last version: no
 * later write covers the page and no later truncation cut it. An open applies only these (an
 * earlier one's base may be gone, when a checkpoint was writing the snapshot: the checkpoint
 * logged each such page whole first), and a writer taking over the logs knows them as its
 * pages logged as deltas, to log whole before its first checkpoint.
 */
export function lastDeltas(frames: Iterable<PageFrameRef>): Map<number, Extract<PageFrameRef, { kind: 'write' }>> {
  const last = new Map<number, Extract<PageFrameRef, { kind: 'write' }>>();
  let unit = Infinity;
  for (const frame of frames) {
    if (frame.kind === 'write' && frame.deflatedBytes !== undefined) {
      last.set(frame.offset, frame);
      unit = Math.min(unit, frame.length);
    } else if (last.size === 0) continue;
    else if (frame.kind === 'write') {
      for (let offset = frame.offset - (frame.offset % unit); offset < frame.offset + frame.length; offset += unit) last.delete(offset);
    } else {
      for (const offset of last.keys()) if (offset + unit > frame.size) last.delete(offset);
    }
  }
  return last;
}
