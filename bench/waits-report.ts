import { waitFigures } from './health-pings.js';
import { loadAverage, ms } from './support.js';
import { type WaitsSource, measureWaits } from './waits-bench.js';

/** The report section of how long requests wait behind another's work. */
export async function reportWaits(source: WaitsSource, workDir: string, say: (line?: string) => void): Promise<void> {
  const loadBefore = loadAverage();
  const rows = await measureWaits(source, workDir, (line) => console.log(`… ${line}`));
  say(`## Waits`);
  say();
  say(
    `How long a request waits behind another's work: a \`serve\` of a copy of the dataset (organization \`${source.slug}\`), \`/health\` asked ` +
      `every 10 ms (10 ms after each answer) while each piece of work below runs alone, in this order; \`/health\` costs nothing, so its ` +
      `round trip is the wait. The sorted pages and the gaps are the first since \`serve\` started (the warm-up of the dashboard of both servers done); ` +
      `the replica syncs from a second \`serve\` of another copy, its progress read from \`GET /app/orgs/replica/sync\` every 250 ms; ` +
      `for its last two syncs that \`serve\` is stopped and the same generated dataset with 1 % of each collection changed (every hundredth item) ` +
      `is served on its port by the fake remote, in a process of its own (bench/changed-remote.ts), then with another 1 % changed. ` +
      `The machine is shared: load average (1, 5, 15 min) ${loadBefore} before, ${loadAverage()} after.`,
  );
  say();
  say(`| while | request time | /health answers | p99 wait | maximum wait | target |`);
  say(`|---|---|---|---|---|---|`);
  for (const row of rows) {
    const { count, p99, max } = waitFigures(row.pings);
    say(`| ${row.what} | ${row.requestMs === undefined ? '' : ms(row.requestMs)} | ${count} | ${ms(p99)} | ${ms(max)} | max ≤ 100 ms |`);
  }
  say();
}
