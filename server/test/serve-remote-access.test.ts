/**
 * `serve --host` through the real binary (needs `npm run build:server`): an address other
 * machines reach is refused unless `--allow-remote-access` is given, and then a warning says it
 * is plain HTTP; a loopback address in any spelling starts as before.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cliBinary, runCli } from './support/cli-binary.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-serve-host-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const refusal = (host: string) =>
  `error: --host ${host} is not a loopback address: the server speaks plain HTTP, and anyone who can reach ${host} would reach the API. ` +
  'Listen on 127.0.0.1 (the default), or give --allow-remote-access to accept that.\n';

/** Starts `serve` and answers what it printed on each stream once it listens, then stops it; the exit code last. */
async function serveUntilListening(...args: string[]): Promise<{ stdout: string; stderr: string; url: string; health: number; status: number | null }> {
  const child = spawn(process.execPath, [cliBinary, 'serve', '--port', '0', '--data-dir', dataDir, ...args]);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (/Console: .*\n/.test(stdout) && (!stdout.includes('Created the demo') || /\n {2}rc_\S+\n/.test(stdout))) resolve();
    });
    void exited.then(() => reject(new Error(`serve exited:\n${stdout}${stderr}`)));
  });
  const url = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
  const health = (await fetch(`${url}/health`)).status;
  child.kill('SIGTERM');
  return { stdout, stderr, url, health, status: await exited };
}

it('refuses an address other machines reach without --allow-remote-access, saying why', async () => {
  for (const host of ['0.0.0.0', '::', '192.0.2.10', 'example.org', '128.0.0.1']) {
    const run = await runCli(['serve', '--host', host, '--port', '0', '--data-dir', dataDir]);
    expect(run, host).toMatchObject({ status: 2, stdout: '', stderr: refusal(host) });
  }
  // Nothing was started: the data directory holds no store.
  expect(fs.readdirSync(dataDir)).toEqual([]);
}, 60_000);

it('listens on every interface with --allow-remote-access, warning on stderr that it is plain HTTP, and answers on loopback', async () => {
  for (const [host, loopback] of [
    ['0.0.0.0', '127.0.0.1'],
    ['::', '[::1]'],
  ]) {
    const run = await serveUntilListening('--host', host!, '--allow-remote-access');
    expect(run.stderr).toBe(
      `Warning: listening on ${host} with --allow-remote-access. This is plain HTTP, without TLS: anyone who can reach this address reaches ` +
        'the API (with an API key) and the console (with a console link), and what they send and receive can be read on the way.\n',
    );
    expect(run.stdout).not.toContain('Warning');
    // This machine's browser and tools reach it on loopback.
    expect(run.url).toMatch(new RegExp(`^http://${loopback!.replace(/[.[\]]/g, '\\$&')}:\\d+$`));
    expect(run.health).toBe(200);
    expect(run.status).toBe(0);
  }
}, 120_000);

it('starts on a loopback address in any spelling without a word about remote access', async () => {
  for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) {
    const run = await serveUntilListening('--host', host);
    expect(run.stderr, host).toBe('');
    expect(run.health, host).toBe(200);
    expect(run.status, host).toBe(0);
  }
}, 120_000);
