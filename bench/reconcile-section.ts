/**
 * The `reconcile` section of `npm run bench` (issue 26): a reconcile that finds nothing
 * different, on a new replica of a copy of the dataset fully synced from a `serve` of that copy.
 * Three ways of seeing it: the real CLI (`sync --reconcile`, measured by bench/measured-cli.ts:
 * time, bytes written, peak resident memory against the replica's file); the same replica served,
 * reconciled through `POST /app/orgs/replica/sync?reconcile=true` while `/health` is asked every
 * 10 ms (bench/waits-bench.ts: how long other requests wait); and bench/reconcile-bench.ts in
 * this process, with nothing different and then with 1 % changed unseen.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DatasetSize } from '../contracts/inventory.js';
import { waitFigures } from './health-pings.js';
import { type ProcessFigures, measuredCli } from './measured-cli.js';
import { type ReconcileFigures, measureReconcile } from './reconcile-bench.js';
import { cli, copyDataDir, loadAverage, mib, ms, startServe, stop } from './support.js';
import { type WaitRow, consoleRequest, whileSync } from './waits-bench.js';

/** The seeded data directory the replica is made of. */
export interface ReconcileSource {
  dataDir: string;
  /** An API key of its organization `slug`, which the replica uses. */
  key: string;
  slug: string;
  size: DatasetSize;
}

const mebibyte = 2 ** 20;
/** Bytes in MiB, with two decimals below 10 MiB so that a small write reads as what it is. */
const size = (bytes: number) => (bytes < 10 * mebibyte ? `${(bytes / mebibyte).toFixed(2)} MiB` : mib(bytes));

/** The CLI reconcile and the served one, each of a replica equal to its remote. */
async function measureNothingDifferent(
  source: ReconcileSource,
  workDir: string,
  log: (line: string) => void,
): Promise<{ cliReconcile: ProcessFigures; replicaFileBytes: number; waits: WaitRow[] }> {
  const remoteDir = path.join(workDir, 'reconcile-remote');
  const replicaDir = path.join(workDir, 'reconcile-replica');
  log('copying the dataset');
  copyDataDir(source.dataDir, remoteDir);
  // At nice 19: a tenant service runs elsewhere; on two cores its paging would take the
  // replica's core and show as the replica's waits (measured both ways: docs/decisions/sync/reconcile-so-that-a-replica-cannot-go-stale.md).
  const remote = await startServe(remoteDir, 0, 19);
  try {
    const keyFile = path.join(workDir, 'reconcile-remote-key.txt');
    fs.writeFileSync(keyFile, source.key, { mode: 0o600 });
    cli(replicaDir, 'orgs', 'connect', '--slug', 'replica', '--remote', remote.url, '--api-key-file', keyFile);
    log('full sync of a new replica from serve');
    cli(replicaDir, 'sync', '--org', 'replica');
    log('sync --reconcile through the CLI, nothing different');
    const cliReconcile = await measuredCli(replicaDir, 'sync', '--org', 'replica', '--reconcile');
    if (!cliReconcile.stdout.includes('matched its remote')) throw new Error(`the reconcile found differences:\n${cliReconcile.stdout}`);
    const replicaFileBytes = fs.statSync(path.join(replicaDir, 'inventory.sqlite')).size;

    log('a reconcile of the served replica, nothing different, /health asked meanwhile');
    const served = await startServe(replicaDir);
    try {
      // serve reads the dashboard's columns and the exposure figures a little after it starts:
      // asked now, so that the reconcile is measured alone, as on a server that has settled.
      await consoleRequest(served, 'GET', '/orgs/replica/dashboard');
      await consoleRequest(served, 'GET', '/orgs/replica/remediation-plan');
      const waits = await whileSync(served, 'replica', 'a reconcile of the served replica, nothing different', 'reconcile', () =>
        consoleRequest(served, 'POST', '/orgs/replica/sync?reconcile=true'),
      );
      return { cliReconcile, replicaFileBytes, waits };
    } finally {
      await stop(served.child);
    }
  } finally {
    await stop(remote.child);
  }
}

