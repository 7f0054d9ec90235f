import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { replaceFileSteps, runFileSteps } from './file-steps.js';

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
    /** The key the console's host name and cookie name are derived from (secrets/console-sessions.ts). */
    consoleSessionKey: path.join(dataDir, 'console-session.key'),
    /** The console's browser sessions and script tokens, one file each (secrets/console-sessions.ts). */
    consoleSessions: path.join(dataDir, 'console-sessions'),
    /** The console links not yet used, one file each (secrets/console-links.ts). */
    consoleLinks: path.join(dataDir, 'console-links'),
    /** Technical reports' appendices, two files a report (reports/report-appendix.ts). */
    reportAppendices: path.join(dataDir, 'report-appendices'),
  };
}

/**
 * Creates `file` with `bytes`, exclusively: a file or symlink already at that name fails it
 * (EEXIST), never receives the bytes. Its mode is set on the open file, exactly (whatever the
 * umask), before a byte is written; a failed write removes what it created. Not made durable
 * here; node:fs directly, as the lock and the sealing key are no part of the store's files.
 */
export function createFileExclusively(file: string, bytes: Uint8Array, mode = 0o600): void {
  const fd = fs.openSync(file, 'wx', mode);
  try {
    fs.fchmodSync(fd, mode);
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw error;
  }
  fs.closeSync(fd);
}

/**
 * Writes a file so that readers and a crash see either the old content or the new, never a
 * half-written file: a new file beside it (random name, created exclusively, its mode set on
 * the open file), fsync, rename over, fsync of the folder.
 */
export function writeFileAtomically(file: string, bytes: Uint8Array, mode = 0o600): void {
  runFileSteps(replaceFileSteps(file, bytes, mode));
}
