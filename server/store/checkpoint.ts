import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { type LogFrame, parseLog, syncFolder } from './change-log.js';

/** What a checkpoint step asks of its runner: a pause (another turn of the event loop) or an fsync of `fd`. */
export type CheckpointStep = { kind: 'pause' } | { kind: 'sync'; fd: number };

const fdatasync = promisify(fs.fdatasync);

/** A checkpoint writes about this much between two pauses. */
const sliceBytes = 4 * 2 ** 20;

/**
 * Writes what `logs` hold into the snapshot in place, in order, then makes it durable and
 * removes the logs. Replaying a log is idempotent, so a crash at any step is completed by the
 * next open, which replays the logs still there over whatever the snapshot holds; a log is
 * removed only after the snapshot holding it is fsynced. Run it with {@link runCheckpoint}
 * (at once) or {@link runCheckpointInSlices} (between requests).
 */
export function* checkpointSteps(databaseFile: string, logs: readonly string[]): Generator<CheckpointStep, void, void> {
  if (logs.length === 0) return;
  const fd = fs.openSync(databaseFile, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
  try {
    let size = fs.fstatSync(fd).size;
    let sinceSlice = 0;
    for (const log of logs) {
      // Logs are bounded by the checkpoint threshold, so one is read whole.
      const bytes = readIfPresent(log);
      // A log already removed was folded in whole by an earlier checkpoint.
      if (!bytes) continue;
      for (const transaction of parseLog(bytes).transactions) {
        for (const frame of transaction) {
          size = writeFrame(fd, size, frame);
          sinceSlice += frame.kind === 'write' ? frame.bytes.length : 0;
          if (sinceSlice >= sliceBytes) {
            sinceSlice = 0;
            yield { kind: 'pause' };
          }
        }
      }
    }
    yield { kind: 'sync', fd };
  } finally {
    fs.closeSync(fd);
  }
  for (const log of logs) fs.rmSync(log, { force: true });
  syncFolder(path.dirname(databaseFile));
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function writeFrame(fd: number, size: number, frame: LogFrame): number {
  if (frame.kind === 'truncate') {
    fs.ftruncateSync(fd, frame.size);
    return frame.size;
  }
  let written = 0;
  while (written < frame.bytes.length) written += fs.writeSync(fd, frame.bytes, written, frame.bytes.length - written, frame.offset + written);
  return Math.max(size, frame.offset + frame.bytes.length);
}

/** Runs a checkpoint to its end on this thread (at open after a migration, at close). */
export function runCheckpoint(steps: Generator<CheckpointStep, void, void>): void {
  for (const step of steps) if (step.kind === 'sync') fs.fdatasyncSync(step.fd);
}

/** Runs a checkpoint a slice at a time, its fsync off the thread: requests are answered meanwhile. */
export async function runCheckpointInSlices(steps: Generator<CheckpointStep, void, void>): Promise<void> {
  for (const step of steps) {
    if (step.kind === 'sync') await fdatasync(step.fd);
    else await new Promise((resolve) => setImmediate(resolve));
  }
}
