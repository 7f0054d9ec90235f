import zlib from 'node:zlib';
import { type LogFrame, type LogFrameRef, logFormat, type PageFrameRef } from './change-log.js';
import { files } from './engine-files.js';
import { type DeltaBase, inflatePage } from './page-delta.js';
import { decodeStamp, type SequenceStamp } from './sequence-stamp.js';
import { decodeStatement, type RecordedStatement } from './statement-codec.js';

const {
  magic,
  pagesOnlyMagic,
  headerBytes,
  legacyMagic,
  writeFrame,
  truncateFrame,
  commitFrame,
  statementFrame,
  durationFrame,
  foldFrame,
  deltaFrame,
  endMark,
  writeHeaderBytes,
  deltaHeaderBytes,
  truncateBytes,
  statementHeaderBytes,
  durationBytes,
  foldBytes,
  commitBytes,
} = logFormat;

/** A log file is read this much at a time: a log of any size is read in bounded memory. */
const windowBytes = 4 * 2 ** 20;
/** The deltas an open applies are read this much at a time. */
const deltaWindowBytes = 2 ** 20;

/**
 * A log's header, committed transactions, located, and where the last of them ends (the rest is
 * a torn tail). The header is the log's stamp, `legacy` for a log written before sequences, or
 * undefined when it cannot be read (a crash as the log was created): such a log holds nothing.
 */
export interface ScannedLog {
  header: SequenceStamp | 'legacy' | undefined;
  transactions: LogFrameRef[][];
  committedBytes: number;
}

/** Returns up to `length` bytes at `position` of a log (fewer at its end), valid until the next call. */
type ReadAt = (position: number, length: number) => Buffer;

/** Asked of whoever runs a scan in slices: another turn of the event loop. */
export interface Pause {
  kind: 'pause';
}

/**
 * Walks a log's transactions, checking each commit frame's length and CRC-32; everything after
 * the last intact commit is left out. Frames are returned by position, not copied. It pauses
 * after each window's worth of bytes, so that a checkpoint scans a large log between requests.
 */
