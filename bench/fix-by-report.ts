import { measureFixBy } from './fix-by-bench.js';
import { loadAverage } from './support.js';

/** The report section of fix-by dates: outcomes of every finding first and again, and an exposure tag on 1,000 endpoints with /health meanwhile. */
export async function reportFixBy(source: { dataDir: string; slug: string }, workDir: string, say: (line?: string) => void): Promise<void> {
  const loadBefore = loadAverage();
  const figures = await measureFixBy(source.dataDir, source.slug, workDir);
  say(`## Fix-by dates`);
  say();
  say(
    'BOD 26-04 outcomes, Coordinator decisions and fix-by dates of every finding, on a `serve` of a copy of the dataset (no Vulnrichment imported: unknown inputs count as the shorter timeline), ' +
      `time as the client saw it, \`/health\` asked every 10 ms meanwhile. Load average (1, 5, 15 min) ${loadBefore} before, ${loadAverage()} after.`,
  );
  say();
  say('| what | first | again | slowest /health | target |');
  say('|---|---|---|---|---|');
  for (const row of figures) {
    say(`| ${row.what} | ${row.firstMs.toFixed(0)} ms | ${Number.isNaN(row.againMs) ? '' : `${row.againMs.toFixed(1)} ms`} | ${row.healthMaxMs.toFixed(1)} ms | ${row.target} |`);
  }
  say();
}
