/**
 * Reconcile figures: a replica (a store in a data directory) fully synced from the in-process
 * remote of sync-bench.ts, then reconciled with nothing different, then with 1 % of every
 * collection changed without a newer `updated_at` and 1 % of the findings deleted. For each
 * reconcile: its time, the bytes the data directory grew by (the change log; a checkpoint that
 * folds it meanwhile can only lower the figure), the peak resident memory sampled while it ran
 * against the database file's size, and the longest the event loop was held (what a request
 * waits behind it). Part of the `reconcile` section of `npm run bench` (reconcile-section.ts); run
 * alone: `npx tsx bench/reconcile-bench.ts [demo|medium|large]`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { DatasetSize, Inventory } from '../contracts/inventory.js';
import { generateInventory } from '../server/demo/index.js';
import { dataDirectoryFiles } from '../server/store/engine/data-directory.js';
import { Store } from '../server/store/store.js';
import { startFakeRemote } from '../server/test/support/fake-remote.js';
import { type SyncReport, syncOrganization } from '../server/sync/sync-organization.js';
import { syncCountChecks } from '../contracts/console/sync-basics.js';
import { collections } from '../contracts/collections.js';
import { fetchPage } from '../server/sync/remote-pages.js';
import { defaultSyncPolicy } from '../server/sync/sync-policy.js';
import type { FakeRemote } from '../server/test/support/fake-remote.js';
import { warmFakeRemote } from './sync-bench.js';

/** Has the in-process remote sort its collections and filter them for the count checks: its work, not the reconcile's. */
async function warm(fake: FakeRemote): Promise<void> {
  await warmFakeRemote(fake);
  for (const check of syncCountChecks) {
    await fetchPage({ baseUrl: fake.url, apiKey: fake.apiKey }, `${collections[check.collection].v1Path}?limit=1&${check.filter}`, defaultSyncPolicy);
  }
}

/** One reconcile measured. */
export interface ReconcileFigures {
  mode: SyncReport['mode'];
  seconds: number;
  /** Bytes the data directory grew by (target ≤ 1 MiB when nothing differs). */
  bytesWritten: number;
  /** Peak resident memory while it ran, over the database file's size (target ≤ 1.5). */
  peakOverFile: number;
  /** Longest the event loop was held, in ms (target ≤ 100). */
  longestHoldMs: number;
}

/** The bytes of every file of a directory. */
function directoryBytes(dir: string): number {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .reduce((sum, entry) => (entry.isFile() ? sum + fs.statSync(path.join(entry.parentPath, entry.name)).size : sum), 0);
}

/** Changes 1 % of every collection without a newer `updated_at`, and deletes 1 % of the findings: what only a reconcile sees. */
function changeUnseen(inventory: Inventory): void {
  const touch = <T>(items: T[], change: (item: T) => Partial<T>) => items.map((item, i) => (i % 100 === 50 ? { ...item, ...change(item) } : item));
  inventory.endpoints = touch(inventory.endpoints, (e) => ({ hostname: `${e.hostname}-reseeded` }));
  inventory.remediationTargets = touch(inventory.remediationTargets, () => ({ status: 'resolved' as const }));
  inventory.scopes = touch(inventory.scopes, () => ({ status: 'paused' as const }));
  inventory.findings = touch(inventory.findings, () => ({ status: 'remediated' as const })).filter((_finding, i) => i % 100 !== 75);
}

/** Measures the reconciles of a dataset; `log` hears what is being done. */
export async function measureReconcile(size: DatasetSize = 'large', log: (line: string) => void = () => undefined): Promise<ReconcileFigures[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-reconcile-bench-'));
  log(`generating the ${size} dataset`);
  const inventory = generateInventory(size, 7);
  const fake = await startFakeRemote({ inventory, cacheOrder: true });
  const store = await Store.open({ dataDir, command: 'reconcile-bench' });
  try {
    const organization = store.write(() => store.organizations.insert({ slug: 'r', name: 'r', kind: 'replica', remoteUrl: fake.url }), { changes: ['organizations', 'inventory'] });
    const remote = { baseUrl: fake.url, apiKey: fake.apiKey };
    await warm(fake);
    log('full sync');
    await syncOrganization(store, organization, remote);
    await store.checkpoint();
    const figures: ReconcileFigures[] = [];
    const measure = async () => {
      await warm(fake);
      const bytes = directoryBytes(dataDir);
      const file = fs.statSync(dataDirectoryFiles(dataDir).database).size;
      let peak = process.memoryUsage.rss();
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
      const holds = monitorEventLoopDelay({ resolution: 10 });
      holds.enable();
      const started = performance.now();
      const report = await syncOrganization(store, organization, remote, { reconcile: true });
      const seconds = (performance.now() - started) / 1000;
      holds.disable();
      clearInterval(sampler);
      figures.push({ mode: report.mode, seconds, bytesWritten: directoryBytes(dataDir) - bytes, peakOverFile: peak / file, longestHoldMs: holds.max / 1e6 });
    };
    log('reconcile, nothing different');
    await measure();
    changeUnseen(inventory);
    log('reconcile, 1 % changed without a newer updated_at and 1 % of the findings deleted');
    await measure();
    return figures;
  } finally {
    store.close();
    await fake.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const size = (process.argv[2] ?? 'large') as DatasetSize;
  console.log(JSON.stringify(await measureReconcile(size, (line) => console.error(line)), null, 2));
}