function* scanLog(read: ReadAt): Generator<Pause, ScannedLog, void> {
  const transactions: LogFrameRef[][] = [];
  const isLegacy = read(0, legacyMagic.length).equals(legacyMagic);
  const current = isLegacy ? undefined : decodeStamp(magic, read(0, headerBytes));
  const header = isLegacy ? 'legacy' : (current ?? decodeStamp(pagesOnlyMagic, read(0, headerBytes)));
  // Statements, their durations and folds are frames of `RCLOG 3` only: in an older log they are a corrupt tail.
  const takesStatements = current !== undefined;
  if (!header) return { header, transactions, committedBytes: 0 };
  let committedBytes = isLegacy ? legacyMagic.length : headerBytes;
  let position = committedBytes;
  let frames: LogFrameRef[] = [];
  let checksum = 0;
  for (;;) {
    const kind = read(position, 1)[0];
    if (kind === writeFrame || (kind === deltaFrame && takesStatements)) {
      // Both a u32 body length and a u64 offset; a delta's header then gives its page's length.
      const isDelta = kind === deltaFrame;
      const frameHeaderBytes = isDelta ? deltaHeaderBytes : writeHeaderBytes;
      const frameHeader = read(position, frameHeaderBytes);
      if (frameHeader.length < frameHeaderBytes) break;
      const bodyBytes = frameHeader.readUInt32LE(1);
      const frame = read(position, frameHeaderBytes + bodyBytes);
      if (frame.length < frameHeaderBytes + bodyBytes) break;
      const [offset, bodyAt] = [Number(frame.readBigUInt64LE(5)), position + frameHeaderBytes];
      // Literals of one shape each, not spread from a shared one: a frame made by a spread took
      // about 290 bytes of heap (66 so), 41 MiB for the 148,000 frames of a replacement of `large`.
      frames.push(isDelta ? { kind: 'write', offset, position: bodyAt, length: frame.readUInt32LE(13), deflatedBytes: bodyBytes } : { kind: 'write', offset, position: bodyAt, length: bodyBytes });
      checksum = zlib.crc32(frame, checksum);
      position += frame.length;
      if (Math.floor(position / windowBytes) !== Math.floor((position - frame.length) / windowBytes)) yield { kind: 'pause' };
    } else if (kind === truncateFrame) {
      const frame = read(position, truncateBytes);
      if (frame.length < truncateBytes) break;
      frames.push({ kind: 'truncate', size: Number(frame.readBigUInt64LE(1)) });
      checksum = zlib.crc32(frame, checksum);
      position += truncateBytes;
    } else if (kind === statementFrame && takesStatements) {
      const frameHeader = read(position, statementHeaderBytes);
      if (frameHeader.length < statementHeaderBytes) break;
      const length = frameHeader.readUInt32LE(1);
      const frame = read(position, statementHeaderBytes + length);
      if (frame.length < statementHeaderBytes + length) break;
      frames.push({ kind: 'statement', length, position: position + statementHeaderBytes });
      checksum = zlib.crc32(frame, checksum);
      position += frame.length;
      if (Math.floor(position / windowBytes) !== Math.floor((position - frame.length) / windowBytes)) yield { kind: 'pause' };
    } else if ((kind === durationFrame || kind === foldFrame) && takesStatements) {
      const frame = read(position, kind === durationFrame ? durationBytes : foldBytes);
      if (frame.length < (kind === durationFrame ? durationBytes : foldBytes)) break;
      frames.push(kind === durationFrame ? { kind: 'duration', microseconds: frame.readUInt32LE(1) } : { kind: 'truncate', size: Number(frame.readBigUInt64LE(1)), fold: true });
      checksum = zlib.crc32(frame, checksum);
      position += frame.length;
    } else if (kind === commitFrame) {
      const frame = read(position, commitBytes);
      const intact =
        frame.length === commitBytes &&
        frame.readUInt32LE(13) === endMark &&
        Number(frame.readBigUInt64LE(1)) === position - committedBytes &&
        frame.readUInt32LE(9) === checksum;
      if (!intact) break;
      position += commitBytes;
      transactions.push(frames);
      frames = [];
      checksum = 0;
      committedBytes = position;
    } else {
      break;
    }
  }
  return { header, transactions, committedBytes };
}

/** A frame parsed from bytes in memory: a page's bytes, a delta's (still deflated), or a statement decoded. */
export type ParsedFrame =
  | LogFrame
  | { kind: 'delta'; offset: number; length: number; deflated: Uint8Array }
  | { kind: 'statement'; statement: RecordedStatement }
  | Exclude<LogFrameRef, { kind: 'write' | 'statement' }>;

/** Parses log bytes held in memory; everything after the last intact commit is left out. */
export function parseLog(bytes: Uint8Array): { header: ScannedLog['header']; transactions: ParsedFrame[][]; committedBytes: number } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { header, transactions, committedBytes } = toEnd(scanLog((position, length) => buffer.subarray(position, position + length)));
  return {
    header,
    transactions: transactions.map((frames) =>
      frames.map((frame): ParsedFrame => {
        if (frame.kind === 'write' && frame.deflatedBytes !== undefined)
          return { kind: 'delta', offset: frame.offset, length: frame.length, deflated: buffer.subarray(frame.position, frame.position + frame.deflatedBytes) };
        if (frame.kind === 'write') return { kind: 'write', offset: frame.offset, bytes: buffer.subarray(frame.position, frame.position + frame.length) };
        if (frame.kind === 'statement') return { kind: 'statement', statement: decodeStatement(buffer.subarray(frame.position, frame.position + frame.length)) };
        return frame;
      }),
    ),
    committedBytes,
  };
}

/**
 * Scans the log open at `fd` a window at a time, keeping only where its frames are; run it with
 * `yield*` between requests, or to its end with {@link toEnd}.
 */
