import type { LogFrameRef } from './change-log.js';
import type { Pause } from './change-log-reader.js';

/** The plan pauses after this many frames, so that planning a large log lets requests through. */
const framesPerPause = 32_768;

/** A write of a checkpoint: a frame of the log open at `fd`. */
export interface PlannedWrite {
  fd: number;
  frame: Extract<LogFrameRef, { kind: 'write' }>;
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
 *
 * Deduplication holds while SQLite writes whole pages at page offsets and truncates at page
 * boundaries, as it does; any other write makes the plan every frame in log order, which gives
 * the same bytes. Either way the snapshot ends as replaying the logs would make it: the
 * smallest truncation first (it drops what any truncation dropped; writes after it are kept),
 * then the pages, then the last size (the zeros a truncation then an extension leave).
 */
export function* planCheckpoint(logs: readonly OpenLog[]): Generator<Pause, CheckpointOperation[], void> {
  const pages = new Map<number, PlannedWrite>();
  let pageBytes: number | undefined;
  let smallestTruncation: number | undefined;
  let lastSize = 0;
  let frames = 0;
  for (const { fd, frame } of framesOf(logs)) {
    if (++frames % framesPerPause === 0) yield { kind: 'pause' };
    if (frame.kind === 'write') {
      pageBytes ??= frame.length;
      if (frame.length !== pageBytes || frame.offset % pageBytes !== 0) return everyFrame(logs);
      pages.set(frame.offset, { fd, frame });
      lastSize = Math.max(lastSize, frame.offset + frame.length);
    } else {
      if (pageBytes !== undefined && frame.size % pageBytes !== 0) return everyFrame(logs);
      for (const offset of pages.keys()) if (offset >= frame.size) pages.delete(offset);
      smallestTruncation = Math.min(smallestTruncation ?? frame.size, frame.size);
      lastSize = frame.size;
    }
  }
  // A typed array sorts numbers without a comparison callback: several times faster on large logs.
  const offsets = Float64Array.from(pages.keys()).sort();
  const writes: CheckpointOperation[] = [];
  for (const [i, offset] of offsets.entries()) {
    writes.push({ kind: 'write', ...pages.get(offset)! });
    if (i % framesPerPause === framesPerPause - 1) yield { kind: 'pause' };
  }
  if (smallestTruncation === undefined) return writes;
  return [{ kind: 'truncate', size: smallestTruncation }, ...writes, { kind: 'truncate', size: lastSize }];
}

function everyFrame(logs: readonly OpenLog[]): CheckpointOperation[] {
  return Array.from(framesOf(logs), ({ fd, frame }) => (frame.kind === 'write' ? { kind: 'write', fd, frame } : frame));
}

function* framesOf(logs: readonly OpenLog[]): Generator<{ fd: number; frame: LogFrameRef }> {
  for (const { fd, transactions } of logs) for (const frames of transactions) for (const frame of frames) yield { fd, frame };
}
