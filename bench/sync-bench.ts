/**
 * Sync figures: a full sync from a loopback `serve` seeded with a dataset, the same full sync
 * through a proxy that answers each request 50 ms late (a slow link), then a full and an
 * incremental sync (1% of every collection changed) from an in-process remote serving the same
 * generated dataset, whose changes the benchmark controls. The full syncs from `serve` at the
 * command's pace are the `sync` command's own processes, and their peak memory theirs; the rest
 * run in this process.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateInventory } from '../server/demo/index.js';
import { connectReplicaOrganization } from '../server/organizations/manage-organizations.js';
import type { DatasetSize, Inventory } from '../contracts/inventory.js';
import { keyFileSealer } from '../server/secrets/key-file-sealer.js';
import { dataDirectoryFiles } from '../server/store/engine/data-directory.js';
import { Store } from '../server/store/store.js';
import { type FakeRemote, startFakeRemote } from '../server/test/support/fake-remote.js';
import { fetchPage } from '../server/sync/remote-pages.js';
import { type SyncReport, syncOrganization } from '../server/sync/sync-organization.js';
import { type SyncPolicy, defaultSyncPolicy } from '../server/sync/sync-policy.js';
import { syncOrder } from '../server/sync/sync-collections.js';
import { collections } from '../contracts/collections.js';
import { syncCountChecks } from '../contracts/console/sync-basics.js';
import { measuredCli } from './measured-cli.js';
import { changeLogBytes, cli, peakResidentBytes, resetPeakResidentBytes, root, startServe, stop } from './support.js';

/** What {@link measureSync} measured; times in seconds, memory in bytes. */
export interface SyncBenchFigures {
  size: DatasetSize;
  items: number;
  /**
   * Full sync from a `serve` process on loopback by the `sync` command (its staging's writes of
   * 100 ms, commandLineSyncPolicy), from spawn to its summary line (target ≤ 120 s for large);
   * NaN when left out.
   */
  fullFromServe: number;
  /**
   * The same full sync into a new replica at the pace of the syncs `serve` and the app run (writes
   * of 20 ms, so that requests wait no longer; the command line's pace before 2026-11-29 too).
   */
  fullFromServeAtServersPace: number;
  /** Incremental sync from the same `serve` when nothing changed: probe, empty pages, persist. */
  unchangedFromServe: number;
  /** A full sync again from the same `serve` into the same replica, which it compares with its remote: nothing differs (its collection after it not counted). */
  fullAgainFromServe: number;
  /** The same full sync as {@link fullFromServe}, into a new replica, through a proxy answering {@link slowLinkDelayMs} late (target ≤ 1.2 × it). */
  fullThroughSlowLink: number;
  slowLinkDelayMs: number;
  /** The most requests the slow link's proxy had in flight at once during that sync. */
  slowLinkMostInFlight: number;
  /** Full sync from the in-process remote: the sync's own cost with a fast remote (at the pace of `serve`'s syncs, as below). */
  fullFromMemory: number;
  /** Incremental sync with 1% of every collection changed (target ≤ 10 s for large). */
  incremental: number;
  incrementalItems: number;
  /** Incremental sync from the in-process remote right after it, nothing changed: what it writes is its record. */
  unchangedFromMemory: number;
  /** A second full sync from the in-process remote, nothing different: it compares the replica with it rather than filling an empty one. */
  fullAgainFromMemory: number;
  /** What the replica holds after its first full sync from `serve`, and after a repeated one into it (targets: file ≤ 1.1 × data, free ≤ 10 %, peak ≤ 1.5 × data). */
  firstFullWeight: FullSyncWeight | null;
  repeatedFullWeight: FullSyncWeight | null;
  /**
   * A full sync by the command into the same replica once the remote was seeded again with
   * another seed: more than 50,000 differences, so it drops them and replaces the replica in place
   * (time to its summary line, then its weight).
   */
  fullReplacedFromServe: number;
  replacedFullWeight: FullSyncWeight | null;
  /** Peak resident memory of this process (`process.resourceUsage().maxRSS`), after the serve-based syncs and at the end. */
  peakAfterServeSync: number;
  peakAtEnd: number;
}

/**
 * A replica's weight after a full sync, once collection (which gives the replaced inventory's
 * pages back) and a checkpoint ran, as after the `sync` command; bytes.
 */
export interface FullSyncWeight {
  /** The data: pages in use × page size. */
  dataBytes: number;
  /** The snapshot file on disk, and the change logs beside it. */
  fileBytes: number;
  logBytes: number;
  /** Free pages, as a share of the file's pages. */
  freeShare: number;
  /** Peak resident memory (VmHWM) of the syncing process: the `sync` command's, its collection and closing checkpoint included. */
  peakBytes: number;
  /** The collection's time after the sync (its deletes, then the pages given back; in the command, up to its exit, the checkpoint at close included), seconds. */
  collectSeconds: number;
}

