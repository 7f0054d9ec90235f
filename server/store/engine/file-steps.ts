import { randomBytes } from 'node:crypto';
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
 * The name of a new file written beside `file` before it is renamed over it: `FILE.<random>.tmp`.
 * Random (64 bits), so that nobody who may write the folder can create it first; the store's
 * open removes those of its own files a crash left (`FILE.*.tmp`).
 */
export function temporaryFileName(file: string): string {
  return `${file}.${randomBytes(8).toString('hex')}.tmp`;
}

/**
 * Replaces `file` with `bytes` so that a crash or a power loss leaves the old content or the
 * new, never a part: a new file beside it, fsync, rename over, fsync of the folder. The new file
 * has a random name and is created exclusively (`wx`: a file or symlink already at that name
 * fails the write, never receives it), and gets `mode` on the open file descriptor, exactly
 * (whatever the umask), before a byte is written.
 */
export function* replaceFileSteps(file: string, bytes: Uint8Array, mode = 0o600): Generator<FileStep, void, void> {
  const temporary = temporaryFileName(file);
  const fd = files.openSync(temporary, 'wx', mode);
  let complete = false;
  try {
    files.fchmodSync(fd, mode);
    let written = 0;
    while (written < bytes.length) written += files.writeSync(fd, bytes, written, bytes.length - written, null);
    yield { kind: 'sync', fd, folder: false };
    complete = true;
  } finally {
    files.closeSync(fd);
    // Ours, and never to be renamed: a failed or abandoned write leaves nothing behind.
    if (!complete) files.unlinkSync(temporary);
  }
  try {
    files.renameSync(temporary, file);
  } catch (error) {
    // Another user's file in a sticky folder (EPERM), a folder at the name: nothing replaced, nothing left.
    files.unlinkSync(temporary);
    throw error;
  }
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
