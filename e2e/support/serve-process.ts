import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';

/** The repository, and the built CLI the e2e tests run. */
export const root = path.resolve(import.meta.dirname, '..', '..');
export const cli = path.join(root, 'bin', 'remediation-console.js');

/** Starts `serve` (on a free port unless `port` names one) and resolves with its output once it has printed the console URL. */
export function serve(dataDir: string, port = 0): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', String(port), '--data-dir', dataDir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within 120 s:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/the same link: \S+#token=\S+/.test(output) && (!output.includes('Created the demo') || /\n {2}rc_\S+/.test(output))) {
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

/** Stops a `serve` started by {@link serve} and waits until it has exited. */
export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The demo organization's API key, as the first start of `serve` prints it. */
export function demoKeyOf(output: string): string {
  const key = /\n {2}(rc_\S+)/.exec(output)?.[1];
  if (!key) throw new Error(`serve printed no demo API key:\n${output}`);
  return key;
}

/**
 * Where a `serve` listens, from its output: the console link it printed for 127.0.0.1, which
 * Node (fetch) reaches too. Node does not resolve the `.localhost` name of {@link namedConsoleUrlOf}.
 */
export function consoleUrlOf(output: string): URL {
  return new URL(/the same link: (\S+)/.exec(output)![1]!);
}

/** The console link `serve` printed first: under the data directory's host name under `.localhost`, which Chromium resolves to loopback. */
export function namedConsoleUrlOf(output: string): URL {
  return new URL(/Console: (\S+)/.exec(output)![1]!);
}

/** A console session: its cookie's name and value (a cookie only: no header takes it). */
export interface ConsoleSessionCookie {
  name: string;
  value: string;
}

/** Opens a console link as the console's page does (its token posted from the server's origin); answers the session cookie it sets. */
export async function openSession(link: URL): Promise<ConsoleSessionCookie> {
  const response = await fetch(`${link.origin}/app/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: link.origin },
    body: JSON.stringify({ token: new URLSearchParams(link.hash.slice(1)).get('token') }),
  });
  const pair = response.headers.getSetCookie()[0]?.split(';')[0];
  if (!response.ok || !pair) throw new Error(`the console link did not open a session: ${response.status} ${await response.text()}`);
  const [name, value] = pair.split('=') as [string, string];
  return { name, value };
}

/** A new script token for /app (`x-console-script-token`), made by the CLI beside a running `serve`. */
export function createScriptToken(dataDir: string, name: string): string {
  return execFileSync(process.execPath, [cli, 'sessions', 'create-script-token', '--name', name, '--data-dir', dataDir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}
