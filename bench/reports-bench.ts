/**
 * Reports (issue 40) on a running `serve` of a copy of the dataset: an executive report of the
 * whole organization made twice (the second with its delta against the first), then a technical
 * one with its appendix of every finding, once the server's warm-up has finished, each timed while
 * `/health` is asked every 10 ms, with the size of its HTML and figures (and appendix), and the
 * served process's peak resident memory during it (VmHWM, reset before each) against its resident
 * memory before.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ReportFigures, ReportSummary } from '../contracts/console/reports.js';
import type { DatasetSize } from '../contracts/inventory.js';
import { generateInventory } from '../server/demo/index.js';
import { Store } from '../server/store/store.js';
import { syncOrganization } from '../server/sync/sync-organization.js';
import { startFakeRemote } from '../server/test/support/fake-remote.js';
import { pingHealth, waitFigures } from './health-pings.js';
import { copyDataDir, loadAverage, mib, peakResidentBytes, requestAlone, residentBytes, resetPeakResidentBytes, sayMeasureTable, startServe, stop, untilIdle } from './support.js';
import { changeOnePercent, warmFakeRemote } from './sync-bench.js';

/** The bytes of a download, read as a stream: an appendix is never held whole here either. */
async function byteLength(url: string, headers: Record<string, string>): Promise<number> {
  let bytes = 0;
  for await (const chunk of (await fetch(url, { headers })).body!) bytes += (chunk as Uint8Array).byteLength;
  return bytes;
}

/** A report made by `POST /app/orgs/<org>/reports` while `/health` is asked: how long it took, the longest wait, and the served process's peak memory against before. */
async function timedReport(serve: { url: string; consoleToken: string; child: { pid?: number } }, slug: string, body: object) {
  const pid = serve.child.pid!;
  const residentBefore = residentBytes(pid);
  resetPeakResidentBytes(pid);
  const pings = pingHealth(serve.url);
  const started = performance.now();
  // No timeout: Node's fetch gives up waiting for headers after 300 s, which a technical report of `large` on a loaded machine can take.
  const response = await requestAlone(`${serve.url}/app/orgs/${slug}/reports`, {
    method: 'POST',
    headers: { 'x-console-script-token': serve.consoleToken, 'content-type': 'application/json', origin: serve.url },
    body: JSON.stringify(body),
  });
  const ms = performance.now() - started;
  const peak = peakResidentBytes(pid);
  const waits = waitFigures(await pings.stop());
  if (response.status !== 201) throw new Error(`report: ${response.status} ${response.text}`);
  return { summary: JSON.parse(response.text) as ReportSummary, ms, waits, memory: `peak memory ${mib(peak)} against ${mib(residentBefore)} before (${(peak / residentBefore).toFixed(2)} ×)` };
}

/**
 * The dataset of the delta between two syncs: `medium`, not `large`, whose replica would need a
 * full sync of a million findings from an in-process remote (about 2 minutes and 1 GiB more in
 * this process) before the report is measured.
 */
const syncDeltaSize: DatasetSize = 'medium';

/**
 * A replica of an in-process remote of `size`, synced twice (full, then 1 % of every collection
 * changed, a finding in a hundred remediated), in `dataDir`: answers its slug and the ids of the
 * two recorded syncs.
 */
async function replicaSyncedTwice(size: DatasetSize, dataDir: string): Promise<{ slug: string; syncs: [number, number] }> {
  const inventory = generateInventory(size, 7);
  const remote = await startFakeRemote({ inventory, cacheOrder: true });
  try {
    const store = await Store.open({ dataDir, command: 'reports-bench' });
    try {
      const slug = 'replica';
      const organization = store.write(() => store.organizations.insert({ slug, name: 'Replica', kind: 'replica', remoteUrl: remote.url }), { changes: ['organizations', 'inventory'] });
      const connection = { baseUrl: remote.url, apiKey: remote.apiKey };
      await warmFakeRemote(remote);
      const first = await syncOrganization(store, organization, connection);
      changeOnePercent(inventory);
      await warmFakeRemote(remote);
      const second = await syncOrganization(store, organization, connection);
      if (!first.changes || !second.changes) throw new Error('both syncs must be recorded');
      return { slug, syncs: [first.changes.id, second.changes.id] };
    } finally {
      store.close();
    }
  } finally {
    await remote.close();
  }
}

