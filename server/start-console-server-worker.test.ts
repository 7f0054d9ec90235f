import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { threadId, Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { keyFileSealer } from './secrets/key-file-sealer.js';
import type { Sealer } from './secrets/sealer.js';
import { ConsoleServerWorker, startConsoleServerWorker } from './start-console-server-worker.js';
import { dataDirectoryFiles } from './store/engine/data-directory.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});
const newFolder = () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-server-worker-'));
  folders.push(folder);
  return folder;
};

describe('startConsoleServerWorker', () => {
  it('serves from a thread of its own, which seals with the sealer of the calling thread, until stopped', async () => {
    const dataDir = newFolder();
    const calls: string[] = [];
    const sealer = vi.fn((dir: string): Sealer => {
      const inner = keyFileSealer(dataDirectoryFiles(dir).sealingKey);
      return {
        secretStorage: inner.secretStorage,
        seal: (plain) => (calls.push(`seal in thread ${threadId}`), inner.seal(plain)),
        unseal: (sealed) => (calls.push(`unseal in thread ${threadId}`), inner.unseal(sealed)),
      };
    });
    const running = await startConsoleServerWorker({ dataDir, port: 0, command: 'test', sealer });
    expect(running.server.threadId).not.toBe(threadId);
    expect(sealer).toHaveBeenCalledExactlyOnceWith(dataDir);
    // The demo organization's enrollment secret and signing key, sealed here for the server.
    expect(calls).toEqual([`seal in thread ${threadId}`, `seal in thread ${threadId}`]);
    expect(running.server.demoApiKey).toMatch(/^rc_/);
    expect(await (await fetch(`${running.server.url}/health`)).json()).toEqual({ status: 'ok' });

    // A signed agent configuration file needs the enrollment secret and the signing key, unsealed here.
    const file = await fetch(`${running.server.url}/app/orgs/demo/agent-config?platform=linux`, { headers: { 'x-console-token': running.server.consoleToken } });
    expect(file.status).toBe(200);
    expect(calls.slice(2)).toEqual([`unseal in thread ${threadId}`, `unseal in thread ${threadId}`]);

    await running.stop();
    expect(fs.existsSync(dataDirectoryFiles(dataDir).lock)).toBe(false);
    await expect(fetch(`${running.server.url}/health`)).rejects.toThrow();
    await running.stop();
  });

  it('rejects with the error of a server that cannot start, and has not chosen a sealer', async () => {
    const file = path.join(newFolder(), 'a-file');
    fs.writeFileSync(file, '');
    const sealer = vi.fn();
    await expect(startConsoleServerWorker({ dataDir: path.join(file, 'data'), port: 0, command: 'test', sealer })).rejects.toThrow(/ENOTDIR/);
    expect(sealer).not.toHaveBeenCalled();
  });
});

describe('ConsoleServerWorker', () => {
  const started = { url: 'http://127.0.0.1:9', port: 9, consoleToken: 't', demoApiKey: undefined, threadId: 1, replicas: [] };

  it('reports a thread that crashed after its server started, and then has nothing to stop', async () => {
    const crashing = new Worker("setTimeout(() => { throw new Error('Out of memory'); }, 10);", { eval: true });
    const running = new ConsoleServerWorker(crashing, started);
    const [error] = await once(running, 'failed');
    expect(error).toMatchObject({ message: 'Out of memory' });
    await running.stop();
  });

  it("passes on the alerts of the server's thread", async () => {
    const alert = { slug: 'r', name: 'R', changes: { id: 3, finishedAt: '2026-01-01T00:00:00.000Z', newlyOpen: { total: 1, critical: 1, kev: 0 } } };
    const posting = new Worker(`require('node:worker_threads').parentPort.postMessage(${JSON.stringify({ type: 'sync-alert', alert })}); setTimeout(() => {}, 60000);`, { eval: true });
    const running = new ConsoleServerWorker(posting, started);
    const [received] = await once(running, 'sync-alert');
    expect(received).toEqual(alert);
    await posting.terminate();
  });

  it('reports a thread that ended unasked', async () => {
    const running = new ConsoleServerWorker(new Worker('process.exit(3);', { eval: true }), started);
    const [error] = await once(running, 'failed');
    expect(error).toMatchObject({ message: "The server's thread ended unexpectedly (exit code 3)" });
  });
});
