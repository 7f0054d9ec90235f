import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { syncFolder } from './change-log.js';
import { type Pause, readFrameBytes, scanLogFile } from './change-log-reader.js';
import { type CheckpointOperation, type OpenLog, planCheckpoint } from './checkpoint-plan.js';

/**
 * What a checkpoint step asks of its runner: a pause (another turn of the event loop), a write
 * of `bytes` at `offset` of `fd` (left untouched until the step is done), an fsync of `fd`, or
 * the removal of folded logs (a large file's unlink takes a while: off the thread).
 */
export type CheckpointStep =
  | Pause
  | { kind: 'write'; fd: number; bytes: Uint8Array; offset: number }
  | { kind: 'sync'; fd: number }
  | { kind: 'remove'; files: readonly string[] };

const fdatasync = promisify(fs.fdatasync);
/** fs.write at a position, as a promise (looked up at each call, so that a test can hold one back). */
const write = (fd: number, bytes: Uint8Array, from: number, length: number, position: number) =>
  new Promise<number>((resolve, reject) => fs.write(fd, bytes, from, length, position, (error, written) => (error ? reject(error) : resolve(written))));

/** A checkpoint writes about this much between two pauses. */
const sliceBytes = 2 ** 20;
/** Adjacent pages are written to the snapshot together, up to this much at a time. */
const runBytes = 2 ** 20;

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
function* applyOperations(fd: number, operations: readonly CheckpointOperation[]): Generator<CheckpointStep, void, void> {
  const run = Buffer.allocUnsafe(runBytes);
  let runOffset = 0;
  let runLength = 0;
  let sinceSlice = 0;
  // A yielded write's bytes stay as they are until the runner resumes this generator.
  function* writeRun(): Generator<CheckpointStep, void, void> {
    if (runLength > 0) yield { kind: 'write', fd, bytes: run.subarray(0, runLength), offset: runOffset };
    runLength = 0;
  }
  for (const operation of operations) {
    if (operation.kind === 'truncate') {
      yield* writeRun();
      fs.ftruncateSync(fd, operation.size);
      continue;
    }
    const { frame } = operation;
    if (runLength > 0 && (runOffset + runLength !== frame.offset || runLength + frame.length > runBytes)) yield* writeRun();
    if (frame.length > runBytes) {
      yield { kind: 'write', fd, bytes: readFrameBytes(operation.fd, frame), offset: frame.offset };
    } else {
      if (runLength === 0) runOffset = frame.offset;
      readFrameBytes(operation.fd, frame, run.subarray(runLength));
      runLength += frame.length;
    }
    sinceSlice += frame.length;
    if (sinceSlice >= sliceBytes) {
      yield* writeRun();
      sinceSlice = 0;
      yield { kind: 'pause' };
    }
  }
  yield* writeRun();
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
    if (step.kind === 'write') {
      for (let written = 0; written < step.bytes.length; ) {
        written += fs.writeSync(step.fd, step.bytes, written, step.bytes.length - written, step.offset + written);
      }
    } else if (step.kind === 'sync') fs.fdatasyncSync(step.fd);
    else if (step.kind === 'remove') for (const file of step.files) fs.rmSync(file, { force: true });
  }
}

/**
 * Runs a checkpoint a slice at a time, its writes and fsync off the thread: requests are
 * answered meanwhile, also while the kernel holds a write back (its dirty-page limit, met when
 * a full sync's logs are folded: a 1 MiB write on the thread then held it up to 123 ms on
 * `large`). Once `stopped` answers true it ends between two steps, its logs left in place.
 * `writing` hears when a write starts and ends: one may land after the thread has gone on.
 */
export async function runCheckpointInSlices(
  steps: Generator<CheckpointStep, void, void>,
  stopped: () => boolean = () => false,
  writing: (underWay: boolean) => void = () => {},
): Promise<void> {
  for (const step of steps) {
    if (step.kind === 'write') {
      writing(true);
      try {
        for (let written = 0; written < step.bytes.length; ) {
          written += await write(step.fd, step.bytes, written, step.bytes.length - written, step.offset + written);
        }
      } finally {
        writing(false);
      }
    } else if (step.kind === 'sync') await fdatasync(step.fd);
    else if (step.kind === 'remove') await Promise.all(step.files.map((file) => fs.promises.rm(file, { force: true })));
    else await new Promise((resolve) => setImmediate(resolve));
    if (stopped()) {
      steps.return();
      return;
    }
  }
}