export function scanLogFile(fd: number): Generator<Pause, ScannedLog, void> {
  // One buffer, read into again for each window (a larger one only for a frame larger than it):
  // a new buffer per window left each to the collector, and the checkpoint that ends a full sync
  // of `large` held about 50 MiB of them at once, its process's peak.
  let buffer = Buffer.allocUnsafe(windowBytes);
  let window = buffer.subarray(0, 0);
  let windowStart = 0;
  return scanLog((position, length) => {
    if (position < windowStart || position + length > windowStart + window.length) {
      if (length > buffer.length) buffer = Buffer.allocUnsafe(length);
      window = buffer.subarray(0, readFully(fd, buffer, position));
      windowStart = position;
    }
    return window.subarray(position - windowStart, position - windowStart + length);
  });
}

/** The bytes of a write (not a delta: {@link framesWithBytes}) or statement frame of the log open at `fd`. */
export function readFrameBytes(fd: number, frame: Extract<LogFrameRef, { kind: 'write' | 'statement' }>, into = Buffer.allocUnsafe(frame.length)): Buffer {
  if ('deflatedBytes' in frame && frame.deflatedBytes !== undefined) throw new Error('A delta page was read as a whole page');
  if (readFully(fd, into.subarray(0, frame.length), frame.position) < frame.length) throw new Error('A change log is shorter than its committed frames');
  return into.subarray(0, frame.length);
}

/**
 * The page frames of `transactions`, with their bytes read from the log open at `fd` one at a
 * time; a delta's are inflated against `base`, unless `skip` says a later frame replaces them
 * (then it is left out: its base may be gone, when a checkpoint was writing the snapshot).
 */
export function* framesWithBytes(
  fd: number,
  transactions: readonly (readonly LogFrameRef[])[],
  base?: DeltaBase,
  skip: (frame: PageFrameRefOfWrite) => boolean = () => false,
): Generator<LogFrame> {
  const bodies = new DeltaBodies(fd);
  for (const frames of transactions) {
    for (const frame of frames) {
      if (frame.kind === 'write' && frame.deflatedBytes !== undefined) {
        if (skip(frame)) continue;
        if (!base) throw new Error('A change log holds a delta page, and no snapshot was given to read it against');
        const deflated = bodies.of(frame);
        yield { kind: 'write', offset: frame.offset, bytes: inflatePage(deflated, base.read(frame.offset, frame.length), frame.length) };
      } else if (frame.kind === 'write') yield { kind: 'write', offset: frame.offset, bytes: readFrameBytes(fd, frame) };
      else if (frame.kind === 'truncate') yield { kind: 'truncate', size: frame.size };
    }
  }
}

/**
 * The bodies of delta frames (pages deflated) of the log open at `fd`, read a window at a time:
 * they are a few hundred bytes each, in the order of the file. Each is valid until the next.
 */
export class DeltaBodies {
  private window = Buffer.allocUnsafe(0);
  private start = 0;
  private length = 0;

  constructor(private readonly fd: number) {}

  of(frame: PageFrameRefOfWrite): Buffer {
    const bytes = frame.deflatedBytes;
    if (bytes === undefined) throw new Error('A whole page was read as a delta');
    if (frame.position < this.start || frame.position + bytes > this.start + this.length) {
      if (this.window.length < bytes) this.window = Buffer.allocUnsafe(Math.max(bytes, deltaWindowBytes));
      this.start = frame.position;
      this.length = readFully(this.fd, this.window, frame.position);
      if (this.length < bytes) throw new Error('A change log is shorter than its committed frames');
    }
    return this.window.subarray(frame.position - this.start, frame.position - this.start + bytes);
  }
}

/** A write or delta frame, located. */
export type PageFrameRefOfWrite = Extract<PageFrameRef, { kind: 'write' }>;

/** Runs a scan to its end at once. */
export function toEnd<T>(steps: Generator<Pause, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

function readFully(fd: number, into: Buffer, position: number): number {
  let read = 0;
  while (read < into.length) {
    const got = files.readSync(fd, into, read, into.length - read, position + read);
    if (got === 0) break;
    read += got;
  }
  return read;
}
