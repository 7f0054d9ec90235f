import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { createFileExclusively, dataDirectoryFiles } from './data-directory.js';
import { temporaryFileName } from './file-steps.js';

/** The process that holds a data directory, as its lock file names it. */
export interface LockHolder {
  pid: number;
  command: string;
  startedAt: string;
}

/** Raised when another live process (or thread) holds the data directory. */
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

/** A held data-directory lock; `release` is idempotent. */
export interface DataDirectoryLock {
  release(): void;
}

/**
 * What lock.json holds: the holder, and the loopback port it listens on for as long as it holds
 * the lock. The OS closes that socket when the holder dies, zombie or not, so a refused
 * connection tells a dead holder from a live one without asking about its pid.
 */
interface LockRecord extends LockHolder {
  port: number;
  /** Random, what the holder answers on its port: tells it from a program that got the port since. */
  token: string;
}

/** How long a connection to a holder may take to be accepted or refused (Windows refuses in about a second). */
const connectTimeoutMs = 5_000;
/** How long a connected holder has to greet: a holder whose event loop is busy does not, and still holds. */
const greetingTimeoutMs = 1_000;
/** Looks at the lock file this many times at most: enough for every contender of a takeover to finish its turn. */
const maxAttempts = 100;
/** The pause while another contender takes over a stale lock (it holds the takeover file for microseconds). */
const takeoverPauseMs = 10;

/**
 * Takes the data directory for writing. The lock file is created exclusively, complete (hard
 * link of a written file), and names this process and a loopback port it listens on while it
 * holds the lock (the listener keeps no process alive). A contender that finds the file connects
 * to that port: refused means the holder is gone, and its lock is taken over; accepted means it
 * runs (even while its event loop is busy), and {@link DataDirectoryLockedError} names it.
 * Works the same in a worker thread: the listener closes with the thread.
 */
export async function lockDataDirectory(dataDir: string, command: string): Promise<DataDirectoryLock> {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lockFile = dataDirectoryFiles(dataDir).lock;
  const token = randomBytes(16).toString('hex');
  const listener = await listenForContenders(token);
  const record: LockRecord = {
    pid: process.pid,
    command,
    startedAt: new Date().toISOString(),
    port: (listener.address() as net.AddressInfo).port,
    token,
  };
  const text = JSON.stringify(record);
  try {
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      if (createExclusively(lockFile, text)) return holding(lockFile, text, listener);
      const found = readText(lockFile);
      if (found === undefined) continue; // released meanwhile
      const holder = parseRecord(found);
      if (holder && (await mayRun(holder))) throw new DataDirectoryLockedError(dataDir, holder);
      await takeOver(lockFile, found, text);
    }
  } catch (error) {
    listener.close();
    throw error;
  }
  listener.close();
  throw new Error(`Could not take the lock of the data directory ${dataDir}: other processes keep taking it over`);
}

/** Listens on a loopback port for contenders and greets each with the token, then hangs up. */
function listenForContenders(token: string): Promise<net.Server> {
  const server = net.createServer((socket) => {
    socket.unref();
    // A contender that gave up resets the connection: nothing to do about it.
    socket.on('error', () => {});
    socket.end(`${token}\n`);
  });
  server.unref();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      // A failed accept (out of file descriptors) is reported here; the listening socket stays, and so does the lock.
      server.on('error', () => {});
      resolve(server);
    });
  });
}

function holding(lockFile: string, text: string, listener: net.Server): DataDirectoryLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    // The file goes before the listener closes: while the file names this process, it answers.
    if (readText(lockFile) === text) fs.rmSync(lockFile, { force: true });
    listener.close();
  };
  process.on('exit', release);
  return { release };
}

/**
 * Removes a stale lock file, unless it changed since it was found stale. The check and the
 * removal happen while holding the takeover file, created exclusively and dropped within the same
 * synchronous step: two contenders that found the same stale lock cannot both remove it, nor can
 * one remove the lock the other has just created in its place.
 */
async function takeOver(lockFile: string, stale: string, text: string): Promise<void> {
  const takeoverFile = `${lockFile}.takeover`;
  if (createExclusively(takeoverFile, text)) {
    try {
      if (readText(lockFile) === stale) fs.rmSync(lockFile, { force: true });
    } finally {
      fs.rmSync(takeoverFile, { force: true });
    }
    return;
  }
  const other = readText(takeoverFile);
  if (other === undefined) return; // done meanwhile
  const contender = parseRecord(other);
  if (contender && (await mayRun(contender))) {
    await new Promise((resolve) => setTimeout(resolve, takeoverPauseMs));
    return;
  }
  // Its contender died within the few microseconds it held it. Two contenders finding that at
  // once could each remove the other's takeover file: the one race left (docs/decisions/the-servers-process/the-data-directory-lock-rests-on-a-loopback-port.md).
  if (readText(takeoverFile) === other) fs.rmSync(takeoverFile, { force: true });
}

/**
 * Creates `file` with `text` only when it does not exist, never visible half-written: the text
 * is written beside it, then hard-linked to its name (which fails when the name exists).
 */
function createExclusively(file: string, text: string): boolean {
  const staged = temporaryFileName(file);
  createFileExclusively(staged, Buffer.from(text));
  try {
    fs.linkSync(staged, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(staged, { force: true });
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The holder a lock file names, with the port it listens on; a lock file written before locks
 * had ports has none. Unreadable content names no process: nothing can hold it.
 */
function parseRecord(text: string): (LockHolder & Partial<LockRecord>) | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<LockRecord>;
    if (typeof parsed.pid !== 'number') return undefined;
    const holder = { pid: parsed.pid, command: String(parsed.command ?? 'unknown'), startedAt: String(parsed.startedAt ?? '?') };
    return typeof parsed.port === 'number' && typeof parsed.token === 'string' ? { ...holder, port: parsed.port, token: parsed.token } : holder;
  } catch {
    return undefined;
  }
}

/** Whether the holder of a lock may still run: false only when it surely does not. */
function mayRun(holder: LockHolder & Partial<LockRecord>): Promise<boolean> {
  // This process writes ports: a pid-only lock naming it is from an earlier run whose pid it got again.
  if (holder.port === undefined || holder.token === undefined) return Promise.resolve(holder.pid !== process.pid && pidRuns(holder.pid));
  return answersOnPort(holder.port, holder.token);
}

/**
 * Connects to a holder's port. Refused, reset or unreachable: its socket is closed, and so the
 * holder is gone (a zombie's sockets are closed too). Greeted with its token: it runs. Connected
 * but greeted otherwise, or hung up on without a greeting: the port is another program's now,
 * the holder gone. Connected and silent: a holder whose event loop is busy (the kernel accepts
 * for it), so it runs; so does one whose connection neither succeeds nor fails in time, which
 * cannot be told.
 */
function answersOnPort(port: number, token: string): Promise<boolean> {
  const expected = `${token}\n`;
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let greeting = '';
    let timer = setTimeout(() => finish(true), connectTimeoutMs);
    const finish = (runs: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(runs);
    };
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(true), greetingTimeoutMs);
    });
    socket.on('data', (chunk: string) => {
      greeting += chunk;
      if (greeting === expected || !expected.startsWith(greeting)) finish(greeting === expected);
    });
    socket.on('end', () => finish(greeting === expected));
    socket.on('error', () => finish(false));
  });
}

/** For a lock file of an earlier version, which named only a pid: whether that process exists. */
function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

