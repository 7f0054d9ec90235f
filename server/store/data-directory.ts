import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The product name, also the name of the per-user folder Electron's `userData` resolves to. */
export const productName = 'Remediation Console';

/**
 * The data directory: `REMEDIATION_CONSOLE_DATA_DIR` when set, otherwise the per-user folder the
 * desktop app uses (Electron's `app.getPath('userData')` for this product name).
 */
export function defaultDataDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.REMEDIATION_CONSOLE_DATA_DIR;
  if (override) return path.resolve(override);
  const home = os.homedir();
  switch (process.platform) {
    case 'darwin':
      return path.join(home, 'Library', 'Application Support', productName);
    case 'win32':
      return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), productName);
    default:
      return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), productName);
  }
}

/** The files of a data directory. */
export function dataDirectoryFiles(dataDir: string) {
  return {
    database: path.join(dataDir, 'inventory.sqlite'),
    lock: path.join(dataDir, 'lock.json'),
    sealingKey: path.join(dataDir, 'sealing.key'),
    apiAddress: path.join(dataDir, 'api.json'),
  };
}

/** Raised when another live process holds the data directory. */
export class DataDirectoryLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The data directory ${dataDir} is in use by process ${holder.pid} ` +
        `(${holder.command}, since ${holder.startedAt}). Stop that process first, or use another --data-dir.`,
    );
    this.name = 'DataDirectoryLockedError';
  }
}

interface LockHolder {
  pid: number;
  command: string;
  startedAt: string;
}

/** A held data-directory lock; `release` is idempotent. */
export interface DataDirectoryLock {
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(lockFile: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid !== 'number') return undefined;
    return { pid: parsed.pid, command: String(parsed.command ?? 'unknown'), startedAt: String(parsed.startedAt ?? '?') };
  } catch {
    return undefined;
  }
}

/**
 * Takes the data directory for writing by creating its lock file exclusively. A lock left by a
 * process that no longer runs is taken over; one held by a live process raises
 * {@link DataDirectoryLockedError} naming it.
 */
export function lockDataDirectory(dataDir: string, command: string): DataDirectoryLock {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lockFile = dataDirectoryFiles(dataDir).lock;
  const holder: LockHolder = { pid: process.pid, command, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockFile, JSON.stringify(holder), { flag: 'wx', mode: 0o600 });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        if (readHolder(lockFile)?.pid === process.pid) fs.rmSync(lockFile, { force: true });
      };
      process.on('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const current = readHolder(lockFile);
      if (current && current.pid !== process.pid && isAlive(current.pid)) {
        throw new DataDirectoryLockedError(dataDir, current);
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not take the lock of the data directory ${dataDir}`);
}

/**
 * Writes a file so that readers and a crash see either the old content or the new, never a
 * half-written file: a new file beside it, fsync, rename over, fsync of the folder.
 */
export function writeFileAtomically(file: string, bytes: Uint8Array, mode = 0o600): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temporary, 'w', mode);
  try {
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
  if (process.platform !== 'win32') {
    const dirFd = fs.openSync(path.dirname(file), 'r');
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
  }
}
