/**
 * Imports of a 400,000-row EPSS file as the console makes them (issue 36): `POST
 * /app/intel/imports` on a running `serve` of a copy of the dataset, timed by the client while
 * `/health` is asked every 10 ms, with the bytes the server process wrote (its /proc/<pid>/io)
 * and its peak resident memory (VmHWM, reset before each import) against its memory before.
 * Three files of consecutive days: the first import (every row new), a file with every score
 * changed, and one with 1 % of them changed.
 */
import path from 'node:path';
import zlib from 'node:zlib';
import { type EpssRow, epssCsv, generatedEpssRows, generatedScore } from '../server/test/support/epss-files.js';
import { ioOf } from './bulk-tag-bench.js';
import { pingHealth, waitFigures } from './health-pings.js';
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

/** The files of three consecutive days and how many rows each changes. */
function files(): { what: string; rows: EpssRow[]; rowsChanged: number; date: string }[] {
  const first = generatedEpssRows([], epssBenchRows, 1);
  const second = generatedEpssRows([], epssBenchRows, 2);
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
export async function measureIntelImports(dataDir: string, slug: string, workDir: string): Promise<IntelImportFigures[]> {
  const copy = path.join(workDir, 'intel');
  copyDataDir(dataDir, copy);
  const serve = await startServe(copy);
  const pid = serve.child.pid!;
  const figures: IntelImportFigures[] = [];
  try {
    // The imports meet the server once it has settled, as in the API section: its dashboard read (which serve otherwise starts 2 s after start) done.
    const dashboard = await fetch(`${serve.url}/app/orgs/${slug}/dashboard`, { headers: { 'x-console-script-token': serve.consoleToken } });
    if (dashboard.status !== 200) throw new Error(`dashboard: ${dashboard.status} ${await dashboard.text()}`);
    for (const file of files()) {
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
  } finally {
    await stop(serve.child);
  }
  return figures;
}
