import { isPageFrame, type LogFrameRef, type PageFrameRef } from './change-log.js';
import type { Pause } from './change-log-reader.js';

/**
 * The plan pauses after this many frames (or pages), so that planning a large log lets requests
 * through: four times as many held `/health` near the 100 ms rule on a slow machine.
 */
const framesPerPause = 8_192;
/** SQLite's smallest page. */
const smallestPageBytes = 512;
/** Adjacent pages are planned, read and written as one write up to this many bytes. */
export const runBytes = 2 ** 20;

/** A write of a checkpoint: a frame of the log open at `fd`. */
export interface PlannedWrite {
  fd: number;
  frame: Extract<PageFrameRef, { kind: 'write' }>;
}

/** What a checkpoint does to the snapshot, in this order. */
export type CheckpointOperation = ({ kind: 'write' } & PlannedWrite) | { kind: 'truncate'; size: number };

/** A log's committed transactions, with the descriptor their bytes are read from. */
export interface OpenLog {
  fd: number;
  transactions: readonly LogFrameRef[][];
}

/**
 * What to write into the snapshot for it to hold what `logs` make of it: each page once, in
 * its last version, in the order of the file; a page a truncation dropped is not written.
 * Pages are kept by the largest unit that divides every write's offset and length and every
 * truncation's size: SQLite's page size, as its writes are whole pages and the held pages of a
 * bulk write are logged in runs of adjacent pages (held-pages.ts). Adjacent pages that lie one
 * after the other in the same log are then written, and read, together.
 *
 * A write that is not made of whole units of at least 512 bytes (SQLite makes none) makes the
 * plan every frame in log order, which gives the same bytes. Either way the snapshot ends as
 * replaying the logs would make it: the smallest truncation first (it drops what any
 * truncation dropped; writes after it are kept), then the pages, then the last size (the zeros
 * a truncation then an extension leave).
 */
export function* planCheckpoint(logs: readonly OpenLog[]): Generator<Pause, CheckpointOperation[], void> {
  let unit = 0;
  let end = 0;
  let frames = 0;
  for (const { frame } of framesOf(logs)) {
    if (++frames % framesPerPause === 0) yield { kind: 'pause' };
    if (frame.kind === 'write') {
      unit = greatestCommonDivisor(greatestCommonDivisor(unit, frame.offset), frame.length);
      end = Math.max(end, frame.offset + frame.length);
    } else unit = greatestCommonDivisor(unit, frame.size);
  }
  if (unit < smallestPageBytes) return yield* everyFrame(logs);

  // Where each page's last version is, by page number: its log (index + 1; 0 for none) and its
  // position there. Typed arrays of the file's pages, about 12 bytes a page: a map of objects
  // took about 130 bytes a page, 24 MiB at the checkpoint that ends a full sync of `large`.
  const logOf = new Uint32Array(end / unit);
  const positionOf = new Float64Array(end / unit);
  // A delta is read against the snapshot this checkpoint overwrites: the writer logs every page whose last version is one whole before it starts (durable-file.ts).
  const isDelta = new Uint8Array(end / unit);
  let pagesBelow = 0;
  let smallestTruncation: number | undefined;
  let lastSize = 0;
  for (const { log, frame } of framesOf(logs)) {
    if (++frames % framesPerPause === 0) yield { kind: 'pause' };
    if (frame.kind === 'write') {
      const first = frame.offset / unit;
      for (let page = first; page < first + frame.length / unit; page++) {
        logOf[page] = log + 1;
        positionOf[page] = frame.position + (page - first) * unit;
        isDelta[page] = frame.deflatedBytes === undefined ? 0 : 1;
      }
      pagesBelow = Math.max(pagesBelow, first + frame.length / unit);
      lastSize = Math.max(lastSize, frame.offset + frame.length);
    } else {
      const cut = Math.min(pagesBelow, frame.size / unit);
      logOf.fill(0, cut, pagesBelow);
      pagesBelow = cut;
      smallestTruncation = Math.min(smallestTruncation ?? frame.size, frame.size);
      lastSize = frame.size;
    }
  }
  const writes: CheckpointOperation[] = [];
  let last: PlannedWrite | undefined;
  for (let page = 0; page < pagesBelow; page++) {
    if (page % framesPerPause === framesPerPause - 1) yield { kind: 'pause' };
    if (logOf[page] === 0) continue;
    if (isDelta[page] === 1) throw new Error(`A checkpoint met page ${page} logged last as a delta: the logs it folds must end with that page whole`);
    const fd = logs[logOf[page]! - 1]!.fd;
    const offset = page * unit;
    const position = positionOf[page]!;
    if (last !== undefined && last.fd === fd && last.frame.offset + last.frame.length === offset && last.frame.position + last.frame.length === position && last.frame.length < runBytes) {
      last.frame.length += unit;
    } else {
      last = { fd, frame: { kind: 'write', offset, length: unit, position } };
      writes.push({ kind: 'write', ...last });
    }
  }
  if (smallestTruncation === undefined) return writes;
  return [{ kind: 'truncate', size: smallestTruncation }, ...writes, { kind: 'truncate', size: lastSize }];
}

function* everyFrame(logs: readonly OpenLog[]): Generator<Pause, CheckpointOperation[], void> {
  const operations: CheckpointOperation[] = [];
  for (const { fd, frame } of framesOf(logs)) {
    if (frame.kind === 'write' && frame.deflatedBytes !== undefined) throw new Error('A checkpoint met a delta page in logs of writes that are not whole pages');
    operations.push(frame.kind === 'write' ? { kind: 'write', fd, frame } : { kind: 'truncate', size: frame.size });
    if (operations.length % framesPerPause === 0) yield { kind: 'pause' };
  }
  return operations;
}

/**
 * The page frames of the logs, in order: statements are left out, as the logs a checkpoint
 * folds end in a fold (durable-file.ts), whose pages hold what every statement before it did.
 */
function* framesOf(logs: readonly OpenLog[]): Generator<{ log: number; fd: number; frame: PageFrameRef }> {
  for (const [log, { fd, transactions }] of logs.entries()) {
    for (const frames of transactions) for (const frame of frames) if (isPageFrame(frame)) yield { log, fd, frame };
  }
}

function greatestCommonDivisor(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
