/**
 * Issue 33: a remote tenant cannot crash or freeze the console. Each mode of the hostile remote
 * (support/hostile-remote.ts) is connected as a replica of the product's own server, through
 * `POST /app/organizations`, whose first sync starts at once. While it runs, `/health` is asked
 * every 10 ms: each answer is 200 and none waits past a freeze (2 s; the defects held the server
 * 16 s and minutes), and this process's resident memory (RSS: the page buffers are outside the
 * JavaScript heap) stays under 1.5 times its figure before the sync. How long `/health` waits
 * (the 100 ms) is the bench's figure, measured on a `serve` of its own: `npm run bench`,
 * section `hostile` (docs/bench.md, "A hostile remote"); a timed check here fails on a loaded
 * machine, not on a defect.
 * The sync then fails with a sentence naming the remote and the bound (or, for an item past a
 * bound, skips and reports it), and the other organization's data are unchanged.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTotalBound } from '../remote/remote-bounds.js';
import { textBounds } from '../../contracts/text-bounds.js';
import { cliBinary, runCli } from './support/cli-binary.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { smallInventory } from './support/fixtures.js';
import {
  type AgentConfigFailure,
  type HostileMode,
  type HostileRemote,
  agentConfigFailures,
  pathologicalCpePattern,
  startHostileRemote,
} from './support/hostile-remote.js';
import { identitySealer } from './support/identity-sealer.js';
import { fastPolicy } from './support/sync-fixtures.js';
import { whileHealthAsked } from './support/health-waits.js';

/** Longer than any answer of a loaded machine, far shorter than the defects' holds: a server frozen. */
const freezeMs = 2_000;

let server: ConsoleTestServer;
const remotes: HostileRemote[] = [];
let homeBefore: unknown;

const homeLists = async () =>
  Promise.all(['endpoints', 'remediation-targets', 'scopes', 'vulnerability-findings'].map((list) => server.v1All('home', list)));

beforeAll(async () => {
  server = await startConsoleTestServer([{ slug: 'home', inventory: smallInventory(5, 20) }], { sealer: identitySealer, syncPolicy: fastPolicy });
  homeBefore = await homeLists();
  // A first connect and sync, so that the memory the first one costs (loading and compiling their code) is not counted against a mode.
  await runMode('error-passthrough', 'warm-up');
  expect((await server.app('/orgs/warm-up', { method: 'DELETE' })).status).toBe(204);
});
afterAll(async () => {
  await server.close();
  await Promise.all(remotes.map((remote) => remote.close()));
});

/** What a replica's first sync from a hostile remote did, and how the server fared meanwhile. */
interface Run {
  remote: HostileRemote;
  lastError: string | null;
  skippedCount: number;
  slowestHealthMs: number;
  healthSamples: number;
  rssBefore: number;
  rssPeak: number;
}

/** How long /health takes to answer, in milliseconds. */
async function healthMs(): Promise<number> {
  const asked = performance.now();
  const health = await fetch(`${server.url}/health`);
  expect(health.status).toBe(200);
  await health.arrayBuffer();
  return performance.now() - asked;
}

