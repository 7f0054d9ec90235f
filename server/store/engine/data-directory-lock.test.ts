import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { processState, untilZombie } from '../../test/support/process-state.js';
import { dataDirectoryFiles } from './data-directory.js';
import { type DataDirectoryLock, DataDirectoryLockedError, lockDataDirectory } from './data-directory-lock.js';

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const holderScript = fileURLToPath(new URL('../../test/support/lock-holder.ts', import.meta.url));

const folders: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function newDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-lock-'));
  folders.push(dir);
  return dir;
}

/**
 * Starts test/support/lock-holder.ts and waits for its first line. `unreaped`: it runs under
 * `sh -c 'holder & exec sleep'`, so that its parent (sleep) never waits for it and once killed
 * it stays a zombie, as a killed writer does here until init reaps it.
 */
async function startHolder(dataDir: string, command: string, options: { busy?: boolean; unreaped?: boolean } = {}) {
  const args = ['--import', 'tsx', holderScript, dataDir, command, ...(options.busy ? ['busy'] : [])];
  const child = options.unreaped
    ? spawn('sh', ['-c', '"$0" "$@" & exec sleep 60', process.execPath, ...args], { cwd: repositoryRoot })
    : spawn(process.execPath, args, { cwd: repositoryRoot });
  children.push(child);
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const first = /^(locked|refused) .*\n/m.exec(output);
      if (first) resolve(first[0].trim());
    });
    child.on('exit', () => reject(new Error(`the holder exited:\n${output}`)));
  });
  return { child, line, pid: line.startsWith('locked ') ? Number(line.slice('locked '.length)) : undefined };
}

function lockFileHolder(dataDir: string): { pid: number; command: string } {
  return JSON.parse(fs.readFileSync(dataDirectoryFiles(dataDir).lock, 'utf8')) as { pid: number; command: string };
}

/** A port nothing listens on (any more): what the lock file of a dead holder names. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Writes the lock file a holder that died would have left. */
async function writeStaleLock(dataDir: string): Promise<void> {
  const record = { pid: 2 ** 22 + 4321, command: 'remediation-console serve', startedAt: '2026-11-22T10:00:00.000Z', port: await closedPort(), token: 'dead' };
  fs.writeFileSync(dataDirectoryFiles(dataDir).lock, JSON.stringify(record));
}

