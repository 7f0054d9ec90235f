import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ConsoleSessionCookie, createScriptToken, openSession } from '../e2e/support/serve-process.js';
import { logFiles } from '../server/store/engine/change-log.js';

/** The repository root, where the built CLI lives. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The CLI's entry point. */
export const bin = path.join(root, 'bin', 'remediation-console.js');

/** Runs the built CLI to completion, failing loudly. */
export function cli(dataDir: string, ...args: string[]): string {
  const result = spawnSync(process.execPath, [bin, ...args, '--data-dir', dataDir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

/** Resident memory of a process in bytes, from /proc. */
export function residentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** The load average (1, 5, 15 min), printed beside figures that the machine's other work moves. */
export const loadAverage = () => os.loadavg().map((value) => value.toFixed(2)).join(', ');

/**
 * CPU time a process has used, user and system, in milliseconds, from /proc (clock ticks of
 * 10 ms, the Linux default): the figure the machine's other work disturbs least.
 */
export function cpuMilliseconds(pid: number): number {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

/** {@link cpuMilliseconds} in its two parts: user and system (kernel) time, in milliseconds. */
export function cpuTimes(pid: number): { user: number; system: number } {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

/**
 * Resolves once the process at `pid` has used under 50 ms of CPU in a second: a `serve` whose
 * warm-up (server/warm-console-caches.ts: the plan, the performance, the fix-by dates, the
 * findings view's order) has finished, which a request answered meanwhile would share the
 * thread with.
 */
export async function untilIdle(pid: number): Promise<void> {
  for (let before = cpuMilliseconds(pid); ; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuMilliseconds(pid);
    if (now - before < 50) return;
    before = now;
  }
}

/**
 * Resolves once a `serve` has settled: its dashboard of `slug` read, and the rest of its warm-up
 * (server/warm-console-caches.ts, which it starts 2 s after start) done. A figure taken before
 * shares the thread with that warm-up and measures both.
 */
export async function untilWarm(serve: { url: string; consoleToken: string; child: ChildProcess }, slug: string): Promise<void> {
  const response = await fetch(`${serve.url}/app/orgs/${slug}/dashboard`, { headers: { 'x-console-script-token': serve.consoleToken } });
  if (response.status !== 200) throw new Error(`the dashboard of ${slug} answered ${response.status}`);
  await untilIdle(serve.child.pid!);
}

/** Peak resident memory of a process in bytes, from /proc. */
export function peakResidentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/**
 * Sets a process's peak resident memory (VmHWM) to what it holds now, so that the next reading
 * of {@link peakResidentBytes} is the peak since this call (Linux: `5` in /proc/PID/clear_refs).
 */
export function resetPeakResidentBytes(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/**
 * Starts `serve` on `port` (default a free one); resolves once it printed its address and the
 * console's URL (token in the fragment), with the console session that URL opened. `niceness`
 * runs it below the others' priority (nice(1)): a remote that stands in for a tenant service,
 * which runs on other machines, so that its work does not take the measured server's core.
 */
export async function startServe(
  dataDir: string,
  port = 0,
  niceness?: number,
): Promise<{ child: ChildProcess; url: string; consoleUrl: string; consoleToken: string; session: ConsoleSessionCookie; startedAt: number }> {
  const startedAt = performance.now();
  const command = [process.execPath, bin, 'serve', '--port', String(port), '--data-dir', dataDir];
  if (niceness !== undefined) command.unshift('nice', '-n', String(niceness));
  const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const [url, consoleUrl] = await new Promise<[string, string]>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // The console link for 127.0.0.1: Node does not resolve the `.localhost` name printed first.
      const match = /listening on (http:\/\/\S+)[\s\S]*the same link: (\S+)/.exec(output);
      if (match) resolve([match[1]!, match[2]!]);
    });
    child.once('exit', () => reject(new Error(`serve exited:\n${output}`)));
  });
  // The link opens once: it is opened here, and Chromium uses its session's cookie; requests from
  // here send a script token (x-console-script-token), as a user's script does.
  const session = await openSession(new URL(consoleUrl));
  return { child, url, consoleUrl, consoleToken: createScriptToken(dataDir, 'bench'), session, startedAt };
}

/** Resolves at the first 200 answer of `/v1/endpoints` from the server at `url`. */
export async function firstOkAnswer(url: string, key: string): Promise<void> {
  for (;;) {
    try {
      const response = await fetch(`${url}/v1/endpoints?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Copies a data directory (its database, sealing key and whatever else it holds, not the lock
 * of a process using it) to `target`, for a section that writes to it or serves it.
 */
export function copyDataDir(source: string, target: string): void {
  const skipped = new Set(['lock.json', 'api.json']);
  fs.cpSync(source, target, { recursive: true, filter: (file) => !skipped.has(path.basename(file)) });
}

/** Stops a child process and waits for it. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * An HTTP request on a connection of its own, closed after it. A request on a kept-alive
 * connection can meet a reset: a server held for longer than its keep-alive timeout closes
 * idle connections when it resumes, under a request just sent on one of them.
 */
export function requestAlone(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

/** The bytes of a database file's change logs now (engine's `logFiles`); a log a checkpoint removes meanwhile counts as none. */
export function changeLogBytes(databaseFile: string): number {
  return logFiles(databaseFile).reduce((sum, { file }) => sum + (fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0), 0);
}

export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
export const ms = (value: number) => `${value.toFixed(2)} ms`;

/** Writes a section of the report: its heading, what was measured and the load meanwhile, then its rows of measure, figure and target. */
export function sayMeasureTable(say: (line?: string) => void, heading: string, measured: string, loadBefore: string, rows: readonly string[]): void {
  say(`## ${heading}`);
  say();
  say(`${measured} Load average (1, 5, 15 min) ${loadBefore} before, ${loadAverage()} after.`);
  say();
  say('| measure | figure | target |');
  say('|---|---|---|');
  for (const row of rows) say(row);
  say();
}
