/**
 * What writes cost, each a CLI process as a user runs it, measured by bench/measured-cli.ts
 * (bytes written from /proc/self/io, peak resident memory, wall time): a key's creation and an
 * enrollment-secret rotation on a copy of the dataset, then syncs of a new replica of it: full
 * and with nothing changed from a `serve` of that copy, and with 1 % changed from an in-process
 * remote put on the same port, serving the same generated dataset with every hundredth item
 * changed (a `serve` cannot change its data; the replica's remote URL stays as it is). Besides
 * the CLI, a bulk change of endpoint context through that `serve` (bulk-tag-bench.ts).
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { DatasetSize, Inventory } from '../contracts/inventory.js';
import { generateInventory } from '../server/demo/index.js';
import { startFakeRemote } from '../server/test/support/fake-remote.js';
import { type BulkChangeFigures, measureBulkTag } from './bulk-tag-bench.js';
import { type ProcessFigures, measuredCli } from './measured-cli.js';
import { logFiles } from '../server/store/engine/change-log.js';
import { Store } from '../server/store/store.js';
import { leaveReplayLog } from './replay-log.js';
import { cli, copyDataDir, firstOkAnswer, startServe, stop, untilWarm } from './support.js';
import { changeOnePercent, warmFakeRemote } from './sync-bench.js';

/** The seeded data directory the writes start from. */
export interface WritesSource {
  dataDir: string;
  /** An API key of its organization `slug`, which the replica's syncs use. */
  key: string;
  slug: string;
  size: DatasetSize;
  /** The seed it was generated with, for the in-process remote's copy of it. */
  seed: number;
}

/** What {@link measureWrites} measured. */
export interface WritesFigures {
  /** The database file of the copy the key and the secret were written to. */
  sourceFileBytes: number;
  /** The replica's database file after its syncs. */
  replicaFileBytes: number;
  keyCreation: ProcessFigures;
  secretRotation: ProcessFigures;
  fullSync: ProcessFigures;
  unchangedSync: ProcessFigures;
  onePercentSync: ProcessFigures;
  /** Items the 1 % sync received, as the CLI printed them. */
  onePercentItems: number;
  /** Bulk changes of endpoint context on a `serve` of the copy, every endpoint at once. */
  bulkTag: BulkChangeFigures[];
  /** `serve` to its first 200 on the copy, without a log, then with one of the checkpoint threshold to replay. */
  coldStart: { withoutLogSeconds: number; withLogSeconds: number; logBytes: number };
  /** Seven daily syncs of the replica, a different 1 % changed each day, after the 1 % sync. */
  week: ProcessFigures[];
  /** `serve` to its first 200 on the replica after the week, with the logs the week left to replay. */
  afterWeek: { coldStartSeconds: number; logBytes: number; fileBytes: number };
}

/** The days of {@link WritesFigures.week}: each changes the items at its own residue of 100 (the 1 % sync's is 50). */
const weekResidues = [57, 64, 71, 78, 85, 92, 99];

/** The bytes of the change logs beside a data directory's database. */
const logBytesOf = (dataDir: string) => logFiles(path.join(dataDir, 'inventory.sqlite')).reduce((sum, { file }) => sum + fs.statSync(file).size, 0);

/**
 * Folds a closed data directory's change logs into its snapshot (a store closes without a
 * checkpoint), for {@link leaveReplayLog}, whose log of pages must follow no statements.
 */
async function foldLogs(dataDir: string): Promise<void> {
  const store = await Store.open({ dataDir, command: 'bench' });
  try {
    await store.checkpoint();
  } finally {
    store.close();
  }
}

/** Seconds from spawning `serve` on `dataDir` to its first 200 answer. */
async function coldStartSeconds(dataDir: string, key: string): Promise<number> {
  const serve = await startServe(dataDir);
  try {
    await firstOkAnswer(serve.url, key);
    return (performance.now() - serve.startedAt) / 1000;
  } finally {
    await stop(serve.child);
  }
}

/** A free loopback port, for a remote that another one replaces later on the same URL. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const dayMs = 86_400_000;

/** Moves the update time of the items `changeOnePercent` changed at `residue` back by `ms`. */
function dateBack(inventory: Inventory, residue: number, ms: number): void {
  for (const items of [inventory.endpoints, inventory.remediationTargets, inventory.scopes, inventory.findings] as { updated_at: string }[][]) {
    for (let i = residue; i < items.length; i += 100) items[i]!.updated_at = new Date(Date.parse(items[i]!.updated_at) - ms).toISOString();
  }
}

/** The items a `sync` printed, after checking it was of the mode expected. */
function syncedItems(figures: ProcessFigures, mode: 'full' | 'incremental'): number {
  const match = /\((full|incremental)\): (\d+) endpoints, (\d+) remediation targets, (\d+) scopes, (\d+) findings/.exec(figures.stdout);
  if (!match) throw new Error(`sync printed no counts:\n${figures.stdout}`);
  if (match[1] !== mode) throw new Error(`expected a ${mode} sync, got a ${match[1]} one:\n${figures.stdout}`);
  return match.slice(2).reduce((sum, n) => sum + Number(n), 0);
}

