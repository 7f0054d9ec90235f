/**
 * The sync command line end to end, over real HTTP: against another `remediation-console serve`
 * as the remote, and killed with SIGKILL at random moments. Needs `npm run build:server`.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Inventory } from '../../contracts/inventory.js';
import { Store } from '../store/store.js';
import { cliBinary, runCli } from '../test/support/cli-binary.js';
import { type FakeRemote, startFakeRemote } from '../test/support/fake-remote.js';
import { sampleInventory } from '../test/support/sample-inventory.js';
import { expectedLists, replicaLists } from '../test/support/sync-fixtures.js';
import { trialCount } from '../test/support/trial-count.js';

const folders: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
const remotes: FakeRemote[] = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(remotes.map((remote) => remote.close()));
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

/** Runs the built command line on a data directory, without blocking: the fake remotes live in this process. */
function cli(dataDir: string, ...args: string[]) {
  return runCli([...args, '--data-dir', dataDir]);
}

/** Starts `serve` on a free port; resolves with its URL and, on a first start, the demo key. */
async function serve(dataDir: string): Promise<{ url: string; demoKey: string | undefined; child: ChildProcessWithoutNullStreams }> {
  const child = spawn(process.execPath, [cliBinary, 'serve', '--port', '0', '--data-dir', dataDir]);
  children.push(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no address:\n${output}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/Data: .*\n/.test(output) && (!output.includes('Created the demo') || /\n {2}rc_\S+\n/.test(output))) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', () => reject(new Error(`serve exited:\n${output}`)));
  });
  return { url: /listening on (http:\/\/\S+)/.exec(output)![1]!, demoKey: /\n {2}(rc_\S+)\n/.exec(output)?.[1], child };
}

/** Connects a replica "r" in `dataDir` to a remote. */
async function connect(dataDir: string, remoteUrl: string, apiKey: string): Promise<void> {
  const keyFile = path.join(tempDir('rc-key-'), 'key');
  fs.writeFileSync(keyFile, apiKey);
  const connected = await cli(dataDir, 'orgs', 'connect', '--slug', 'r', '--remote', remoteUrl, '--api-key-file', keyFile);
  expect(connected.stderr).toBe('');
  expect(connected.status).toBe(0);
}

async function getJson(url: string, key: string): Promise<unknown> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
  return response.json();
}

describe('sync from another remediation-console serve', () => {
  it('makes the replica answer exactly what the remote answers, list pages and single gets', async () => {
    const remote = await serve(tempDir('rc-sync-remote-'));
    const localDir = tempDir('rc-sync-local-');
    await connect(localDir, remote.url, remote.demoKey!);
    const synced = await cli(localDir, 'sync', '--org', 'r');
    expect(synced.stderr).toBe('');
    expect(synced.status).toBe(0);
    expect(synced.stdout).toMatch(/Synced "r" \(full\): 500 endpoints, 5000 remediation targets, 12 scopes, 20000 findings/);
    expect(synced.stdout).not.toContain('\r');
    const localKey = (await cli(localDir, 'keys', 'create', '--org', 'r')).stdout.trim();
    const local = await serve(localDir);

    const paths = ['/v1/endpoints', '/v1/remediation-targets', '/v1/scopes', '/v1/vulnerability-findings'];
    for (const listPath of paths) {
      const first = (await getJson(`${remote.url}${listPath}?limit=100`, remote.demoKey!)) as { total: number };
      const offsets = Array.from({ length: Math.ceil(first.total / 100) }, (_, i) => i * 100);
      for (let i = 0; i < offsets.length; i += 8) {
        await Promise.all(
          offsets.slice(i, i + 8).map(async (offset) => {
            const query = `${listPath}?limit=100&offset=${offset}`;
            const [theirs, ours] = await Promise.all([getJson(`${remote.url}${query}`, remote.demoKey!), getJson(`${local.url}${query}`, localKey)]);
            expect(ours).toEqual(theirs);
            const items = (theirs as { data: { id: string }[] }).data;
            if (offset % 1000 === 0) {
              const single = `${listPath}/${items[0]!.id}`;
              expect(await getJson(`${local.url}${single}`, localKey)).toEqual(await getJson(`${remote.url}${single}`, remote.demoKey!));
            }
          }),
        );
      }
    }
    const filtered = '/v1/vulnerability-findings?severity=critical&isKev=true&limit=100&offset=100';
    expect(await getJson(`${local.url}${filtered}`, localKey)).toEqual(await getJson(`${remote.url}${filtered}`, remote.demoKey!));
  }, 180_000);

  it('exits non-zero with the reason when a sync fails, and refuses a local organization', async () => {
    const remote = await startFakeRemote({ inventory: sampleInventory() });
    remotes.push(remote);
    const dataDir = tempDir('rc-sync-fail-');
    await connect(dataDir, remote.url, remote.apiKey);
    remote.options.fault = () => ({ status: 401 });
    const failed = await cli(dataDir, 'sync');
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/sync of "r" failed: .*refused the API key \(401 Unauthorized\)/);
    expect((await cli(dataDir, 'orgs', 'create', '--slug', 'loc', '--name', 'Local')).status).toBe(0);
    const local = await cli(dataDir, 'sync', '--org', 'loc');
    expect(local.status).toBe(2);
    expect(local.stderr).toMatch(/local organization/);
  });
});