const seconds = (since: number) => (performance.now() - since) / 1000;
const itemCount = (report: SyncReport) => Object.values(report.counts).reduce((sum, n) => sum + n, 0);
const peakBytes = () => process.resourceUsage().maxRSS * 1024;

/** Changes `updated_at` (and a field) of every hundredth item of each collection (those at `residue` of 100); new arrays, so the remote re-sorts. */
export function changeOnePercent(inventory: Inventory, residue = 50): void {
  const now = new Date().toISOString();
  const touch = <T extends { updated_at: string }>(items: T[], change: (item: T) => Partial<T>) =>
    items.map((item, i) => (i % 100 === residue ? { ...item, ...change(item), updated_at: now } : item));
  inventory.endpoints = touch(inventory.endpoints, (e) => ({ hostname: `${e.hostname}-renamed` }));
  inventory.remediationTargets = touch(inventory.remediationTargets, () => ({ status: 'resolved' as const }));
  inventory.scopes = touch(inventory.scopes, () => ({ status: 'paused' as const }));
  inventory.findings = touch(inventory.findings, () => ({ status: 'remediated' as const }));
}

/**
 * Has the in-process remote sort its collections, parse their update times and filter them as
 * the sync's count checks ask (count-check.ts): that is its work (a tenant service has indexes
 * for it), not the sync's, which is measured after. Unwarmed, the nine totals a sync asks after
 * its merge cost the remote a pass over a million findings each, about 2 s of a 1 % sync on `large`.
 */
export async function warmFakeRemote(fake: FakeRemote): Promise<void> {
  const remote = { baseUrl: fake.url, apiKey: fake.apiKey };
  for (const collection of syncOrder) {
    await fetchPage(remote, `${collections[collection].v1Path}?limit=1&updatedSince=1970-01-01T00:00:00Z`, defaultSyncPolicy);
  }
  for (const check of syncCountChecks) {
    if (check.filter !== '') await fetchPage(remote, `${collections[check.collection].v1Path}?limit=1&offset=0&${check.filter}`, defaultSyncPolicy);
  }
}

/** How late the slow link's proxy answers each request. */
const slowLinkDelayMs = 50;