/** Takes the lock in a worker thread of this process (its code run through tsx, as a test file is). */
async function lockInWorker(dataDir: string, command: string): Promise<Worker> {
  const lockModule = new URL('./data-directory-lock.ts', import.meta.url).href;
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     import('tsx/esm/api')
       .then(({ register }) => { register(); return import(workerData.lockModule); })
       .then(({ lockDataDirectory }) => lockDataDirectory(workerData.dataDir, workerData.command))
       .then(() => { parentPort.postMessage('locked'); setInterval(() => {}, 1 << 30); });`,
    { eval: true, workerData: { lockModule, dataDir, command } },
  );
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return worker;
}

function refusal(promise: Promise<DataDirectoryLock>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('the lock was taken');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(DataDirectoryLockedError);
      return error as Error;
    },
  );
}

describe('the data-directory lock', () => {
  it('takes the lock at once from a holder killed with SIGKILL that is still a zombie', async () => {
    const dataDir = newDataDir();
    const holder = await startHolder(dataDir, 'remediation-console serve', { unreaped: true });
    process.kill(holder.pid!, 'SIGKILL');
    await untilZombie(holder.pid!);

    const lock = await lockDataDirectory(dataDir, 'remediation-console keys create');
    expect(processState(holder.pid!)).toBe('Z');
    expect(lockFileHolder(dataDir)).toMatchObject({ pid: process.pid, command: 'remediation-console keys create' });
    lock.release();
    expect(fs.existsSync(dataDirectoryFiles(dataDir).lock)).toBe(false);
  });

  it('refuses the lock while another process holds it, naming that process', async () => {
    const dataDir = newDataDir();
    const holder = await startHolder(dataDir, 'remediation-console serve');
    const before = fs.readFileSync(dataDirectoryFiles(dataDir).lock, 'utf8');

    const error = await refusal(lockDataDirectory(dataDir, 'remediation-console keys create'));
    expect(error.message).toContain(`in use by process ${holder.pid} (remediation-console serve, since `);
    expect(error.message).toContain(dataDir);
    expect(fs.readFileSync(dataDirectoryFiles(dataDir).lock, 'utf8')).toBe(before);
  });

  it('refuses the lock while the holder runs with its event loop stopped', async () => {
    const dataDir = newDataDir();
    const holder = await startHolder(dataDir, 'remediation-console serve', { busy: true });
    const error = await refusal(lockDataDirectory(dataDir, 'remediation-console keys create'));
    expect(error.message).toContain(`in use by process ${holder.pid}`);
  });

  it('holds the lock in a worker thread, and frees it when that thread ends', async () => {
    const dataDir = newDataDir();
    const worker = await lockInWorker(dataDir, 'remediation-console serve (worker)');
    const error = await refusal(lockDataDirectory(dataDir, 'main thread'));
    expect(error.message).toContain(`in use by process ${process.pid} (remediation-console serve (worker), since `);

    // terminate() runs no exit handler: the lock file stays, but the thread's listener is closed.
    await worker.terminate();
    expect(lockFileHolder(dataDir).command).toBe('remediation-console serve (worker)');
    const lock = await lockDataDirectory(dataDir, 'main thread');
    expect(lockFileHolder(dataDir).command).toBe('main thread');
    lock.release();
  });

  it('takes over a lock whose port another program listens on now, unless that program stays silent', async () => {
    const dataDir = newDataDir();
    const lockFile = dataDirectoryFiles(dataDir).lock;
    const record = { pid: 2 ** 22 + 4321, command: 'crashed', startedAt: 'then', token: 'the holder' };
    for (const greeting of ['SSH-2.0-OpenSSH_9.6\r\n', '']) {
      const other = net.createServer((socket) => socket.end(greeting));
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
      fs.writeFileSync(lockFile, JSON.stringify({ ...record, port: (other.address() as net.AddressInfo).port }));
      const lock = await lockDataDirectory(dataDir, 'next');
      expect(lockFileHolder(dataDir).command).toBe('next');
      lock.release();
      other.close();
    }

    // Connected and silent is also what a busy holder looks like: held, since it cannot be told.
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    fs.writeFileSync(lockFile, JSON.stringify({ ...record, port: (silent.address() as net.AddressInfo).port }));
    await refusal(lockDataDirectory(dataDir, 'next'));
    silent.close();
  });

  it('lets exactly one of several contenders take over the same stale lock', async () => {
    const dataDir = newDataDir();
    await writeStaleLock(dataDir);
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => lockDataDirectory(dataDir, `contender ${i}`)));
    const winners = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    const winner = lockFileHolder(dataDir).command;
    for (const outcome of outcomes.filter((outcome) => outcome.status === 'rejected')) {
      expect(outcome.reason).toBeInstanceOf(DataDirectoryLockedError);
      expect((outcome.reason as Error).message).toContain(`(${winner}, since `);
    }
    winners[0]!.value.release();
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('lets exactly one of several processes take over the same stale lock', async () => {
    const dataDir = newDataDir();
    await writeStaleLock(dataDir);
    const lines = (await Promise.all(['a', 'b', 'c'].map((name) => startHolder(dataDir, `holder ${name}`)))).map((holder) => holder.line);
    const winners = lines.filter((line) => line.startsWith('locked '));
    expect(winners).toHaveLength(1);
    const winner = lockFileHolder(dataDir);
    expect(winners[0]).toBe(`locked ${winner.pid}`);
    for (const line of lines.filter((line) => !line.startsWith('locked '))) expect(line).toContain(`in use by process ${winner.pid} (${winner.command}, since `);
  });

  it('takes over a stale lock after a contender died in the middle of its takeover', async () => {
    const dataDir = newDataDir();
    await writeStaleLock(dataDir);
    const takeoverFile = `${dataDirectoryFiles(dataDir).lock}.takeover`;
    fs.writeFileSync(takeoverFile, JSON.stringify({ pid: 2 ** 22 + 4322, command: 'contender', startedAt: 'then', port: await closedPort(), token: 'x' }));
    const lock = await lockDataDirectory(dataDir, 'next');
    expect(lockFileHolder(dataDir).command).toBe('next');
    expect(fs.existsSync(takeoverFile)).toBe(false);
    lock.release();
  });

  it('respects the lock of an earlier version, which named only a pid, while that process runs', async () => {
    const dataDir = newDataDir();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    children.push(child);
    fs.writeFileSync(dataDirectoryFiles(dataDir).lock, JSON.stringify({ pid: child.pid, command: 'remediation-console serve', startedAt: 'then' }));
    const error = await refusal(lockDataDirectory(dataDir, 'next'));
    expect(error.message).toContain(`in use by process ${child.pid} (remediation-console serve, since then)`);

    fs.writeFileSync(dataDirectoryFiles(dataDir).lock, JSON.stringify({ pid: process.pid, command: 'an earlier run with this pid', startedAt: 'then' }));
    const lock = await lockDataDirectory(dataDir, 'next');
    expect(lockFileHolder(dataDir).command).toBe('next');
    lock.release();
  });

  it('releases once: the lock file goes, and the port no longer answers', async () => {
    const dataDir = newDataDir();
    const lock = await lockDataDirectory(dataDir, 'first');
    const { port } = JSON.parse(fs.readFileSync(dataDirectoryFiles(dataDir).lock, 'utf8')) as { port: number };
    lock.release();
    expect(fs.existsSync(dataDirectoryFiles(dataDir).lock)).toBe(false);
    const next = await lockDataDirectory(dataDir, 'second');
    lock.release();
    expect(lockFileHolder(dataDir).command).toBe('second');
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1' });
      socket.on('connect', () => resolve(false));
      socket.on('error', () => resolve(true));
    });
    expect(refused).toBe(true);
    next.release();
  });
});