describe('sync --reconcile', () => {
  it('reconciles a replica whose remote was re-seeded with as many items and older timestamps, and says what it found', async () => {
    const inventory = sampleInventory();
    const remote = await startFakeRemote({ inventory });
    remotes.push(remote);
    const dataDir = tempDir('rc-sync-reconcile-');
    await connect(dataDir, remote.url, remote.apiKey);
    expect((await cli(dataDir, 'sync')).stdout).toMatch(/Synced "r" \(full\)/);
    const unchanged = await cli(dataDir, 'sync', '--reconcile');
    expect(unchanged.stderr).toBe('');
    expect(unchanged.stdout).toMatch(/Synced "r" \(reconcile\)/);
    expect(unchanged.stdout).toContain('The replica matched its remote: nothing written.');

    // Re-seeded: the same totals, every finding older, some of the open ones remediated.
    const open = inventory.findings.filter((finding) => finding.status === 'open').length;
    inventory.findings = inventory.findings.map((finding, i) =>
      finding.status === 'open' && i % 5 === 0
        ? { ...finding, status: 'remediated', remediated_at: '2020-01-01T00:00:00Z', updated_at: '2020-01-01T00:00:00Z' }
        : { ...finding, updated_at: '2020-01-01T00:00:00Z' },
    );
    const nowOpen = inventory.findings.filter((finding) => finding.status === 'open').length;
    const synced = await cli(dataDir, 'sync', '--org', 'r');
    expect(synced.stderr).toBe('');
    expect(synced.status).toBe(0);
    expect(synced.stdout).toContain(`The replica's totals differed from the remote's (open findings ${nowOpen} on the remote, ${open} here): reconciled.`);
    expect(synced.stdout).toMatch(/Synced "r" \(reconcile\)/);
    expect(synced.stdout).toContain(`findings 0 added, ${inventory.findings.length} changed, 0 removed`);
    const store = await Store.open({ dataDir, readOnly: true });
    try {
      expect(replicaLists(store, store.organizations.bySlug('r')!)).toEqual(expectedLists(inventory));
    } finally {
      store.close();
    }

    const both = await cli(dataDir, 'sync', '--full', '--reconcile');
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/--full and --reconcile cannot be given together/);
  });
});

/** Every item of every list, with keys in a stable order, hashed. */
function digest(lists: Record<string, unknown[]>): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, canonical(v)]))
        : value;
  return crypto.createHash('sha256').update(JSON.stringify(canonical(lists))).digest('hex');
}

/** The second state of the remote: some records changed, some gone, some new. */
function changed(inventory: Inventory): Inventory {
  const next = structuredClone(inventory);
  for (const endpoint of next.endpoints.slice(0, 10)) endpoint.hostname = `changed-${endpoint.hostname}`;
  next.findings.splice(20, 30);
  next.scopes.push({ ...next.scopes[0]!, id: '00000004-0000-4000-8000-0000000000ff', name: 'New scope', created_at: '2024-01-01T00:00:00Z' });
  return next;
}