/** The delta of a whole replica between its two syncs (`compare_syncs`), on a serve of it after its warm-up: the section's row. */
async function syncDeltaRow(workDir: string): Promise<string> {
  const dataDir = path.join(workDir, 'reports-sync-delta');
  fs.rmSync(dataDir, { recursive: true, force: true });
  const { slug, syncs } = await replicaSyncedTwice(syncDeltaSize, dataDir);
  const serve = await startServe(dataDir);
  try {
    if ((await fetch(`${serve.url}/app/orgs/${slug}/dashboard`, { headers: { 'x-console-script-token': serve.consoleToken } })).status !== 200) throw new Error('dashboard');
    await untilIdle(serve.child.pid!);
    const { ms, waits, memory } = await timedReport(serve, slug, { filter: '', template: 'executive', compare_syncs: syncs });
    return `| executive report of a replica of \`${syncDeltaSize}\` with its delta between its two syncs (full, then 1 % changed; \`compare_syncs\`) | ${(ms / 1000).toFixed(2)} s, slowest /health ${waits.max.toFixed(1)} ms (p99 ${waits.p99.toFixed(1)} ms), ${memory} | ≤ 5 s, /health ≤ 100 ms |`;
  } finally {
    await stop(serve.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Measures reports on a serve of a copy of `dataDir`, and writes the report's section. */
export async function reportReports(source: { dataDir: string; slug: string }, workDir: string, say: (line?: string) => void): Promise<void> {
  const loadBefore = loadAverage();
  const copy = path.join(workDir, 'reports');
  copyDataDir(source.dataDir, copy);
  const serve = await startServe(copy);
  const headers = { 'x-console-script-token': serve.consoleToken };
  const org = `${serve.url}/app/orgs/${source.slug}`;
  const rows: string[] = [];
  try {
    // Met once the server has settled: its dashboard read done, as in the other sections, and the
    // rest of its warm-up too (a report made meanwhile shares the thread with it and measures both:
    // docs/decisions/reports/report-findings-by-seq.md).
    if ((await fetch(`${org}/dashboard`, { headers })).status !== 200) throw new Error('dashboard');
    const pid = serve.child.pid!;
    await untilIdle(pid);
    const made = [
      { template: 'executive', which: 'executive report of the whole organization, first' },
      { template: 'executive', which: 'executive report of the whole organization, second (with its delta)' },
      { template: 'technical', which: 'technical report of the whole organization, with its appendix of every finding' },
    ];
    for (const { template, which } of made) {
      const { summary, ms, waits, memory } = await timedReport(serve, source.slug, { filter: '', template });
      const html = (await (await fetch(`${org}/reports/${summary.id}`, { headers })).arrayBuffer()).byteLength;
      const figuresText = await (await fetch(`${org}/reports/${summary.id}?format=json`, { headers })).text();
      const appendix = (JSON.parse(figuresText) as ReportFigures).appendix;
      const appendixText = appendix ? `, appendix ${appendix.csv.rows} findings: CSV ${mib(await byteLength(`${org}/reports/${summary.id}?format=appendix-csv`, headers))}, JSON ${mib(await byteLength(`${org}/reports/${summary.id}?format=appendix-json`, headers))}` : '';
      rows.push(
        `| ${which} (HTML ${mib(html)}, figures ${mib(Buffer.byteLength(figuresText))}${appendixText}) | ${(ms / 1000).toFixed(2)} s, slowest /health ${waits.max.toFixed(1)} ms (p99 ${waits.p99.toFixed(1)} ms), ${memory} | ${template === 'executive' ? '≤ 5 s, ' : 'peak memory ≤ 1.2 × before, '}/health ≤ 100 ms |`,
      );
    }
  } finally {
    await stop(serve.child);
  }
  rows.push(await syncDeltaRow(workDir));
  sayMeasureTable(
    say,
    'Reports',
    `On a \`serve\` of a copy of the dataset, after its dashboard read and its warm-up: \`POST /app/orgs/<org>/reports\` with no filter (every finding), executive twice then technical, each while \`/health\` is asked every 10 ms; then, on a serve of a replica of \`${syncDeltaSize}\` synced twice from an in-process remote, an executive report of its delta between the two syncs; ` +
      "memory is the served process's peak resident memory during the report (VmHWM, reset before it) against its resident memory just before.",
    loadBefore,
    rows,
  );
}
