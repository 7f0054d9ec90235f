/**
 * Reports (issue 40) on a running `serve` of a copy of the dataset: an executive report of the
 * whole organization made twice (the second with its delta against the first), each timed while
 * `/health` is asked every 10 ms, with the size of its HTML and figures, once the server's warm-up
 * has finished.
 */
import path from 'node:path';
import type { ReportSummary } from '../contracts/console/reports.js';
import { pingHealth, waitFigures } from './health-pings.js';
import { copyDataDir, loadAverage, mib, sayMeasureTable, startServe, stop, untilIdle } from './support.js';

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
    await untilIdle(serve.child.pid!);
    for (const which of ['first', 'second (with its delta)']) {
      const pings = pingHealth(serve.url);
      const started = performance.now();
      const response = await fetch(`${org}/reports`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', origin: serve.url }, body: JSON.stringify({ filter: '' }) });
      const ms = performance.now() - started;
      const waits = waitFigures(await pings.stop());
      if (response.status !== 201) throw new Error(`report: ${response.status} ${await response.text()}`);
      const summary = (await response.json()) as ReportSummary;
      const html = (await (await fetch(`${org}/reports/${summary.id}`, { headers })).arrayBuffer()).byteLength;
      const figures = (await (await fetch(`${org}/reports/${summary.id}?format=json`, { headers })).arrayBuffer()).byteLength;
      rows.push(
        `| executive report of the whole organization, ${which} (HTML ${mib(html)}, figures ${mib(figures)}) | ${(ms / 1000).toFixed(2)} s, slowest /health ${waits.max.toFixed(1)} ms (p99 ${waits.p99.toFixed(1)} ms) | ≤ 5 s, /health ≤ 100 ms |`,
      );
    }
  } finally {
    await stop(serve.child);
  }
  sayMeasureTable(
    say,
    'Reports',
    'On a `serve` of a copy of the dataset, after its dashboard read and its warm-up: `POST /app/orgs/<org>/reports` with no filter (every finding), twice, each while `/health` is asked every 10 ms.',
    loadBefore,
    rows,
  );
}
