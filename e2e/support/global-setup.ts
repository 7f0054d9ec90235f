import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const cli = path.join(root, 'bin', 'remediation-console.js');

/** Starts `serve` and resolves with its output once it has printed the console URL. */
function serve(dataDir: string): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--data-dir', dataDir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within 120 s:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Console: \S+#token=\S+/.test(output) && (!output.includes('Created the demo') || /\n {2}rc_\S+/.test(output))) {
        clearTimeout(timer);
        resolve({ child, output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const run = (dataDir: string, ...args: string[]) => execFileSync(process.execPath, [cli, ...args, '--data-dir', dataDir], { cwd: root, encoding: 'utf8' });

/**
 * A data directory with the demo organization (created by the first start of `serve`) and a
 * second organization made with the CLI, served headless; the console URL (token in the
 * fragment) and the demo API key reach the tests through the environment.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!fs.existsSync(path.join(root, 'dist', 'renderer', 'index.html'))) throw new Error('The console is not built: run "npm run build" first.');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-e2e-'));
  const first = await serve(dataDir);
  const demoKey = /\n {2}(rc_\S+)/.exec(first.output)?.[1];
  if (!demoKey) throw new Error(`serve printed no demo API key:\n${first.output}`);
  await stop(first.child);
  run(dataDir, 'orgs', 'create', '--slug', 'second', '--name', 'Second');
  run(dataDir, 'seed', '--org', 'second', '--size', 'demo', '--seed', '2');

  const { child, output } = await serve(dataDir);
  const consoleUrl = /Console: (\S+)/.exec(output)![1]!;
  const url = new URL(consoleUrl);
  process.env.E2E_BASE_URL = url.origin;
  process.env.E2E_CONSOLE_TOKEN = new URLSearchParams(url.hash.slice(1)).get('token')!;
  process.env.E2E_DEMO_API_KEY = demoKey;
  fs.mkdirSync(path.join(root, 'e2e', 'artifacts'), { recursive: true });
  return async () => {
    await stop(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
