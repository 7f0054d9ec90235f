import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { syncFolder } from './change-log.js';
import { type Pause, readFrameBytes, scanLogFile } from './change-log-reader.js';
import { type CheckpointOperation, type OpenLog, planCheckpoint, runBytes } from './checkpoint-plan.js';

/**
 * What a checkpoint step asks of its runner: a pause (another turn of the event loop), an fsync
 * of `fd`, or the removal of folded logs (a large file's unlink takes a while: off the thread).
 */
export type CheckpointStep = Pause | { kind: 'sync'; fd: number } | { kind: 'remove'; files: readonly string[] };

const fdatasync = promisify(fs.fdatasync);

/**
 * A checkpoint writes about this much between two pauses. Its writes stay on the thread, so that
 * {@link runCheckpoint} at close, run while a checkpoint in slices is stopped, never races one
 * of its writes; they can be held back by the kernel (its dirty-page limit, met when a sync's
 * logs are folded): 4 MiB slices then held the thread up to 118 ms on `large`.
 */
const sliceBytes = 2 ** 20;

/**
 * Writes what `logs` hold into the snapshot in place, each page once (checkpoint-plan.ts), then
 * makes it durable and removes the logs. Logs are read a window at a time, never whole.
 * Replaying a log is idempotent, so a crash at any step is completed by the next open, which
 * replays the logs still there over whatever the snapshot holds; a log is removed only after
 * the snapshot holding it is fsynced. Run it with {@link runCheckpoint} (at once) or
 * {@link runCheckpointInSlices} (between requests).
 */
export function* checkpointSteps(databaseFile: string, logs: readonly string[]): Generator<CheckpointStep, void, void> {
  if (logs.length === 0) return;
  // A log already removed was folded in whole by an earlier checkpoint.
  const descriptors = logs.map(openIfPresent).filter((fd) => fd !== undefined);
  try {
    const opened: OpenLog[] = [];
    for (const fd of descriptors) opened.push({ fd, transactions: (yield* scanLogFile(fd)).transactions });
    const fd = fs.openSync(databaseFile, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
    try {
      yield* applyOperations(fd, yield* planCheckpoint(opened));
      yield { kind: 'sync', fd };
    } finally {
      fs.closeSync(fd);
    }
  } finally {
    for (const fd of descriptors) fs.closeSync(fd);
  }
  yield { kind: 'remove', files: logs };
  syncFolder(path.dirname(databaseFile));
}

/** Applies `operations` to the snapshot open at `fd`, adjacent writes together. */
function* applyOperations(fd: number, operations: readonly CheckpointOperation[]): Generator<Pause, void, void> {
  const run = Buffer.allocUnsafe(runBytes);
  let runOffset = 0;
  let runLength = 0;
  let sinceSlice = 0;
  const writeRun = () => {
    let written = 0;
    while (written < runLength) written += fs.writeSync(fd, run, written, runLength - written, runOffset + written);
    runLength = 0;
  };
  for (const operation of operations) {
    if (operation.kind === 'truncate') {
      writeRun();
      fs.ftruncateSync(fd, operation.size);
      continue;
    }
    const { frame } = operation;
    if (runLength > 0 && (runOffset + runLength !== frame.offset || runLength + frame.length > runBytes)) writeRun();
    if (frame.length > runBytes) {
      let written = 0;
      const bytes = readFrameBytes(operation.fd, frame);
      while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written, frame.offset + written);
    } else {
      if (runLength === 0) runOffset = frame.offset;
      readFrameBytes(operation.fd, frame, run.subarray(runLength));
      runLength += frame.length;
    }
    sinceSlice += frame.length;
    if (sinceSlice >= sliceBytes) {
      writeRun();
      sinceSlice = 0;
      yield { kind: 'pause' };
    }
  }
  writeRun();
}

function openIfPresent(file: string): number | undefined {
  try {
    return fs.openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Runs a checkpoint to its end on this thread (at open after a migration, at close). */
export function runCheckpoint(steps: Generator<CheckpointStep, void, void>): void {
  for (const step of steps) {
    if (step.kind === 'sync') fs.fdatasyncSync(step.fd);
    else if (step.kind === 'remove') for (const file of step.files) fs.rmSync(file, { force: true });
  }
}

/**
 * Runs a checkpoint a slice at a time, its fsync off the thread: requests are answered
 * meanwhile. Once `stopped` answers true it ends between two slices, its logs left in place.
 */
export async function runCheckpointInSlices(steps: Generator<CheckpointStep, void, void>, stopped: () => boolean = () => false): Promise<void> {
  for (const step of steps) {
    if (step.kind === 'sync') await fdatasync(step.fd);
    else if (step.kind === 'remove') await Promise.all(step.files.map((file) => fs.promises.rm(file, { force: true })));
    else await new Promise((resolve) => setImmediate(resolve));
    if (stopped()) {
      steps.return();
      return;
    }
  }
}
