import path from 'node:path';
import { files } from './engine-files.js';

/**
 * A step of a change to the disk that waits on it: an fsync of `fd` (of a folder: its entries),
 * or the removal of a file. Run at once by {@link runFileSteps}, or off the thread between
 * requests by a checkpoint (checkpoint.ts).
 */
export type FileStep = { kind: 'sync'; fd: number; folder: boolean } | { kind: 'remove'; file: string };

/** Makes a folder's entries (a created, renamed or removed file) durable. */
export function* syncFolderSteps(folder: string): Generator<FileStep, void, void> {
  // Windows cannot open a folder; its file system orders these itself.
  if (process.platform === 'win32') return;
  const fd = files.openSync(folder, 'r');
  try {
    yield { kind: 'sync', fd, folder: true };
  } finally {
    files.closeSync(fd);
  }
}

/**
 * Replaces `file` with `bytes` so that a crash or a power loss leaves the old content or the
 * new, never a part: a new file beside it, fsync, rename over, fsync of the folder.
 */
export function* replaceFileSteps(file: string, bytes: Uint8Array, mode = 0o600): Generator<FileStep, void, void> {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = files.openSync(temporary, 'w', mode);
  try {
    let written = 0;
    while (written < bytes.length) written += files.writeSync(fd, bytes, written, bytes.length - written, null);
    yield { kind: 'sync', fd, folder: false };
  } finally {
    files.closeSync(fd);
  }
  files.renameSync(temporary, file);
  yield* syncFolderSteps(path.dirname(file));
}

/** Removes `file`, durably: the folder is fsynced before anything else is removed or written. */
export function* removeFileSteps(file: string): Generator<FileStep, void, void> {
  yield { kind: 'remove', file };
  yield* syncFolderSteps(path.dirname(file));
}

/** Runs steps to their end on this thread. */
export function runFileSteps(steps: Iterable<FileStep>): void {
  for (const step of steps) {
    if (step.kind === 'remove') files.unlinkSync(step.file);
    else if (step.folder) files.fsyncSync(step.fd);
    else files.fdatasyncSync(step.fd);
  }
}