/** The report section of a reconcile; `workDir` receives two data directories of the dataset's size. */
export async function reportReconcile(source: ReconcileSource, workDir: string, say: (line?: string) => void): Promise<void> {
  const loadBefore = loadAverage();
  const log = (line: string) => console.log(`… ${line}`);
  const { cliReconcile, replicaFileBytes, waits } = await measureNothingDifferent(source, workDir, log);
  log('reconcile-bench.ts in this process: nothing different, then 1 % changed unseen');
  const inProcess = await measureReconcile(source.size, log);
  const [nothing, changed] = inProcess as [ReconcileFigures, ReconcileFigures];

  say(`## Reconcile`);
  say();
  say(
    `A reconcile compares a replica with its whole remote item by item and writes only the differences (issue 26). ` +
      `A new replica of a copy of the dataset (organization \`${source.slug}\`) is fully synced from a \`serve\` of that copy (its file ${mib(replicaFileBytes)}, ` +
      `the base of the memory figures), then reconciled with nothing different: first by the CLI as a user runs it ` +
      `(\`sync --org replica --reconcile\`, measured as in the Writes section: bytes the process caused to be written, \`${cliReconcile.bytesWrittenSource}\` ` +
      `of /proc/self/io, and its peak resident memory, VmHWM; wall time from spawn to exit), then through a \`serve\` of the replica (the remote \`serve\` at nice 19, as a tenant service runs on other machines) ` +
      `(\`POST /app/orgs/replica/sync?reconcile=true\`, its dashboard warmed first) while \`/health\` is asked every 10 ms, as in the Waits section. ` +
      `Load average (1, 5, 15 min) ${loadBefore} before.`,
  );
  say();
  say(`| reconcile, nothing different | time | written to disk | passed to write() | peak resident memory | target |`);
  say(`|---|---|---|---|---|---|`);
  say(
    `| \`sync --reconcile\`, the CLI, from \`serve\` | ${cliReconcile.seconds.toFixed(2)} s | ${size(cliReconcile.bytesWritten)} | ${size(cliReconcile.bytesPassed)} | ` +
      `${mib(cliReconcile.peakResidentBytes)} (${(cliReconcile.peakResidentBytes / replicaFileBytes).toFixed(2)} × the file) | ≤ 1 MiB written, peak ≤ 1.5 × the file |`,
  );
  say();
  say(`| while | /health answers | p99 wait | maximum wait | target |`);
  say(`|---|---|---|---|---|`);
  for (const row of waits) {
    const { count, p99, max } = waitFigures(row.pings);
    say(`| ${row.what} | ${count} | ${ms(p99)} | ${ms(max)} | max ≤ 100 ms |`);
  }
  say();
  say(
    `The same in this process (bench/reconcile-bench.ts): a store synced from the in-process remote of the \`${source.size}\` dataset, reconciled ` +
      `with nothing different, then with 1 % of every collection changed without a newer \`updated_at\` and 1 % of the findings deleted. ` +
      `Bytes are the data directory's growth (its change log); the longest hold of the event loop is what a request of the same process ` +
      `would wait; peak memory is this process's, the in-process remote and its dataset included, so above what a replica alone holds.`,
  );
  say();
  say(`| reconcile (in process) | time | data directory growth | longest event-loop hold | peak resident memory, remote included | target |`);
  say(`|---|---|---|---|---|---|`);
  const inProcessRow = (what: string, figures: ReconcileFigures, target: string) =>
    say(`| ${what} (${figures.mode}) | ${figures.seconds.toFixed(2)} s | ${size(figures.bytesWritten)} | ${ms(figures.longestHoldMs)} | ${figures.peakOverFile.toFixed(2)} × the file | ${target} |`);
  inProcessRow('nothing different', nothing, '≤ 1 MiB, hold ≤ 100 ms');
  inProcessRow('1 % changed unseen, 1 % of the findings deleted', changed, '');
  say();
  say(`Load average after the section: ${loadAverage()}.`);
  say();
}