describe('a sync killed at random moments', () => {
  // A command-line run per trial: on a loaded machine each one's start-up alone takes seconds.
  // `npm test` kills once in each phase, `npm run test:slow` 5 times.
  it('leaves exactly the previous replica or the new one, whatever phase the kill lands in', async () => {
    const states = [sampleInventory({ endpoints: 60, targetsPerEndpoint: 4, findingsPerTarget: 3, scopes: 10 })];
    states.push(changed(states[0]!));
    const digests = states.map((inventory) => digest(expectedLists(inventory)));
    // Slow enough that kills land mid-sync, not only while the process starts.
    const remote = await startFakeRemote({ inventory: states[0]!, fault: () => ({ delayMs: 10 }) });
    remotes.push(remote);
    const dataDir = tempDir('rc-sync-crash-');
    await connect(dataDir, remote.url, remote.apiKey);
    const readState = async (): Promise<number> => {
      const store = await Store.open({ dataDir, readOnly: true });
      try {
        const state = digests.indexOf(digest(replicaLists(store, store.organizations.bySlug('r')!)));
        expect(state, 'the replica is neither the previous nor the new state').toBeGreaterThanOrEqual(0);
        return state;
      } finally {
        store.close();
      }
    };

    /** Runs a full sync; `onLine` hears each line it prints, with the milliseconds since its start. */
    const runSync = async (onLine: (line: string, at: number, child: ChildProcessWithoutNullStreams) => void = () => undefined) => {
      const started = performance.now();
      const child = spawn(process.execPath, [cliBinary, 'sync', '--org', 'r', '--full', '--data-dir', dataDir]);
      children.push(child);
      child.stdout.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n')) if (line !== '') onLine(line, performance.now() - started, child);
      });
      await new Promise<void>((resolve) => child.once('exit', () => resolve()));
      return performance.now() - started;
    };
    // A reference run tells how long this machine, as loaded as it is now, takes to each phase.
    let writingAt = 0;
    const duration = await runSync((line, at) => {
      if (line.includes('writing the replica')) writingAt = at;
    });
    expect(await readState()).toBe(0);

    // Each trial kills in one phase, in turn: as soon as the sync starts (before any write: the
    // previous replica must stay), anywhere in the run, while the replica is written and
    // persisted, and once it reported success (the new replica must be on disk).
    const phases = ['started', 'anywhere', 'writing', 'reported'] as const;
    const killAfter = (child: ChildProcessWithoutNullStreams, ms: number) => setTimeout(() => child.kill('SIGKILL'), ms);
    let current = 0;
    const outcomes = { previous: 0, next: 0 };
    for (let trial = 0; trial < trialCount(1, 5) * phases.length; trial++) {
      const phase = phases[trial % phases.length]!;
      const target = 1 - current;
      remote.options.inventory = states[target]!;
      let killed = false;
      await runSync((line, _at, child) => {
        if (killed) return;
        const fire = (ms: number) => {
          killed = true;
          killAfter(child, ms);
        };
        if (phase === 'started') fire(0);
        else if (phase === 'anywhere') fire(Math.random() * duration * 1.2);
        else if (phase === 'writing' && line.includes('writing the replica')) fire(Math.random() * (duration - writingAt) * 1.2);
        else if (phase === 'reported' && line.startsWith('Synced')) fire(0);
      });
      current = await readState();
      if (phase === 'started') expect(current, `trial ${trial}, killed at its start`).toBe(1 - target);
      if (phase === 'reported') expect(current, `trial ${trial}, killed after it reported success`).toBe(target);
      if (current === target) outcomes.next++;
      else outcomes.previous++;
    }
    // Both outcomes happen: the kills land before and after the commit.
    expect(Math.min(outcomes.previous, outcomes.next), JSON.stringify(outcomes)).toBeGreaterThan(0);

    // What the killed syncs staged, and the inventories they replaced, go with the next sync.
    await runSync();
    const store = await Store.open({ dataDir, readOnly: true });
    try {
      expect(store.inventories.orphans()).toEqual([]);
    } finally {
      store.close();
    }
  }, 600_000);
});
