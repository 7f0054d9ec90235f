import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';
import { dataDirectoryFiles } from '../store/data-directory.js';

const bin = path.join(packageRoot(), 'bin', 'remediation-console.js');
const folders: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

function newDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-cli-'));
  folders.push(dir);
  return dir;
}

/** Runs the built command line to completion. */
function cli(dataDir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, REMEDIATION_CONSOLE_DATA_DIR: dataDir },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts `serve` and waits for the lines it prints once it listens. */
async function serve(dataDir: string, ...args: string[]) {
  const child = spawn(process.execPath, [bin, 'serve', '--data-dir', dataDir, ...args]);
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no address:\n${output}`)), 60_000);
    const check = () => {
      if (/Console: .*\n/.test(output) && (!output.includes('Created the demo') || /\n  rc_\S+\n/.test(output))) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', check);
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`serve exited:\n${output}`));
    });
  });
  const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
  return { child, url, output: () => output };
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('remediation-console serve', () => {
  it('creates the demo organization at first start, prints where it listens and the key, and serves it', async () => {
    const dataDir = newDataDir();
    const { child, url, output } = await serve(dataDir, '--port', '0');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(output()).toMatch(/Console: http:\/\/127\.0\.0\.1:\d+\/#token=\S+/);
    const key = /\n {2}(rc_\S+)\n/.exec(output())![1]!;

    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok' });
    const endpoints = (await (await fetch(`${url}/v1/endpoints?limit=1`, { headers: { Authorization: `Bearer ${key}` } })).json()) as any;
    expect(endpoints.total).toBe(500);
    const findings = (await (await fetch(`${url}/v1/vulnerability-findings?limit=1`, { headers: { Authorization: `Bearer ${key}` } })).json()) as any;
    expect(findings.total).toBe(20_000);

    const address = JSON.parse(fs.readFileSync(dataDirectoryFiles(dataDir).apiAddress, 'utf8'));
    expect(address).toMatchObject({ url, port: Number(new URL(url).port) });
    expect(JSON.stringify(address)).not.toContain('rc_');

    const second = cli(dataDir, 'keys', 'create', '--org', 'demo');
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`in use by process ${child.pid}`);
    expect(second.stderr).toContain('remediation-console serve');

    const listed = cli(dataDir, 'orgs', 'list');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/demo\s+local \(demo\)\s+Demo Organization/);

    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(fs.existsSync(dataDirectoryFiles(dataDir).lock)).toBe(false);
    expect(fs.existsSync(dataDirectoryFiles(dataDir).apiAddress)).toBe(false);

    const restarted = await serve(dataDir, '--port', '0');
    expect(restarted.output()).not.toContain('Created the demo');
    const again = (await (await fetch(`${restarted.url}/v1/endpoints?limit=1`, { headers: { Authorization: `Bearer ${key}` } })).json()) as any;
    expect(again.total).toBe(500);
    restarted.child.kill('SIGTERM');
    await exited(restarted.child);
  });

  it('falls back to a free port when the configured one is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as net.AddressInfo).port;
    const { child, url, output } = await serve(newDataDir(), '--port', String(taken));
    expect(new URL(url).port).not.toBe(String(taken));
    expect(output()).toContain(`port ${taken} was taken`);
    child.kill('SIGTERM');
    await exited(child);
    blocker.close();
  });

  it('refuses bad options with a clear message', () => {
    const dataDir = newDataDir();
    for (const args of [['serve', '--port', '70000'], ['serve', '--port', 'abc'], ['serve', '--host', 'a b']]) {
      const result = cli(dataDir, ...args);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/error: .*(--port|--host)/);
    }
  });
});

describe('organizations, keys and seeding', () => {
  it('creates, lists, keys, seeds and removes organizations', () => {
    const dataDir = newDataDir();
    expect(cli(dataDir, 'orgs', 'list').status).toBe(1);

    const created = cli(dataDir, 'orgs', 'create', '--slug', 'acme', '--name', 'Acme Corp');
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toContain('Created organization "acme"');
    expect(cli(dataDir, 'orgs', 'create', '--slug', 'bare', '--name', 'Bare', '--no-enrollment-secret').status).toBe(0);

    const listed = cli(dataDir, 'orgs', 'list').stdout;
    expect(listed).toMatch(/acme\s+local\s+Acme Corp/);
    expect(listed).toMatch(/bare\s+local\s+Bare/);

    const key = cli(dataDir, 'keys', 'create', '--org', 'acme');
    expect(key.status).toBe(0);
    expect(key.stdout).toMatch(/^rc_[A-Za-z0-9_-]{43}\n$/);

    const seeded = cli(dataDir, 'seed', '--org', 'acme', '--size', 'demo', '--seed', '42');
    expect(seeded.status, seeded.stderr).toBe(0);
    expect(seeded.stdout).toContain('Seeded "acme" with the demo dataset (seed 42)');

    expect(cli(dataDir, 'orgs', 'remove', '--slug', 'bare').status).toBe(0);
    expect(cli(dataDir, 'orgs', 'list').stdout).not.toContain('bare');
  });

  it.each([
    [['orgs', 'create', '--slug', 'Bad Slug!', '--name', 'x'], /Invalid slug "Bad Slug!"/],
    [['orgs', 'create', '--slug', 'acme'], /--name/],
    [['keys', 'create', '--org', 'nobody'], /No organization with slug "nobody"/],
    [['seed', '--org', 'acme', '--size', 'huge'], /--size must be demo, medium or large/],
    [['seed', '--org', 'acme', '--size', 'demo', '--seed', '-4'], /--seed/],
    [['orgs', 'remove', '--slug', 'nobody'], /No organization with slug "nobody"/],
    [['no-such-command'], /unknown command/],
  ])('answers %j with exit code 2 and a message, changing nothing', (args, message) => {
    const dataDir = newDataDir();
    cli(dataDir, 'orgs', 'create', '--slug', 'acme', '--name', 'Acme');
    const before = fs.readFileSync(dataDirectoryFiles(dataDir).database);
    const result = cli(dataDir, ...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(fs.readFileSync(dataDirectoryFiles(dataDir).database).equals(before)).toBe(true);
  });

  it('refuses to create an organization twice', () => {
    const dataDir = newDataDir();
    cli(dataDir, 'orgs', 'create', '--slug', 'acme', '--name', 'Acme');
    const again = cli(dataDir, 'orgs', 'create', '--slug', 'acme', '--name', 'Acme');
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('exists already');
  });
});
