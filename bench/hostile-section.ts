/**
 * The `hostile` section of `npm run bench` (issue 33): a remote tenant cannot freeze the console
 * or swell its memory. A `serve` of a fresh data directory (its demo organization alone) connects,
 * through the console API, a replica of the hostile remote of the tests
 * (server/test/support/hostile-remote.ts, in its own process at nice 19) in each of its modes,
 * one at a time. While each replica's first sync runs, `/health` is asked every 10 ms
 * (bench/health-pings.ts) and the served process's peak resident memory is read against its
 * figure just before. Then the coverage gaps beside the pathological CPE pattern. Its own small
 * data: BENCH_SIZE does not matter here.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { type HostileMode, startHostileRemote } from '../server/test/support/hostile-remote.js';
import { timedConsoleRequest } from './coverage-bench.js';
import { type HealthPing, pingHealth, waitFigures } from './health-pings.js';
import { loadAverage, mib, ms, peakResidentBytes, residentBytes, resetPeakResidentBytes, startServe, stop } from './support.js';
import { type Server, consoleRequest } from './waits-bench.js';

/** The modes, in the order the tests run them. */
const modes: HostileMode[] = ['huge-total', 'oversize-page', 'huge-strings', 'huge-body', 'hanging-body', 'error-passthrough', 'wrong-types', 'redirect', 'pathological-cpe'];

/**
 * How long a sync is followed before its syncs are paused, which ends it at once: the product
 * waits 30 s for a request and tries six times, so `hanging-body` would hold the bench minutes.
 */
const followedAtMostMs = 20_000;

interface SyncStatusAnswer {
  running: boolean;
  state: { lastError: string | null; skippedCount: number };
}