/** Connects a replica of a hostile remote in `mode` and follows its first sync, asking /health meanwhile. */
async function runMode(mode: HostileMode, slug: string = mode): Promise<Run> {
  const remote = await startHostileRemote(mode);
  remotes.push(remote);
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  let slowestHealthMs = 0;
  let healthSamples = 0;
  // Asked from before the replica is connected (its sync starts with it) until its sync ended.
  let syncing = true;
  const sampling = (async () => {
    while (syncing) {
      slowestHealthMs = Math.max(slowestHealthMs, await healthMs());
      healthSamples++;
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const connected = await server.app('/organizations', { method: 'POST', body: { slug, remoteUrl: remote.url, apiKey: remote.apiKey } });
  expect(connected.status).toBe(201);
  const status = await server.syncEnded(slug);
  syncing = false;
  await sampling;
  return { remote, lastError: status.state.lastError, skippedCount: status.state.skippedCount, slowestHealthMs, healthSamples, rssBefore, rssPeak };
}

/**
 * What a sync's fetching thread takes besides, whatever the remote sends: its isolate and modules
 * (20 MiB idle), its 4 MiB young generation and what its old generation and buffers hold under a
 * sync (docs/decisions/sync/pages-are-fetched-on-a-thread-of-their-own.md). It starts with the
 * sync, after `rssBefore` is read.
 */
const fetchingThreadBytes = 48 << 20;

/** What every mode must hold: the server answered 200 throughout and never froze, memory stayed bounded, the other organization is as it was. */
async function expectUnharmed(run: Run): Promise<void> {
  expect(run.healthSamples).toBeGreaterThan(0);
  expect(run.slowestHealthMs).toBeLessThan(freezeMs);
  expect(run.rssPeak).toBeLessThan(1.5 * run.rssBefore + fetchingThreadBytes);
  expect((await fetch(`${server.url}/health`)).status).toBe(200);
  expect(await homeLists()).toEqual(homeBefore);
}

/** The sentence a failed sync recorded: it names the remote, and `more` matches in it. */
function expectFailure(run: Run, ...more: RegExp[]): void {
  expect(run.lastError).not.toBeNull();
  expect(run.lastError).toContain(run.remote.url);
  for (const pattern of more) expect(run.lastError).toMatch(pattern);
}

describe('a hostile remote tenant as a replica of the product’s own server', () => {
  it('huge-total: a total of 2^53 - 1 fails the sync naming the collection and the bound', async () => {
    const run = await runMode('huge-total');
    expectFailure(run, /sent more than this console accepts/, /a total of 9007199254740991 items/, new RegExp(listTotalBound.toLocaleString('en-US')), /scopes/);
    await expectUnharmed(run);
  });

  it('oversize-page: a page with more items than the limit asked fails the sync', async () => {
    const run = await runMode('oversize-page');
    expectFailure(run, /\d+ items in one page, where at most the \d+ asked for may come/, /scopes/);
    await expectUnharmed(run);
  });

  it('huge-strings: an item past a bound is skipped and reported, never stored', async () => {
    const run = await runMode('huge-strings');
    expect(run.lastError).toBeNull();
    expect(run.skippedCount).toBe(1);
    const hostnames = (await server.appAll('/orgs/huge-strings/endpoints')).map((endpoint: { hostname: string }) => endpoint.hostname);
    expect(hostnames).toEqual(['valid.example']);
    expect(hostnames.every((hostname) => hostname.length <= textBounds.hostname)).toBe(true);
    await expectUnharmed(run);
  });

  it('huge-body: a page streamed past its cap is cut off there and fails the sync', async () => {
    const run = await runMode('huge-body');
    expectFailure(run, /one page weighed more than 32 MiB/, /scopes/);
    // The client hung up at the cap: the remote sent far less than the 128 MiB it had.
    expect((await run.remote.state()).bytesSentBeforeHangUp).toBeLessThan(64 << 20);
    await expectUnharmed(run);

    // The check of a new address and key reads at most 1 MiB, and saves nothing past it.
    await run.remote.streamCheckBody(16 << 20);
    const refused = await server.app('/organizations', { method: 'POST', body: { slug: 'huge-check', remoteUrl: run.remote.url, apiKey: run.remote.apiKey } });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toBe(
      `The remote tenant at ${run.remote.url} sent more than this console accepts: the answer to a request of one scope weighed more than 1 MiB. ` +
        'Nothing was saved: check that this address is the remote tenant meant.',
    );
    expect(server.store.organizations.bySlug('huge-check')).toBeUndefined();
  });

  it('hanging-body: headers then nothing times out, and the replica can be disconnected while it hangs', async () => {
    const run = await runMode('hanging-body');
    expectFailure(run, /did not answer within 1 s/);
    await expectUnharmed(run);

    const again = await startHostileRemote('hanging-body');
    remotes.push(again);
    expect((await server.app('/organizations', { method: 'POST', body: { slug: 'hanging-again', remoteUrl: again.url, apiKey: again.apiKey } })).status).toBe(201);
    expect(server.sync!.isRunning('hanging-again')).toBe(true);
    // Paused, its hanging request ends at once, not at its timeout (1 s here, 30 s in the product).
    let asked = performance.now();
    const paused = await server.app('/orgs/hanging-again/sync/paused', { method: 'PUT', body: { paused: true } });
    expect(performance.now() - asked).toBeLessThan(500);
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ running: false, state: { paused: true, lastError: 'The sync was interrupted: its syncs were paused' } });
    expect((await server.app('/orgs/hanging-again/sync/paused', { method: 'PUT', body: { paused: 'yes' } })).status).toBe(400);
    expect((await server.app('/orgs/home/sync/paused', { method: 'PUT', body: { paused: true } })).status).toBe(409);

    // Disconnected while a sync hangs, the same.
    expect((await server.app('/orgs/hanging-again/sync', { method: 'POST' })).status).toBe(202);
    expect(server.sync!.isRunning('hanging-again')).toBe(true);
    asked = performance.now();
    expect((await server.app('/orgs/hanging-again', { method: 'DELETE' })).status).toBe(204);
    expect(performance.now() - asked).toBeLessThan(500);
    expect(server.store.organizations.bySlug('hanging-again')).toBeUndefined();
  });

  it('error-passthrough: a remote’s agent configuration failure is our 502, naming the remote, never its status or text', async () => {
    const run = await runMode('error-passthrough');
    expect(run.lastError).toBeNull();
    await expectUnharmed(run);
    const replica = server.store.organizations.bySlug('error-passthrough')!;
    const key = server.store.write(() => server.store.apiKeys.create(replica.rowId, 'test').key, { changes: ['api-keys'] });
    for (const failure of Object.keys(agentConfigFailures) as AgentConfigFailure[]) {
      await run.remote.failAgentConfigWith(failure);
      const v1 = await fetch(`${server.url}/v1/agent/config?platform=linux`, { headers: { Authorization: `Bearer ${key}` } });
      const app = await server.app('/orgs/error-passthrough/agent-config?platform=linux');
      for (const answer of [{ status: v1.status, headers: v1.headers, body: (await v1.json()) as { error: string } }, app]) {
        expect(answer.status, failure).toBe(502);
        expect(answer.headers.get('www-authenticate'), failure).toBeNull();
        const message: string = answer.body.error;
        expect(message, failure).toContain(run.remote.url);
        expect(message, failure).toContain('error-passthrough');
        expect(message.length, failure).toBeLessThan(400);
        expect(message, failure).not.toMatch(/curl|sudo|xxxx|misdirected|missing or invalid key/);
      }
    }
  });

  it('wrong-types: a page of the wrong shape fails the sync as not the v1 API', async () => {
    const run = await runMode('wrong-types');
    expectFailure(run, /answered, but not as the Remediation Inventory v1 API/);
    await expectUnharmed(run);
  });

  it('redirect: a redirect is never followed, so the key never leaves for another address', async () => {
    const run = await runMode('redirect');
    expectFailure(run, /answered with a redirect, which is never followed/);
    expect((await run.remote.state()).redirectTargetRequests).toBe(0);
    await expectUnharmed(run);
  });

  it('pathological-cpe: the scope and targets are stored within their bounds, and its coverage gaps answer without holding the server', async () => {
    const run = await runMode('pathological-cpe');
    expect(run.lastError).toBeNull();
    expect(run.skippedCount).toBe(0);
    const [scope] = await server.appAll('/orgs/pathological-cpe/scopes');
    expect(scope.subject_filter.cpe_patterns).toEqual([pathologicalCpePattern]);
    expect(await server.appAll('/orgs/pathological-cpe/remediation-targets')).toHaveLength(12);
    await expectUnharmed(run);
    // One backtracking expression took 16.5 s here (issue 33); matched component by component, milliseconds (the bench's figure).
    const gaps = await whileHealthAsked(server.url, () => server.app('/orgs/pathological-cpe/coverage-gaps?limit=5'));
    expect(gaps.answer.status).toBe(200);
    // Each target's finding was checked against the pattern, which covers none of them.
    expect(gaps.answer.body).toMatchObject({ candidates: 12, activeScopes: 1, counts: { findings: 12 } });
    expect(gaps.ms).toBeLessThan(5_000);
    expect(gaps.healthMaxMs).toBeLessThan(freezeMs);
  });
});

describe('serve, restarted with a replica of a hostile remote', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-hostile-serve-'));
  let remote: HostileRemote;
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  /** Starts `serve` on a free port; resolves with its address once it listens, and what it writes to stderr. */
  async function serve(): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
    const child = spawn(process.execPath, [cliBinary, 'serve', '--port', '0', '--data-dir', dataDir]);
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`serve exited (${code}):\n${stdout}\n${stderr}`)));
    });
    return { child, url, stderr: () => stderr };
  }

  async function stop(child: ChildProcess): Promise<void> {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  /** Asks /health for `ms`, every 20 ms: each answer 200, and the process up all along. */
  async function answersThroughout(child: ChildProcess, url: string, ms: number): Promise<void> {
    for (const until = performance.now() + ms; performance.now() < until; ) {
      expect((await fetch(`${url}/health`)).status).toBe(200);
      expect(child.exitCode).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('starts and answers each time, its failed sync recorded; paused, it asks the remote nothing; removed, it is gone', async () => {
    remote = await startHostileRemote('huge-total');
    remotes.push(remote);
    const keyFile = path.join(dataDir, 'remote.key');
    fs.writeFileSync(keyFile, remote.apiKey);
    const connected = await runCli(['orgs', 'connect', '--slug', 'hostile', '--remote', remote.url, '--api-key-file', keyFile, '--data-dir', dataDir]);
    expect(connected.status, connected.stderr).toBe(0);

    // The first start syncs it at once: the sync fails with the bound, the server answers.
    const first = await serve();
    await answersThroughout(first.child, first.url, 300);
    while (!first.stderr().includes('Sync of "hostile" failed')) await answersThroughout(first.child, first.url, 50);
    expect(first.stderr()).toMatch(/a total of 9007199254740991 items, beyond the bound of 10,000,000/);
    await answersThroughout(first.child, first.url, 300);
    await stop(first.child);

    const second = await serve();
    await answersThroughout(second.child, second.url, 500);
    await stop(second.child);

    const paused = await runCli(['orgs', 'pause', '--slug', 'hostile', '--data-dir', dataDir]);
    expect(paused.status, paused.stderr).toBe(0);
    expect(paused.stdout).toContain('Paused the syncs of "hostile"');
    expect((await runCli(['orgs', 'list', '--data-dir', dataDir])).stdout).toMatch(/hostile\s+replica \(syncs paused\)/);
    const skipped = await runCli(['sync', '--data-dir', dataDir]);
    expect(skipped.stdout).toContain('Skipped "hostile": its syncs are paused');
    const asked = (await remote.state()).requests.length;
    const third = await serve();
    await answersThroughout(third.child, third.url, 500);
    await stop(third.child);
    expect((await remote.state()).requests.length).toBe(asked);
    expect(third.stderr()).not.toContain('Sync of "hostile"');

    expect((await runCli(['orgs', 'resume', '--slug', 'hostile', '--data-dir', dataDir])).stdout).toContain('Resumed the syncs of "hostile"');
    const removed = await runCli(['orgs', 'remove', '--slug', 'hostile', '--yes', '--data-dir', dataDir]);
    expect(removed.status, removed.stderr).toBe(0);
    expect((await runCli(['orgs', 'list', '--data-dir', dataDir])).stdout).not.toContain('hostile');
  });
});
