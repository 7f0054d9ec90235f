/**
 * `npm run bench`: the performance figures the issues ask for, measured on this machine and
 * written to docs/bench.md. Sections, in order: seeding and cold start and the v1 API (`api`),
 * scope coverage (`coverage`), the console in Chromium (`console`), signed agent configuration
 * files (`agent-config`), full and incremental sync (`sync`), what writes cost (`writes`), how
 * long requests wait behind another's work (`waits`), a reconcile that finds nothing different
 * (`reconcile`), what a hostile remote's syncs cost the server (`hostile`, on its own small
 * data directory: BENCH_SIZE and BENCH_DATA_DIR do not matter to it) and imports of a
 * 400,000-row EPSS file (`intel`), fix-by dates of every finding and an exposure tag on 1,000
 * endpoints (`fix-by`), the plan's work packages: list, exports, a status import (`work-packages`),
 * and reports of the whole organization: an executive one made twice, then a technical one with
 * its appendix of every finding (`reports`).
 *
 * Environment:
 * - `BENCH_SIZE` (default `large`) and `BENCH_SECONDS` (default 15) per load run.
 * - `BENCH_ONLY`: a comma-separated list of the sections above to run; their sections replace
 *   the ones with the same heading in the existing report, the others stay as last measured.
 * - `BENCH_DATA_DIR`: an already seeded data directory to serve instead of seeding a new one
 *   (used in place and not removed; `serve` takes its lock), with `BENCH_KEY` an API key of its
 *   organization `BENCH_ORG` (default `demo`). The seeding row is then left out of the report.
 *   The `writes`, `waits`, `reconcile`, `intel`, `fix-by`, `work-packages` and `reports` sections write, so they work on copies of it.
 * - `BENCH_SEED`: the seed of the dataset (default 7): the one seeded, or BENCH_DATA_DIR's, which
 *   the `writes` section's in-process remote generates again with 1 % changed.
 * - `BENCH_REPORT`: the file to write, under docs/ unless an absolute path (default bench.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DatasetSize } from '../contracts/inventory.js';
import { measureAgentConfigSigning } from './agent-config-bench.js';
import { reportApi } from './api-report.js';
import { reportConsole } from './console-report.js';
import { reportCoverage } from './coverage-report.js';
import { reportHostile } from './hostile-section.js';
import { reportFixBy } from './fix-by-report.js';
import { reportIntelImports } from './intel-report.js';
import { reportReconcile } from './reconcile-section.js';
import { spliceSections } from './report-sections.js';
import { cli, firstOkAnswer, loadAverage, mib, residentBytes, root, startServe, stop } from './support.js';
import { syncSection } from './sync-section.js';
import { reportWaits } from './waits-report.js';
import { reportWrites } from './writes-report.js';
import { reportWorkPackages } from './work-packages-bench.js';
import { reportReports } from './reports-bench.js';

const sectionNames = ['api', 'coverage', 'console', 'agent-config', 'sync', 'writes', 'waits', 'reconcile', 'hostile', 'intel', 'fix-by', 'work-packages', 'reports'] as const;
type SectionName = (typeof sectionNames)[number];

const size = (process.env.BENCH_SIZE ?? 'large') as DatasetSize;
const seed = Number(process.env.BENCH_SEED ?? 7);
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
for (const name of only ?? []) {
  if (!sectionNames.includes(name as SectionName)) throw new Error(`BENCH_ONLY: "${name}" is not one of ${sectionNames.join(', ')}`);
}
const runs = (section: SectionName) => !only || only.includes(section);
const givenDataDir = process.env.BENCH_DATA_DIR;
const givenKey = process.env.BENCH_KEY;
if (givenDataDir && !givenKey) throw new Error('BENCH_DATA_DIR needs BENCH_KEY, an API key of its organization');
const slug = givenDataDir ? (process.env.BENCH_ORG ?? 'demo') : 'bench';

const report: string[] = [];
const say = (line = '') => {
  console.log(line);
  report.push(line);
};

let prepared: { dataDir: string; key: string; seedSeconds?: number } | undefined;

/** BENCH_DATA_DIR as it is, or a new one seeded now (and how long that took), once for the whole run. */
function prepareDataDir(workDir: string): { dataDir: string; key: string; seedSeconds?: number } {
  if (prepared) return prepared;
  if (givenDataDir) return (prepared = { dataDir: givenDataDir, key: givenKey! });
  const dataDir = path.join(workDir, 'seeded');
  cli(dataDir, 'orgs', 'create', '--slug', slug, '--name', 'Benchmark');
  const key = cli(dataDir, 'keys', 'create', '--org', slug).trim();
  const started = performance.now();
  cli(dataDir, 'seed', '--org', slug, '--size', size, '--seed', String(seed));
  return (prepared = { dataDir, key, seedSeconds: (performance.now() - started) / 1000 });
}