/** One mode's first sync, and how the server fared meanwhile. */
interface ModeFigures {
  mode: HostileMode;
  syncMs: number;
  /** `/health` in the 300 ms before the replica was connected, no sync running: what the machine alone costs. */
  before: HealthPing[];
  during: HealthPing[];
  residentBefore: number;
  residentPeak: number;
  outcome: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a pause may take to end a sync before the bench says it did not and goes on: a pause ends a request at once. */
const pauseAnsweredWithinMs = 10_000;

/** How long `serve` may take to stop on SIGTERM before it is killed: a sync that never ends kept it running. */
const stopsWithinMs = 10_000;

/** The most characters of a sync's sentence the table shows: its first sentence names the bound. */
const sentenceLength = 200;

/** The first sentence of a sync's failure, its remote's port left out (it changes each run) and its address as code (not a link), fit for a table cell. */
function shortened(sentence: string, remoteUrl: string): string {
  const first = sentence.replaceAll(remoteUrl, '`http://127.0.0.1:PORT`').split(/(?<=\.)\s/)[0]!;
  return (first.length > sentenceLength ? `${first.slice(0, sentenceLength)}…` : first).replaceAll('|', '\\|');
}

/**
 * Connects a replica of a hostile remote in `mode` as `slug` and follows its first sync until it
 * ends (or is paused after {@link followedAtMostMs}); the replica stays, for `then` to ask about,
 * and is disconnected after it.
 */
async function followMode(serve: Server & { child: ChildProcess }, pid: number, mode: HostileMode, slug: string = mode, then?: () => Promise<void>): Promise<ModeFigures> {
  const remote = await startHostileRemote(mode, 19);
  try {
    const baseline = pingHealth(serve.url);
    await sleep(300);
    const before = await baseline.stop();
    const residentBefore = residentBytes(pid);
    resetPeakResidentBytes(pid);
    const pinger = pingHealth(serve.url);
    const started = performance.now();
    let status: SyncStatusAnswer;
    let paused = false;
    let stuck = false;
    try {
      await consoleRequest(serve, 'POST', '/organizations', { slug, name: `Hostile ${mode}`, remoteUrl: remote.url, apiKey: remote.apiKey });
      for (;;) {
        status = (await consoleRequest(serve, 'GET', `/orgs/${slug}/sync`)) as SyncStatusAnswer;
        if (!status.running) break;
        if (performance.now() - started > followedAtMostMs) {
          const pausing = consoleRequest(serve, 'PUT', `/orgs/${slug}/sync/paused`, { paused: true }) as Promise<SyncStatusAnswer>;
          // Left unanswered, it fails when serve stops: not a failure of the bench.
          pausing.catch(() => undefined);
          const answered = await Promise.race([pausing, sleep(pauseAnsweredWithinMs).then(() => undefined)]);
          // Seen here: after a garbage collection, neither the pause nor the request's timeout ends a hanging request (docs/decisions/tests-docs-and-ci/the-hostile-remotes-waits-are-measured.md).
          if (!answered) stuck = true;
          else status = answered;
          paused = true;
          break;
        }
        await sleep(50);
      }
    } finally {
      await pinger.stop();
    }
    const during = await pinger.stop();
    const syncMs = performance.now() - started;
    const residentPeak = peakResidentBytes(pid);
    if (serve.child.exitCode !== null) throw new Error(`serve exited during the sync of ${mode}`);
    const { lastError, skippedCount } = status.state;
    const outcome = stuck
      ? `still running after ${followedAtMostMs / 1000} s; paused, it still ran ${pauseAnsweredWithinMs / 1000} s later (**a sync that neither its timeout nor a pause ends**)`
      : (paused ? `still running after ${followedAtMostMs / 1000} s, paused: ` : '') +
        (lastError === null ? `synced${skippedCount ? `, ${skippedCount} item skipped and reported` : ''}` : shortened(lastError, remote.url));
    await then?.();
    // A replica whose sync never ends cannot be disconnected either (the disconnect waits for it): it stays until serve stops.
    if (!stuck) await consoleRequest(serve, 'DELETE', `/orgs/${slug}`);
    return { mode, syncMs, before, during, residentBefore, residentPeak, outcome };
  } finally {
    await remote.close();
  }
}

/** The report section of the hostile remote's modes; `workDir` receives a small data directory. */
export async function reportHostile(workDir: string, say: (line?: string) => void): Promise<void> {
  const loadBefore = loadAverage();
  const log = (line: string) => console.log(`… ${line}`);
  const serve = await startServe(path.join(workDir, 'hostile'));
  const pid = serve.child.pid!;
  const rows: ModeFigures[] = [];
  let killed = false;
  let gaps: { ms: number; serverCpuMs: number; healthMaxMs: number; findings: number } | undefined;
  try {
    // serve reads the demo's dashboard columns and exposure figures a little after it starts:
    // asked now, so that each sync is measured alone. A first replica, not reported, loads and
    // compiles the code of connecting and syncing, which the first mode would otherwise pay.
    await consoleRequest(serve, 'GET', '/orgs/demo/dashboard');
    await consoleRequest(serve, 'GET', '/orgs/demo/remediation-plan');
    log('a first replica (error-passthrough), not reported');
    await followMode(serve, pid, 'error-passthrough', 'warm-up');
    for (const mode of modes) {
      log(mode);
      const coverageGaps = async () => {
        const { timing, body } = await timedConsoleRequest(serve.url, serve.consoleToken, `/orgs/${mode}/coverage-gaps?limit=5`, pid);
        gaps = { ...timing, findings: (body as { counts: { findings: number } }).counts.findings };
      };
      rows.push(await followMode(serve, pid, mode, mode, mode === 'pathological-cpe' ? coverageGaps : undefined));
    }
  } finally {
    const killing = setTimeout(() => {
      killed = true;
      serve.child.kill('SIGKILL');
    }, stopsWithinMs);
    await stop(serve.child);
    clearTimeout(killing);
  }

  say(`## A hostile remote`);
  say();
  say(
    `Issue 33: a remote tenant cannot freeze the console or swell its memory. A \`serve\` of a fresh data directory (the demo organization alone) connects a replica ` +
      `of the tests' hostile remote (server/test/support/hostile-remote.ts, its own process at nice 19, as a tenant runs on other machines) through ` +
      `\`POST /app/organizations\`, one mode at a time, and its first sync starts. Meanwhile \`/health\` is asked every 10 ms (10 ms after each answer, ` +
      `each on a connection of its own); its slowest round trip is the longest the server's thread was held. Beside it, the slowest in the 300 ms before ` +
      `the connect, no sync running: what the machine alone costs. Memory is the served process's peak resident memory during the sync (VmHWM, reset ` +
      `just before it) against its resident memory just before. A sync still running after ${followedAtMostMs / 1000} s is paused, which ends it at once ` +
      `(the product waits 30 s for a request, six times); one still running ${pauseAnsweredWithinMs / 1000} s after that is said, and stays until \`serve\` stops. A first replica, not reported, warms up the code. The tests (server/test/hostile-remote.test.ts) ` +
      `check the same modes for liveness and each outcome. The machine is shared: load average (1, 5, 15 min) ${loadBefore} before, ${loadAverage()} after.`,
  );
  say();
  say(`| mode | sync | /health answers | slowest /health during the sync | slowest before | peak memory / before | outcome | target |`);
  say(`|---|---|---|---|---|---|---|---|`);
  for (const row of rows) {
    const during = waitFigures(row.during);
    const before = waitFigures(row.before);
    say(
      `| ${row.mode} | ${(row.syncMs / 1000).toFixed(2)} s | ${during.count} | ${ms(during.max)} | ${ms(before.max)} | ` +
        `${(row.residentPeak / row.residentBefore).toFixed(2)} × (${mib(row.residentPeak)} / ${mib(row.residentBefore)}) | ${row.outcome} | ≤ 100 ms, ≤ 1.5 × |`,
    );
  }
  say();
  if (killed) {
    say(`**\`serve\` did not stop within ${stopsWithinMs / 1000} s of SIGTERM** (a sync that never ended kept it running): it was killed.`);
    say();
  }
  if (gaps) {
    say(
      `The pathological-cpe replica's coverage gaps, first answer (\`GET /app/orgs/pathological-cpe/coverage-gaps?limit=5\`: ${gaps.findings} gaps, ` +
        `its scope's pattern \`cpe:2.3:a:*a*a*a*a*a*a*a*a*a*a*b\` against targets whose vendor is thirty \`a\`s; a backtracking expression took 16.5 s): ` +
        `${ms(gaps.ms)}, server CPU ${gaps.serverCpuMs} ms, slowest \`/health\` meanwhile ${ms(gaps.healthMaxMs)} (target ≤ 100 ms). ` +
        `A tag rule \`*web*prod*\` against a long hostname is left to server/test/linear-matching-api.test.ts: every path into the product bounds a hostname ` +
        `at 253 characters, so that test writes its 200 KB hostname into the store directly.`,
    );
    say();
  }
}
