import fs from 'node:fs';

/** What the engine reads of a file's status. */
export interface FileStatus {
  size: number;
  ino: number;
  mtimeMs: number;
}

/** A file open for reading in the thread pool (a subset of node's FileHandle). */
export interface ReadHandle {
  stat(): Promise<FileStatus>;
  read(into: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/**
 * Every file operation of the engine (the snapshot, its header, the change logs and the folder
 * that holds them). Production runs on node:fs; the power-loss test installs a simulated disk
 * that keeps what no fsync covered apart ({@link useFileSystem}), so the whole path from a
 * write to the disk goes through this one object.
 */
export interface EngineFileSystem {
  openSync(file: string, flags: string | number, mode?: number): number;
  closeSync(fd: number): void;
  /** Writes at `position`, or at the file's current position when it is null. */
  writeSync(fd: number, bytes: Uint8Array, offset: number, length: number, position: number | null): number;
  readSync(fd: number, into: Uint8Array, offset: number, length: number, position: number): number;
  fsyncSync(fd: number): void;
  fdatasyncSync(fd: number): void;
  fsync(fd: number): Promise<void>;
  fdatasync(fd: number): Promise<void>;
  ftruncateSync(fd: number, size: number): void;
  /** Sets the permissions of the open file: of the file itself, whatever its name points at by then. */
  fchmodSync(fd: number, mode: number): void;
  truncateSync(file: string, size: number): void;
  fstatSync(fd: number): FileStatus;
  /** The file's status, undefined when it does not exist. */
  statSync(file: string): FileStatus | undefined;
  /** The names in a folder; none when it does not exist. */
  readdirSync(folder: string): string[];
  renameSync(from: string, to: string): void;
  /** Removes a file; nothing when it does not exist. */
  unlinkSync(file: string): void;
  /** Removes a file in the thread pool (a large file's unlink takes a while); nothing when it does not exist. */
  unlink(file: string): Promise<void>;
  openForReading(file: string): Promise<ReadHandle>;
}

/** Whether an error says a file does not exist. */
export const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

const ignoreMissing = (error: unknown) => {
  if (!isMissing(error)) throw error;
};

/** node:fs, looked up at each call so that a test's spy on it is met. */
const nodeFiles: EngineFileSystem = {
  openSync: (file, flags, mode) => fs.openSync(file, flags, mode),
  closeSync: (fd) => fs.closeSync(fd),
  writeSync: (fd, bytes, offset, length, position) => fs.writeSync(fd, bytes, offset, length, position),
  readSync: (fd, into, offset, length, position) => fs.readSync(fd, into, offset, length, position),
  fsyncSync: (fd) => fs.fsyncSync(fd),
  fdatasyncSync: (fd) => fs.fdatasyncSync(fd),
  fsync: (fd) => new Promise((resolve, reject) => fs.fsync(fd, (error) => (error ? reject(error) : resolve()))),
  fdatasync: (fd) => new Promise((resolve, reject) => fs.fdatasync(fd, (error) => (error ? reject(error) : resolve()))),
  ftruncateSync: (fd, size) => fs.ftruncateSync(fd, size),
  fchmodSync: (fd, mode) => fs.fchmodSync(fd, mode),
  truncateSync: (file, size) => fs.truncateSync(file, size),
  fstatSync: (fd) => fs.fstatSync(fd),
  statSync: (file) => fs.statSync(file, { throwIfNoEntry: false }),
  readdirSync: (folder) => {
    try {
      return fs.readdirSync(folder);
    } catch (error) {
      ignoreMissing(error);
      return [];
    }
  },
  renameSync: (from, to) => fs.renameSync(from, to),
  unlinkSync: (file) => {
    try {
      fs.unlinkSync(file);
    } catch (error) {
      ignoreMissing(error);
    }
  },
  unlink: (file) => fs.promises.unlink(file).catch(ignoreMissing),
  openForReading: (file) => fs.promises.open(file, 'r'),
};

/** The engine's file system: node:fs unless a test installed another. */
export const files: EngineFileSystem = { ...nodeFiles };

/** Installs `replacement` as the engine's file system (tests only); returns what puts node:fs back. */
export function useFileSystem(replacement: EngineFileSystem): () => void {
  Object.assign(files, replacement);
  return () => Object.assign(files, nodeFiles);
}
