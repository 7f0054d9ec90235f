import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/** The repository, and the built CLI the e2e tests run. */
export const root = path.resolve(import.meta.dirname, '..', '..');
export const cli = path.join(root, 'bin', 'remediation-console.js');

/** Starts `serve` and resolves with its output once it has printed the console URL. */
export function serve(dataDir: string): Promise<{ child: ChildProcess; output: string }> {
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

/** Where a `serve` listens, from its output. */
export function consoleUrlOf(output: string): URL {
  return new URL(/Console: (\S+)/.exec(output)![1]!);
}
