/**
 * Reports (issue 40) on a running `serve` of a copy of the dataset: an executive report of the
 * whole organization made twice (the second with its delta against the first), then a technical
 * one with its appendix of every finding, once the server's warm-up has finished, each timed while
 * `/health` is asked every 10 ms, with the size of its HTML and figures (and appendix), and the
 * served process's peak resident memory during it (VmHWM, reset before each) against its resident
 * memory before.
 */
import path from 'node:path';
import type { ReportFigures, ReportSummary } from '../contracts/console/reports.js';
import { pingHealth, waitFigures } from './health-pings.js';
import { copyDataDir, loadAverage, mib, peakResidentBytes, residentBytes, resetPeakResidentBytes, sayMeasureTable, startServe, stop, untilIdle } from './support.js';

/** The bytes of a download, read as a stream: an appendix is never held whole here either. */
async function byteLength(url: string, headers: Record<string, string>): Promise<number> {
  let bytes = 0;
  for await (const chunk of (await fetch(url, { headers })).body!) bytes += (chunk as Uint8Array).byteLength;
  return bytes;
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
      const residentBefore = residentBytes(pid);
      resetPeakResidentBytes(pid);
      const pings = pingHealth(serve.url);
      const started = performance.now();
      const response = await fetch(`${org}/reports`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', origin: serve.url }, body: JSON.stringify({ filter: '', template }) });
      const ms = performance.now() - started;
      const peak = peakResidentBytes(pid);
      const waits = waitFigures(await pings.stop());
      if (response.status !== 201) throw new Error(`report: ${response.status} ${await response.text()}`);
      const summary = (await response.json()) as ReportSummary;
      const html = (await (await fetch(`${org}/reports/${summary.id}`, { headers })).arrayBuffer()).byteLength;
      const figuresText = await (await fetch(`${org}/reports/${summary.id}?format=json`, { headers })).text();
      const appendix = (JSON.parse(figuresText) as ReportFigures).appendix;
      const appendixText = appendix ? `, appendix ${appendix.csv.rows} findings: CSV ${mib(await byteLength(`${org}/reports/${summary.id}?format=appendix-csv`, headers))}, JSON ${mib(await byteLength(`${org}/reports/${summary.id}?format=appendix-json`, headers))}` : '';
      const memory = `peak memory ${mib(peak)} against ${mib(residentBefore)} before (${(peak / residentBefore).toFixed(2)} ×)`;
      rows.push(
        `| ${which} (HTML ${mib(html)}, figures ${mib(Buffer.byteLength(figuresText))}${appendixText}) | ${(ms / 1000).toFixed(2)} s, slowest /health ${waits.max.toFixed(1)} ms (p99 ${waits.p99.toFixed(1)} ms), ${memory} | ${template === 'executive' ? '≤ 5 s, ' : 'peak memory ≤ 1.2 × before, '}/health ≤ 100 ms |`,
      );
    }
  } finally {
    await stop(serve.child);
  }
  sayMeasureTable(
    say,
    'Reports',
    'On a `serve` of a copy of the dataset, after its dashboard read and its warm-up: `POST /app/orgs/<org>/reports` with no filter (every finding), executive twice then technical, each while `/health` is asked every 10 ms; ' +
      "memory is the served process's peak resident memory during the report (VmHWM, reset before it) against its resident memory just before.",
    loadBefore,
    rows,
  );
}