/** Measures the writes in `workDir` (two data directories of the dataset's size are made there); `log` hears the steps. */
export async function measureWrites(source: WritesSource, workDir: string, log: (line: string) => void): Promise<WritesFigures> {
  const remoteDir = path.join(workDir, 'writes-remote');
  const replicaDir = path.join(workDir, 'writes-replica');
  log('copying the dataset');
  copyDataDir(source.dataDir, remoteDir);
  const fileBytes = (dir: string) => fs.statSync(path.join(dir, 'inventory.sqlite')).size;
  const sourceFileBytes = fileBytes(remoteDir);

  log('keys create');
  const keyCreation = await measuredCli(remoteDir, 'keys', 'create', '--org', source.slug);
  log('enrollment secret rotation');
  const secretRotation = await measuredCli(remoteDir, 'orgs', 'enrollment-secret', '--org', source.slug, '--rotate');
  log('cold start, without a log and with one of the checkpoint threshold');
  const withoutLogSeconds = await coldStartSeconds(remoteDir, source.key);
  await foldLogs(remoteDir);
  const logBytes = leaveReplayLog(remoteDir);
  const coldStart = { withoutLogSeconds, withLogSeconds: await coldStartSeconds(remoteDir, source.key), logBytes };

  const port = await freePort();
  const serve = await startServe(remoteDir, port);
  let fullSync: ProcessFigures;
  let unchangedSync: ProcessFigures;
  let bulkTag: BulkChangeFigures[];
  try {
    log('a bulk tag of every endpoint through serve, and its removal, once serve has settled');
    // Right after start, the first tag shared the thread with serve's warm-up: 8.34 s on `large`;
    // on `medium` at load 10, 6.9–8.4 s with the builds before and after the log of statements
    // alike, and 0.3–1.2 s for either once settled.
    await untilWarm(serve, source.slug);
    bulkTag = await measureBulkTag({ ...serve, pid: serve.child.pid! }, source.slug);
    const keyFile = path.join(workDir, 'writes-remote-key.txt');
    fs.writeFileSync(keyFile, source.key, { mode: 0o600 });
    cli(replicaDir, 'orgs', 'connect', '--slug', 'replica', '--remote', serve.url, '--api-key-file', keyFile);
    log('full sync of a new replica from serve');
    fullSync = await measuredCli(replicaDir, 'sync', '--org', 'replica');
    syncedItems(fullSync, 'full');
    log('incremental sync, nothing changed');
    unchangedSync = await measuredCli(replicaDir, 'sync', '--org', 'replica');
    syncedItems(unchangedSync, 'incremental');
  } finally {
    await stop(serve.child);
  }

  log('generating the dataset with 1 % changed for the in-process remote');
  // Dated from today as `seed` dated the source's (seedOrganization): otherwise every changed item's created_at
  // differs from the replica's, and the merge moves each collection's rows after the first of them.
  const inventory = generateInventory(source.size, source.seed, { dayMs: Date.now() });
  changeOnePercent(inventory);
  let fake = await startFakeRemote({ inventory, cacheOrder: true, apiKey: source.key, port });
  let fakeOpen = true;
  const closeFake = async () => {
    if (fakeOpen) await fake.close();
    fakeOpen = false;
  };
  try {
    await warmFakeRemote(fake);
    log('incremental sync, 1 % changed');
    const onePercentSync = await measuredCli(replicaDir, 'sync', '--org', 'replica');
    const onePercentItems = syncedItems(onePercentSync, 'incremental');
    await closeFake();
    const week: ProcessFigures[] = [];
    let syncedResidue = 50;
    for (const [day, residue] of weekResidues.entries()) {
      // A day has passed since the last sync: what it took is dated a day back, past the sync's
      // margin (incrementalMarginMs, 10 min), which would otherwise pull every earlier day's
      // changes again (the week's syncs run minutes apart: on large, day 4 pulled 50,000 and
      // turned into a full sync).
      dateBack(inventory, syncedResidue, dayMs);
      syncedResidue = residue;
      changeOnePercent(inventory, residue);
      fake = await startFakeRemote({ inventory, cacheOrder: true, apiKey: source.key, port });
      fakeOpen = true;
      await warmFakeRemote(fake);
      log(`a week of daily syncs: day ${day + 1}, 1 % changed`);
      week.push(await measuredCli(replicaDir, 'sync', '--org', 'replica'));
      syncedItems(week.at(-1)!, 'incremental');
      await closeFake();
    }
    // A key of the replica's own, made before its logs are measured (it logs a statement of its own).
    const replicaKey = cli(replicaDir, 'keys', 'create', '--org', 'replica').trim();
    const afterWeek = { logBytes: logBytesOf(replicaDir), fileBytes: fileBytes(replicaDir), coldStartSeconds: await coldStartSeconds(replicaDir, replicaKey) };
    return {
      sourceFileBytes,
      replicaFileBytes: fileBytes(replicaDir),
      keyCreation,
      secretRotation,
      fullSync,
      unchangedSync,
      onePercentSync,
      onePercentItems,
      bulkTag,
      coldStart,
      week,
      afterWeek,
    };
  } finally {
    await closeFake();
  }
}
