import fs from 'node:fs';
import zlib from 'node:zlib';
import { type LogFrame, type LogFrameRef, logFormat } from './change-log.js';

const { header, writeFrame, truncateFrame, commitFrame, endMark, writeHeaderBytes, truncateBytes, commitBytes } = logFormat;

/** A log file is read this much at a time: a log of any size is read in bounded memory. */
const windowBytes = 4 * 2 ** 20;

/** A log's committed transactions, located, and where the last of them ends (the rest is a torn tail). */
export interface ScannedLog {
  transactions: LogFrameRef[][];
  committedBytes: number;
}

/** Returns up to `length` bytes at `position` of a log (fewer at its end). */
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
  if (!read(0, header.length).equals(header)) return { transactions, committedBytes: 0 };
  let committedBytes = header.length;
  let position = header.length;
  let frames: LogFrameRef[] = [];
  let checksum = 0;
  for (;;) {
    const kind = read(position, 1)[0];
    if (kind === writeFrame) {
      const frameHeader = read(position, writeHeaderBytes);
      if (frameHeader.length < writeHeaderBytes) break;
      const length = frameHeader.readUInt32LE(1);
      const frame = read(position, writeHeaderBytes + length);
      if (frame.length < writeHeaderBytes + length) break;
      frames.push({ kind: 'write', offset: Number(frameHeader.readBigUInt64LE(5)), length, position: position + writeHeaderBytes });
      checksum = zlib.crc32(frame, checksum);
      position += frame.length;
      if (Math.floor(position / windowBytes) !== Math.floor((position - frame.length) / windowBytes)) yield { kind: 'pause' };
    } else if (kind === truncateFrame) {
      const frame = read(position, truncateBytes);
      if (frame.length < truncateBytes) break;
      frames.push({ kind: 'truncate', size: Number(frame.readBigUInt64LE(1)) });
      checksum = zlib.crc32(frame, checksum);
      position += truncateBytes;
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
  return { transactions, committedBytes };
}

/** Parses log bytes held in memory; everything after the last intact commit is left out. */
export function parseLog(bytes: Uint8Array): { transactions: LogFrame[][]; committedBytes: number } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { transactions, committedBytes } = toEnd(scanLog((position, length) => buffer.subarray(position, position + length)));
  return {
    transactions: transactions.map((frames) =>
      frames.map((frame) => (frame.kind === 'write' ? { kind: 'write', offset: frame.offset, bytes: buffer.subarray(frame.position, frame.position + frame.length) } : frame)),
    ),
    committedBytes,
  };
}

/**
 * Scans the log open at `fd` a window at a time, keeping only where its frames are; run it with
 * `yield*` between requests, or to its end with {@link toEnd}.
 */
export function scanLogFile(fd: number): Generator<Pause, ScannedLog, void> {
  let window = Buffer.alloc(0);
  let windowStart = 0;
  return scanLog((position, length) => {
    if (position < windowStart || position + length > windowStart + window.length) {
      window = Buffer.allocUnsafe(Math.max(length, windowBytes));
      window = window.subarray(0, readFully(fd, window, position));
      windowStart = position;
    }
    return window.subarray(position - windowStart, position - windowStart + length);
  });
}

/** The bytes of a write frame of the log open at `fd`. */
export function readFrameBytes(fd: number, frame: Extract<LogFrameRef, { kind: 'write' }>, into = Buffer.allocUnsafe(frame.length)): Buffer {
  if (readFully(fd, into.subarray(0, frame.length), frame.position) < frame.length) throw new Error('A change log is shorter than its committed frames');
  return into.subarray(0, frame.length);
}

/** The frames of `transactions`, with their bytes read from the log open at `fd` one at a time. */
export function* framesWithBytes(fd: number, transactions: readonly LogFrameRef[][]): Generator<LogFrame> {
  for (const frames of transactions) {
    for (const frame of frames) yield frame.kind === 'write' ? { kind: 'write', offset: frame.offset, bytes: readFrameBytes(fd, frame) } : frame;
  }
}

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
    const got = fs.readSync(fd, into, read, into.length - read, position + read);
    if (got === 0) break;
    read += got;
  }
  return read;
}