/** Starts bench/delay-proxy.mjs, in a process of its own, in front of `target`; closed, it answers the most requests it had in flight at once. */
async function startDelayProxy(target: string, delayMs: number): Promise<{ url: string; close(): Promise<number> }> {
  const child = spawn(process.execPath, [path.join(root, 'bench', 'delay-proxy.mjs'), target, String(delayMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const match = /listening on (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', () => reject(new Error('the delay proxy exited')));
  });
  return {
    url,
    close: async () => {
      await stop(child);
      return Number(/most in flight: (\d+)/.exec(output)?.[1] ?? Number.NaN);
    },
  };
}

/** A replica's {@link FullSyncWeight} as `store` holds it, with the sync's peak and collection's seconds. */
function weightOf(store: Store, dataDir: string, peakBytes: number, collectSeconds: number): FullSyncWeight {
  const { bytes, freeBytes } = store.pageBytes();
  const database = dataDirectoryFiles(dataDir).database;
  return { dataBytes: bytes - freeBytes, fileBytes: fs.statSync(database).size, logBytes: changeLogBytes(database), freeShare: freeBytes / bytes, peakBytes, collectSeconds };
}

/**
 * A full sync of the remote at `remoteUrl` into the replica `r` of a data directory (connected
 * first when new) by the `sync` command, a process of its own as a user runs it: its staging,
 * then the collection and the checkpoint its close makes. Answers its items, the seconds from
 * spawn to its summary line (node's start and the store's opening included), and the replica's
 * {@link FullSyncWeight}: the process's peak, and the seconds from that line to its exit as
 * the collection's.
 */
async function commandFullSync(dataDir: string, remoteUrl: string, apiKey: string): Promise<{ items: number; seconds: number; weight: FullSyncWeight }> {
  if (!fs.existsSync(dataDirectoryFiles(dataDir).database)) {
    const keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rc-sync-bench-key-')), 'key');
    fs.writeFileSync(keyFile, apiKey, { mode: 0o600 });
    try {
      cli(dataDir, 'orgs', 'connect', '--slug', 'r', '--remote', remoteUrl, '--api-key-file', keyFile);
    } finally {
      fs.rmSync(path.dirname(keyFile), { recursive: true, force: true });
    }
  }
  const figures = await measuredCli(dataDir, 'sync', '--org', 'r', '--full');
  const summary = figures.stdoutLines.find(({ line }) => line.startsWith('Synced '));
  if (!summary) throw new Error(`the sync command printed no summary line:\n${figures.stdout}`);
  // "Synced "r" (full): 20000 endpoints, 200 remediation targets, 1000 scopes, 1000000 findings."
  const items = [...summary.line.slice(summary.line.indexOf(':')).matchAll(/(\d+) /g)].reduce((sum, [, count]) => sum + Number(count), 0);
  const store = await Store.open({ dataDir, readOnly: true });
  try {
    return { items, seconds: summary.seconds, weight: weightOf(store, dataDir, figures.peakResidentBytes, figures.seconds - summary.seconds) };
  } finally {
    store.close();
  }
}

/**
 * A full sync of the remote at `remoteUrl` into the replica `r` of a data directory (connected
 * first when new) in this process, with `policy` (serve's pace: the command cannot take it),
 * then its collection and a checkpoint, as the `sync` command runs them; answers its items,
 * seconds and the replica's {@link FullSyncWeight}.
 */
async function fullSync(dataDir: string, remoteUrl: string, apiKey: string, policy: Partial<SyncPolicy>): Promise<{ items: number; seconds: number; weight: FullSyncWeight }> {
  const store = await Store.open({ dataDir, command: 'sync-bench' });
  try {
    const sealer = keyFileSealer(dataDirectoryFiles(dataDir).sealingKey);
    const organization = store.organizations.bySlug('r') ?? (await connectReplicaOrganization(store, sealer, { slug: 'r', remoteUrl, apiKey }));
    resetPeakResidentBytes(process.pid);
    const started = performance.now();
    const items = itemCount(await syncOrganization(store, organization, { baseUrl: remoteUrl, apiKey }, { full: true, policy }));
    const took = seconds(started);
    const collecting = performance.now();
    await store.inventories.collect(policy.stagedWriteMs ?? defaultSyncPolicy.stagedWriteMs);
    const collectSeconds = seconds(collecting);
    await store.checkpoint();
    return { items, seconds: took, weight: weightOf(store, dataDir, peakResidentBytes(process.pid), collectSeconds) };
  } finally {
    store.close();
  }
}

/**
 * A full sync from a `serve` process seeded with the dataset, then an incremental one with
 * nothing changed; then the same full sync into a new replica through the slow link, in the same
 * run, so that the ratio of the two is what the link's latency costs.
 */
async function measureFromServe(size: DatasetSize, remoteDir: string, localDir: string, log: (line: string) => void) {
  log(`seeding a remote with the ${size} dataset`);
  cli(remoteDir, 'orgs', 'create', '--slug', 'bench', '--name', 'Benchmark');
  const apiKey = cli(remoteDir, 'keys', 'create', '--org', 'bench').trim();
  cli(remoteDir, 'seed', '--org', 'bench', '--size', size, '--seed', '7');
  let serve = await startServe(remoteDir);
  try {
    log('full sync from serve');
    const dataDir = path.join(localDir, 'loopback');
    const { items, seconds: fullFromServe, weight: firstFullWeight } = await commandFullSync(dataDir, serve.url, apiKey);
    log('incremental sync from serve, nothing changed');
    const store = await Store.open({ dataDir, command: 'sync-bench' });
    let unchangedFromServe: number;
    try {
      const started = performance.now();
      await syncOrganization(store, store.organizations.bySlug('r')!, { baseUrl: serve.url, apiKey });
      unchangedFromServe = seconds(started);
    } finally {
      store.close();
    }
    log('full sync from serve again, into the same replica');
    const { seconds: fullAgainFromServe, weight: repeatedFullWeight } = await commandFullSync(dataDir, serve.url, apiKey);
    log(`full sync from serve through a proxy answering ${slowLinkDelayMs} ms late`);
    const proxy = await startDelayProxy(serve.url, slowLinkDelayMs);
    const slow = await commandFullSync(path.join(localDir, 'slow-link'), proxy.url, apiKey).catch(async (error: unknown) => {
      await proxy.close();
      throw error;
    });
    const slowLinkMostInFlight = await proxy.close();
    log("full sync from serve at the pace of serve's own syncs");
    const { seconds: fullFromServeAtServersPace } = await fullSync(path.join(localDir, 'servers-pace'), serve.url, apiKey, {});
    log('the remote seeded again with another seed, then a full sync into the same replica: it replaces it in place');
    await stop(serve.child);
    cli(remoteDir, 'seed', '--org', 'bench', '--size', size, '--seed', '8');
    serve = await startServe(remoteDir, Number(new URL(serve.url).port));
    const { seconds: fullReplacedFromServe, weight: replacedFullWeight } = await commandFullSync(dataDir, serve.url, apiKey);
    return {
      items,
      fullFromServe,
      fullFromServeAtServersPace,
      unchangedFromServe,
      fullAgainFromServe,
      fullThroughSlowLink: slow.seconds,
      slowLinkMostInFlight,
      firstFullWeight,
      repeatedFullWeight,
      fullReplacedFromServe,
      replacedFullWeight,
    };
  } finally {
    await stop(serve.child);
  }
}

/**
 * Measures the syncs of a dataset; `log` hears what is being done, for a long run. Without
 * `fromServe` the `serve` part (the longest: seeding, then a remote bound by its own paging) is
 * left out; without `fromMemory`, the in-process remote's part.
 */
export async function measureSync(
  size: DatasetSize = 'large',
  log: (line: string) => void = () => undefined,
  { fromServe = true, fromMemory = true } = {},
): Promise<SyncBenchFigures> {
  const remoteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-sync-bench-remote-'));
  const localDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-sync-bench-local-'));
  try {
    const fromServeFigures = fromServe ? await measureFromServe(size, remoteDir, path.join(localDir, 'serve'), log) : undefined;
    const peakAfterServeSync = peakBytes();
    const fromServeOnly = {
      size,
      fullFromServe: fromServeFigures?.fullFromServe ?? Number.NaN,
      fullFromServeAtServersPace: fromServeFigures?.fullFromServeAtServersPace ?? Number.NaN,
      unchangedFromServe: fromServeFigures?.unchangedFromServe ?? Number.NaN,
      fullAgainFromServe: fromServeFigures?.fullAgainFromServe ?? Number.NaN,
      fullThroughSlowLink: fromServeFigures?.fullThroughSlowLink ?? Number.NaN,
      slowLinkDelayMs,
      slowLinkMostInFlight: fromServeFigures?.slowLinkMostInFlight ?? Number.NaN,
      firstFullWeight: fromServeFigures?.firstFullWeight ?? null,
      repeatedFullWeight: fromServeFigures?.repeatedFullWeight ?? null,
      fullReplacedFromServe: fromServeFigures?.fullReplacedFromServe ?? Number.NaN,
      replacedFullWeight: fromServeFigures?.replacedFullWeight ?? null,
      peakAfterServeSync,
    };
    if (!fromMemory) {
      const nothing = Number.NaN;
      return { ...fromServeOnly, items: fromServeFigures?.items ?? 0, fullFromMemory: nothing, incremental: nothing, incrementalItems: 0, unchangedFromMemory: nothing, fullAgainFromMemory: nothing, peakAtEnd: peakBytes() };
    }

    log('generating the dataset for the in-process remote');
    const inventory = generateInventory(size, 7);
    const fake = await startFakeRemote({ inventory, cacheOrder: true });
    const warm = () => warmFakeRemote(fake);
    try {
      const store = await Store.open({ dataDir: path.join(localDir, 'memory'), command: 'sync-bench' });
      try {
        const organization = store.write(() => store.organizations.insert({ slug: 'r', name: 'r', kind: 'replica', remoteUrl: fake.url }), { changes: ['organizations', 'inventory'] });
        const remote = { baseUrl: fake.url, apiKey: fake.apiKey };
        await warm();
        log('full sync from the in-process remote');
        let started = performance.now();
        const full = await syncOrganization(store, organization, remote);
        const fullFromMemory = seconds(started);
        changeOnePercent(inventory);
        await warm();
        log('incremental sync, 1% changed');
        started = performance.now();
        const report = await syncOrganization(store, organization, remote);
        const incremental = seconds(started);
        if (report.mode !== 'incremental') throw new Error(`expected an incremental sync, got ${report.mode}`);
        log('incremental sync, nothing changed');
        started = performance.now();
        await syncOrganization(store, organization, remote);
        const unchangedFromMemory = seconds(started);
        log('full sync again from the in-process remote');
        started = performance.now();
        await syncOrganization(store, organization, remote, { full: true });
        const fullAgainFromMemory = seconds(started);
        return {
          ...fromServeOnly,
          items: fromServeFigures?.items ?? itemCount(full),
          fullFromMemory,
          incremental,
          incrementalItems: itemCount(report),
          unchangedFromMemory,
          fullAgainFromMemory,
          peakAtEnd: peakBytes(),
        };
      } finally {
        store.close();
      }
    } finally {
      await fake.close();
    }
  } finally {
    fs.rmSync(remoteDir, { recursive: true, force: true });
    fs.rmSync(localDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await measureSync((process.env.BENCH_SIZE ?? 'large') as DatasetSize, (line) => console.log(`… ${line}`), {
    fromServe: process.env.BENCH_SYNC_FROM_SERVE !== '0',
    fromMemory: process.env.BENCH_SYNC_FROM_MEMORY !== '0',
  });
  console.log(JSON.stringify(figures, null, 2));
}