/** The sections that ask a running `serve`: seeding and cold start, the API, coverage, the console. */
async function serveSections(workDir: string): Promise<void> {
  const { dataDir, key, seedSeconds } = prepareDataDir(workDir);
  const databaseBytes = fs.statSync(path.join(dataDir, 'inventory.sqlite')).size;
  const serve = await startServe(dataDir);
  const pid = serve.child.pid!;
  try {
    await firstOkAnswer(serve.url, key);
    const coldStart = (performance.now() - serve.startedAt) / 1000;
    const rss = residentBytes(pid);
    // serve reads the coverage columns behind the dashboard a little after it starts
    // (server/warm-console-caches.ts); asked before that, the dashboard reads them itself, and
    // the load runs below meet the server as users do once it has settled.
    const dashboardStarted = performance.now();
    const dashboard = await fetch(`${serve.url}/app/orgs/${slug}/dashboard`, { headers: { 'x-console-script-token': serve.consoleToken } });
    if (dashboard.status !== 200) throw new Error(`dashboard: ${dashboard.status} ${await dashboard.text()}`);
    const dashboardSeconds = (performance.now() - dashboardStarted) / 1000;
    if (runs('api')) {
      say(`## Seeding and cold start`);
      say();
      say(`| measure | value | target |`);
      say(`|---|---|---|`);
      if (seedSeconds !== undefined) say(`| seed \`${size}\` (generate, insert, index, persist; whole CLI process) | ${seedSeconds.toFixed(1)} s | ≤ 60 s |`);
      say(`| database file | ${mib(databaseBytes)} | |`);
      say(`| cold start of \`serve\` to its first 200 answer | ${coldStart.toFixed(2)} s | ≤ 3 s |`);
      say(`| resident memory after it | ${mib(rss)} (${(rss / databaseBytes).toFixed(2)} × the file) | ≤ 2 × the file |`);
      say(`| the dashboard's first answer after start (reads the findings' coverage columns, which \`serve\` otherwise does 2 s after start) | ${dashboardSeconds.toFixed(2)} s | |`);
      say(`| resident memory with those columns | ${mib(residentBytes(pid))} (${(residentBytes(pid) / databaseBytes).toFixed(2)} × the file) | ≤ 2 × the file |`);
      say();
      await reportApi({ url: serve.url, pid }, key, workDir, seconds, say);
    }
    if (runs('coverage')) await reportCoverage({ url: serve.url, consoleToken: serve.consoleToken, pid }, slug, say);
    if (runs('console')) await reportConsole({ consoleUrl: serve.consoleUrl, session: serve.session, slug }, say);
  } finally {
    await stop(serve.child);
  }
}

async function agentConfigSection(): Promise<void> {
  say(`## Signed agent configuration files`);
  say();
  say(`Files generated and signed per second, one stream, one organization's signer (RSA-2048, SHA-256).`);
  say();
  say(`| platform | profile | files/s | target |`);
  say(`|---|---|---|---|`);
  for (const row of await measureAgentConfigSigning(Math.min(seconds, 5))) {
    say(`| ${row.platform} | ${row.profile} | ${row.perSecond.toFixed(0)} | ${row.profile === 'mdm-full' ? '≥ 200' : ''} |`);
  }
  say();
}

async function main() {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-bench-'));
  try {
    say(`# Benchmark report`);
    say();
    say(`Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ` +
      `${mib(os.totalmem())} memory, Node ${process.version}. Dataset: \`${givenDataDir ? 'given data directory' : size}\`. Load runs: ${seconds} s each, autocannon in the benchmark process, the server in its own. ` +
      `Load average at the start: ${loadAverage()}.`);
    say();
    if (runs('api') || runs('coverage') || runs('console')) await serveSections(workDir);
    if (runs('agent-config')) await agentConfigSection();
    if (runs('sync')) await syncSection(size, say);
    if (runs('writes')) {
      const { dataDir, key } = prepareDataDir(workDir);
      await reportWrites({ dataDir, key, slug, size, seed }, workDir, say);
    }
    if (runs('waits')) {
      const { dataDir, key } = prepareDataDir(workDir);
      await reportWaits({ dataDir, key, slug, size, seed }, workDir, say);
    }
    if (runs('reconcile')) {
      const { dataDir, key } = prepareDataDir(workDir);
      await reportReconcile({ dataDir, key, slug, size }, workDir, say);
    }
    if (runs('hostile')) await reportHostile(workDir, say);
    if (runs('intel')) await reportIntelImports({ dataDir: prepareDataDir(workDir).dataDir, slug }, workDir, say);
    if (runs('fix-by')) await reportFixBy({ dataDir: prepareDataDir(workDir).dataDir, slug }, workDir, say);
    if (runs('work-packages')) await reportWorkPackages({ dataDir: prepareDataDir(workDir).dataDir, slug }, workDir, say);
    if (runs('reports')) await reportReports({ dataDir: prepareDataDir(workDir).dataDir, slug }, workDir, say);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  const out = path.resolve(root, 'docs', process.env.BENCH_REPORT ?? 'bench.md');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const text = `${report.join('\n')}\n`;
  fs.writeFileSync(out, only && fs.existsSync(out) ? spliceSections(fs.readFileSync(out, 'utf8'), text) : text);
  console.log(`\nWritten to ${path.relative(root, out)}`);
}

await main();
