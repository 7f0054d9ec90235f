import { spawn } from 'node:child_process';
import path from 'node:path';
import { packageRoot } from '../../package-root.js';

/** The product's command line as users run it: bin/remediation-console.js over its bundle in dist/cli. */
export const cliBinary = path.join(packageRoot(), 'bin', 'remediation-console.js');

/** What a run of the command line printed, and its exit code. */
export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built command line to completion without blocking this process, so that servers the
 * test runs here (fake remotes) keep answering it.
 */
export async function runCli(args: string[]): Promise<CliRun> {
  const child = spawn(process.execPath, [cliBinary, ...args]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { status, stdout, stderr };
}
