/**
 * Imports of a 400,000-row EPSS file as the console makes them (issue 36): `POST
 * /app/intel/imports` on a running `serve` of a copy of the dataset, timed by the client while
 * `/health` is asked every 10 ms, with the bytes the server process wrote (its /proc/<pid>/io)
 * and its peak resident memory (VmHWM, reset before each import) against its memory before.
 * Three files of consecutive days: the first import (every row new), a file with every score
 * changed, and one with 1 % of them changed. The files score the dataset's CVEs first, so that
 * the findings sorted and filtered by EPSS afterwards (first page, then again) sort real scores.
 */
import path from 'node:path';
import zlib from 'node:zlib';
import { type EpssRow, epssCsv, generatedEpssRows, generatedScore } from '../server/test/support/epss-files.js';
import { ioOf } from './bulk-tag-bench.js';
import { pingHealth, waitFigures } from './health-pings.js';
import { consoleRequest } from './waits-bench.js';
import { cveIdOfKey } from '../server/store/intel/cve-key.js';
import { Store } from '../server/store/store.js';
import { copyDataDir, peakResidentBytes, residentBytes, resetPeakResidentBytes, startServe, stop } from './support.js';

/** The rows of the file FIRST published on 2026-09-29: about 400,000. */
export const epssBenchRows = 400_000;

/** One import measured. */
export interface IntelImportFigures {
  what: string;
  /** Rows the import changed, as counted by the difference from the file before. */
  rowsChanged: number;
  gzipBytes: number;
  ms: number;
  bytesWritten: number;
  bytesWrittenSource: 'write_bytes' | 'wchar';
  residentBefore: number;
  peakResident: number;
  healthMaxMs: number;
  healthP99Ms: number;
}

/** One list of findings by EPSS measured after the imports: its first page, and the same page again. */
export interface EpssListFigures {
  query: string;
  total: number;
  firstMs: number;
  againMs: number;
}

/** The CVEs the dataset's inventories name, read from a data directory. */
async function datasetCves(dataDir: string): Promise<string[]> {
  const store = await Store.open({ dataDir, readOnly: true });
  try {
    return [...store.intel.epss.namedCveKeys()].map(cveIdOfKey);
  } finally {
    store.close();
  }
}

/** {@link epssBenchRows} generated rows, `cves` first, the made-up ones that would name one of them again left out. */
function rowsScoring(cves: readonly string[], seed: number): EpssRow[] {
  const named = new Set(cves);
  return generatedEpssRows(cves, epssBenchRows + cves.length, seed)
    .filter((row, index) => index < cves.length || !named.has(row[0]))
    .slice(0, epssBenchRows);
}

/** The files of three consecutive days and how many rows each changes. */
function files(cves: readonly string[]): { what: string; rows: EpssRow[]; rowsChanged: number; date: string }[] {
  const first = rowsScoring(cves, 1);
  const second = rowsScoring(cves, 2);
  // Every hundredth row scored anew, the others as the day before.
  const third = second.map((row, index): EpssRow => (index % 100 === 0 ? [row[0], generatedScore(index, 3), row[2]] : row));
  const changed = (a: EpssRow[], b: EpssRow[]) => a.filter((row, index) => row[1] !== b[index]![1] || row[2] !== b[index]![2]).length;
  return [
    { what: 'first import: every row new', rows: first, rowsChanged: epssBenchRows, date: '2026-09-29' },
    { what: 'the next day: every score changed', rows: second, rowsChanged: changed(second, first), date: '2026-09-30' },
    { what: 'the day after: 1 % of the scores changed', rows: third, rowsChanged: changed(third, second), date: '2026-10-01' },
  ];
}

/** Serves a copy of `dataDir` and imports the three files into it, one after the other. */
export async function measureIntelImports(dataDir: string, slug: string, workDir: string): Promise<{ imports: IntelImportFigures[]; lists: EpssListFigures[] }> {
  const copy = path.join(workDir, 'intel');
  copyDataDir(dataDir, copy);
  const cves = await datasetCves(copy);
  const serve = await startServe(copy);
  const pid = serve.child.pid!;
  const figures: IntelImportFigures[] = [];
  const lists: EpssListFigures[] = [];
  try {
    // The imports meet the server once it has settled: every read of its warm-up (warm-console-caches.ts, which serve
    // starts 2 s after start) done, as the waits section does, rather than running beside the first import.
    for (const route of ['dashboard', 'remediation-plan', 'remediation-performance', 'vulnerability-findings?status=open&sort=-risk&limit=50']) {
      await consoleRequest(serve, 'GET', `/orgs/${slug}/${route}`);
    }
    for (const file of files(cves)) {
      const body = zlib.gzipSync(epssCsv('v2026.06.15', `${file.date}T12:00:00Z`, file.rows));
      const residentBefore = residentBytes(pid);
      resetPeakResidentBytes(pid);
      const pings = pingHealth(serve.url);
      const before = ioOf(pid);
      const started = performance.now();
      const response = await fetch(`${serve.url}/app/intel/imports`, {
        method: 'POST',
        headers: { 'x-console-script-token': serve.consoleToken, 'content-type': 'application/gzip', origin: serve.url },
        body,
      });
      const answer = (await response.json()) as { rows: number; current: boolean };
      const ms = performance.now() - started;
      const after = ioOf(pid);
      const waits = waitFigures(await pings.stop());
      if (response.status !== 201 || !answer.current || answer.rows !== epssBenchRows) throw new Error(`EPSS import: ${response.status} ${JSON.stringify(answer)}`);
      const counted = after.write_bytes !== undefined;
      figures.push({
        what: file.what,
        rowsChanged: file.rowsChanged,
        gzipBytes: body.byteLength,
        ms,
        bytesWritten: counted ? after.write_bytes! - before.write_bytes! : after.wchar! - before.wchar!,
        bytesWrittenSource: counted ? 'write_bytes' : 'wchar',
        residentBefore,
        peakResident: peakResidentBytes(pid),
        healthMaxMs: waits.max,
        healthP99Ms: waits.p99,
      });
    }
    for (const query of ['sort=-epss', 'sort=epss', 'status=open&sort=-epss', 'epssMin=0.5&sort=-epss', 'kevRansomware=true']) {
      const page = async () => {
        const started = performance.now();
        const response = await fetch(`${serve.url}/app/orgs/${slug}/vulnerability-findings?${query}&limit=50`, { headers: { 'x-console-script-token': serve.consoleToken } });
        const body = (await response.json()) as { total: number };
        if (response.status !== 200) throw new Error(`findings ${query}: ${response.status} ${JSON.stringify(body)}`);
        return { total: body.total, ms: performance.now() - started };
      };
      const first = await page();
      const again = await page();
      lists.push({ query, total: first.total, firstMs: first.ms, againMs: again.ms });
    }
  } finally {
    await stop(serve.child);
  }
  return { imports: figures, lists };
}
