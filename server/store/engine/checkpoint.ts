import { constants } from 'node:fs';
import { type Pause, readFrameBytes, scanLogFile } from './change-log-reader.js';
import { type CheckpointOperation, type OpenLog, planCheckpoint, runBytes } from './checkpoint-plan.js';
import { files, isMissing } from './engine-files.js';
import { type FileStep, removeFileSteps, runFileSteps } from './file-steps.js';
import { writeSnapshotHeaderSteps } from './snapshot-header.js';
import { nextTurn } from './next-turn.js';

/**
 * What a checkpoint step asks of its runner: a pause (another turn of the event loop), an fsync
 * of a file or a folder, or the removal of a folded log (a large file's unlink takes a while:
 * off the thread).
 */
export type CheckpointStep = Pause | FileStep;

/** A log to fold, with its sequence. */
export interface LogToFold {
  file: string;
  sequence: number;
}

/**
 * A checkpoint writes about this much between two pauses. Its writes stay on the thread, so that
 * {@link runCheckpoint} at close, run while a checkpoint in slices is stopped, never races one
 * of its writes; they can be held back by the kernel (its dirty-page limit, met when a sync's
 * logs are folded): larger slices then held the thread past the 100 ms rule.
 */
const sliceBytes = 2 ** 20;

/**
 * Writes what `logs` (in order, following each other) hold into the snapshot in place, each
 * page once (checkpoint-plan.ts), then makes it durable, records the last log's sequence in the
 * snapshot's header (`salt` is its generation's) and removes the logs, oldest first, one at a
 * time. Logs are read a window at a time, never whole. Until the header moves, a crash leaves
 * the logs to the next open, which replays them over whatever the snapshot holds (replaying is
 * idempotent); after, the header tells the next open that the logs left are folded already, so
 * that none is ever replayed over a snapshot holding later ones. Run it with
 * {@link runCheckpoint} (at once) or {@link runCheckpointInSlices} (between requests).
 */
export function* checkpointSteps(databaseFile: string, logs: readonly LogToFold[], salt: string): Generator<CheckpointStep, void, void> {
  if (logs.length === 0) return;
  // A log already removed was folded in whole by an earlier checkpoint.
  const descriptors = logs.map(({ file }) => openIfPresent(file)).filter((fd) => fd !== undefined);
  try {
    const opened: OpenLog[] = [];
    for (const fd of descriptors) opened.push({ fd, transactions: (yield* scanLogFile(fd)).transactions });
    const fd = files.openSync(databaseFile, constants.O_RDWR | constants.O_CREAT, 0o600);
    try {
      yield* applyOperations(fd, yield* planCheckpoint(opened));
      yield { kind: 'sync', fd, folder: false };
    } finally {
      files.closeSync(fd);
    }
  } finally {
    for (const fd of descriptors) files.closeSync(fd);
  }
  // The header's folder fsync also makes a snapshot this checkpoint created durable.
  yield* writeSnapshotHeaderSteps(databaseFile, { sequence: logs.at(-1)!.sequence, salt });
  for (const { file } of logs) yield* removeFileSteps(file);
}

/** Applies `operations` to the snapshot open at `fd`, adjacent writes together. */
function* applyOperations(fd: number, operations: readonly CheckpointOperation[]): Generator<Pause, void, void> {
  const run = Buffer.allocUnsafe(runBytes);
  let runOffset = 0;
  let runLength = 0;
  let sinceSlice = 0;
  const writeRun = () => {
    let written = 0;
    while (written < runLength) written += files.writeSync(fd, run, written, runLength - written, runOffset + written);
    runLength = 0;
  };
  for (const operation of operations) {
    if (operation.kind === 'truncate') {
      writeRun();
      files.ftruncateSync(fd, operation.size);
      continue;
    }
    const { frame } = operation;
    if (runLength > 0 && (runOffset + runLength !== frame.offset || runLength + frame.length > runBytes)) writeRun();
    if (frame.length > runBytes) {
      let written = 0;
      const bytes = readFrameBytes(operation.fd, frame);
      while (written < bytes.length) written += files.writeSync(fd, bytes, written, bytes.length - written, frame.offset + written);
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
    return files.openSync(file, 'r');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Runs a checkpoint to its end on this thread (at open after a migration, at close). */
export function runCheckpoint(steps: Generator<CheckpointStep, void, void>): void {
  for (const step of steps) if (step.kind !== 'pause') runFileSteps([step]);
}

/**
 * Runs a checkpoint a slice at a time, its fsync off the thread: requests are answered
 * meanwhile. Once `stopped` answers true it ends between two slices, its logs left in place.
 */
export async function runCheckpointInSlices(steps: Generator<CheckpointStep, void, void>, stopped: () => boolean = () => false): Promise<void> {
  for (const step of steps) {
    if (step.kind === 'sync') await (step.folder ? files.fsync(step.fd) : files.fdatasync(step.fd));
    else if (step.kind === 'remove') await files.unlink(step.file);
    else await nextTurn();
    if (stopped()) {
      steps.return();
      return;
    }
  }
}
