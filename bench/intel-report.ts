import { epssBenchRows, measureIntelImports } from './intel-bench.js';
import { loadAverage, mib } from './support.js';

const mebibyte = 2 ** 20;

/** The report section of EPSS imports: time, bytes written, peak memory and /health meanwhile. */
export async function reportIntelImports(source: { dataDir: string; slug: string }, workDir: string, say: (line?: string) => void): Promise<void> {
  const loadBefore = loadAverage();
  const { imports: figures, lists } = await measureIntelImports(source.dataDir, source.slug, workDir);
  say(`## Exploit intelligence imports`);
  say();
  say(
    `A generated EPSS file of ${epssBenchRows.toLocaleString('en')} rows, gzip (as FIRST ships it), posted to \`/app/intel/imports\` on a \`serve\` of a copy of the dataset, ` +
      `three days in a row. Time as the client saw it; bytes from the server's /proc/<pid>/io before and after; peak resident memory (VmHWM, reset before each import) ` +
      `against the resident memory before it; \`/health\` asked every 10 ms meanwhile. Load average (1, 5, 15 min) ${loadBefore} before, ${loadAverage()} after.`,
  );
  say();
  say(`| import | rows changed | file | time | written to disk | peak memory | slowest /health (p99) | target |`);
  say(`|---|---|---|---|---|---|---|---|`);
  for (const row of figures) {
    say(
      `| ${row.what} | ${row.rowsChanged.toLocaleString('en')} | ${(row.gzipBytes / mebibyte).toFixed(2)} MiB | ${(row.ms / 1000).toFixed(2)} s | ` +
        `${(row.bytesWritten / mebibyte).toFixed(2)} MiB (\`${row.bytesWrittenSource}\`) | ${mib(row.peakResident)} (${(row.peakResident / row.residentBefore).toFixed(2)} × ${mib(row.residentBefore)}) | ` +
        `${row.healthMaxMs.toFixed(1)} ms (${row.healthP99Ms.toFixed(1)} ms) | ≤ 3 s, peak ≤ 1.2 ×, /health ≤ 100 ms, bytes ∝ rows changed |`,
    );
  }
  say();
  say('Findings by EPSS once the files are imported (the files score the dataset\'s CVEs): the first page of 50, then the same page again.');
  say();
  say('| query | findings | first page | again | target |');
  say('|---|---|---|---|---|');
  for (const row of lists) say(`| \`${row.query}\` | ${row.total.toLocaleString('en')} | ${row.firstMs.toFixed(0)} ms | ${row.againMs.toFixed(1)} ms | ≤ 1 s, again ≤ 50 ms |`);
  say();
}
