/**
 * `npm run bench`: the performance figures the issues ask for, measured on this machine and
 * written to docs/bench.md. Sections: seeding and cold start on the large dataset, the v1 API
 * under one and sixteen connections against a bare node:http floor (a mix that repeats, as
 * clients polling do, and a cache-cold mix whose requests are never repeated), agent
 * configuration signing.
 *
 * Environment:
 * - `BENCH_SIZE` (default `large`) and `BENCH_SECONDS` (default 15) per load run.
 * - `BENCH_DATA_DIR`: an already seeded data directory to serve instead of seeding a new one
 *   (it is used in place and not removed; `serve` takes its lock), with `BENCH_KEY` an API key
 *   of the organization in it. The seeding row is then left out of the report.
 * - `BENCH_ONLY=api`: only the cold start and the v1 API sections.
 * - `BENCH_REPORT`: the file under docs/ to write (default bench.md).
 *
 * The sixteen-connection runs (ours, ours cache-cold, the floor) take turns in slices, and the
 * servers' CPU time per request is reported beside the rates: on a machine shared with other
 * work the rates swing with it, the CPU cost much less.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureAgentConfigSigning } from './agent-config-bench.js';
import { type LoadResult, buildColdMix, buildMix, fetchBodies, interleave, load, startFloorServer } from './api-bench.js';
import { cli, mib, ms, peakResidentBytes, residentBytes, root, startServe, stop } from './support.js';

const size = process.env.BENCH_SIZE ?? 'large';
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const givenDataDir = process.env.BENCH_DATA_DIR;
const givenKey = process.env.BENCH_KEY;
const onlyApi = process.env.BENCH_ONLY === 'api';
if (givenDataDir && !givenKey) throw new Error('BENCH_DATA_DIR needs BENCH_KEY, an API key of its organization');
const report: string[] = [];
const say = (line = '') => {
  console.log(line);
  report.push(line);
};

const loadAverage = () => os.loadavg().map((value) => value.toFixed(2)).join(', ');

function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function firstOkAnswer(url: string, key: string): Promise<void> {
  for (;;) {
    try {
      const response = await fetch(`${url}/v1/endpoints?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Seeds a new data directory and reports how long it took; returns its API key. */
function seed(dataDir: string): string {
  cli(dataDir, 'orgs', 'create', '--slug', 'bench', '--name', 'Benchmark');
  const key = cli(dataDir, 'keys', 'create', '--org', 'bench').trim();
  const started = performance.now();
  cli(dataDir, 'seed', '--org', 'bench', '--size', size, '--seed', '7');
  const seedSeconds = (performance.now() - started) / 1000;
  say(`| seed \`${size}\` (generate, insert, index, persist; whole CLI process) | ${seedSeconds.toFixed(1)} s | ≤ 60 s |`);
  return key;
}

async function main() {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-bench-'));
  const dataDir = givenDataDir ?? workDir;
  try {
    say(`# Benchmark report`);
    say();
    say(`Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ` +
      `${mib(os.totalmem())} memory, Node ${process.version}. Dataset: \`${givenDataDir ? 'given data directory' : size}\`. Load runs: ${seconds} s each, autocannon in the benchmark process, the server in its own. ` +
      `Load average at the start: ${loadAverage()}.`);
    say();

    say(`## Seeding and cold start`);
    say();
    say(`| measure | value | target |`);
    say(`|---|---|---|`);
    const key = givenKey ?? seed(dataDir);
    const databaseBytes = fs.statSync(path.join(dataDir, 'inventory.sqlite')).size;
    say(`| database file | ${mib(databaseBytes)} | |`);

    const serve = await startServe(dataDir);
    await firstOkAnswer(serve.url, key);
    const coldStart = (performance.now() - serve.startedAt) / 1000;
    const rss = residentBytes(serve.child.pid!);
    say(`| cold start of \`serve\` to its first 200 answer | ${coldStart.toFixed(2)} s | ≤ 3 s |`);
    say(`| resident memory after it | ${mib(rss)} (${(rss / databaseBytes).toFixed(2)} × the file) | ≤ 2 × the file |`);
    say();

    const random = mulberry32(99);
    const mix = await buildMix(serve.url, key, random);
    say(`## The v1 API, one connection`);
    say();
    say(`Latency as autocannon sees it (client included). Lists: ${mix.lists.length} requests over 15 filters of the four lists, limit 100, random offsets up to 10,000; gets: 200 ids over the four resources.`);
    say();
    // Warm the page cache and the memoized totals as a running server would be.
    await load(serve.url, key, [...mix.lists, ...mix.gets], 1, 3);
    const oneList = await load(serve.url, key, mix.lists, 1, seconds);
    const oneGet = await load(serve.url, key, mix.gets, 1, seconds);
    say(`| requests | req/s | p50 | p99 | max | target |`);
    say(`|---|---|---|---|---|---|`);
    say(`| filtered list pages | ${oneList.requestsPerSecond.toFixed(0)} | ${ms(oneList.p50)} | ${ms(oneList.p99)} | ${ms(oneList.max)} | p99 ≤ 10 ms |`);
    say(`| single gets | ${oneGet.requestsPerSecond.toFixed(0)} | ${ms(oneGet.p50)} | ${ms(oneGet.p99)} | ${ms(oneGet.max)} | p99 ≤ 2 ms |`);
    say();

    say(`## The v1 API, sixteen connections, against a bare node:http floor`);
    say();
    const both = [...mix.lists, ...mix.gets];
    const bodies = await fetchBodies(serve.url, key, both);
    const floor = await startFloorServer(bodies, workDir);
    // Sized for well above the fastest answers seen so far, so that no request of it is sent twice.
    const cold = await buildColdMix(serve.url, key, random, mix, Math.ceil(Math.max(oneGet.requestsPerSecond, 1000) * seconds * 2));
    const [ours, oursCold, bare] = await interleave(key, [
      { url: serve.url, requests: both, pid: serve.child.pid! },
      { url: serve.url, requests: cold, pid: serve.child.pid! },
      { url: floor.url, requests: both, pid: floor.pid },
    ], 16, seconds);
    await floor.close();
    say(`The three runs take turns, three slices of ${Math.round(seconds / 3)} s each, so that the machine's other work weighs on them alike: req/s and p50 are the slices' means, p99 their highest. ` +
      `The cache-cold run sends ${oursCold!.sent} of ${cold.length} requests never sent before${oursCold!.sent > cold.length ? ' (so some twice)' : ', none twice'} ` +
      `(80% list pages of the same filters at other offsets, 20% gets of other ids): what the database costs, not what the cache saves.`);
    say();
    say(`| server | req/s | p50 | p99 | non-2xx | server CPU per request |`);
    say(`|---|---|---|---|---|---|`);
    const row = (name: string, result: LoadResult) =>
      say(`| ${name} | ${result.requestsPerSecond.toFixed(0)} | ${ms(result.p50)} | ${ms(result.p99)} | ${result.non2xx} | ${result.cpuMicrosPerRequest!.toFixed(0)} µs |`);
    row('Remediation Console, the mix above', ours!);
    row('Remediation Console, cache-cold', oursCold!);
    row("bare node:http, the mix's bodies", bare!);
    say();
    const ratio = (result: LoadResult) => (result.requestsPerSecond / bare!.requestsPerSecond).toFixed(2);
    const cpuRatio = (result: LoadResult) => (bare!.cpuMicrosPerRequest! / result.cpuMicrosPerRequest!).toFixed(2);
    say(`Ratio ours / floor: **${ratio(ours!)}** (aim ≥ 0.5); cache-cold / floor: **${ratio(oursCold!)}**. ` +
      `By server CPU per request (floor / ours, less disturbed by the machine's other work): ${cpuRatio(ours!)}, cache-cold ${cpuRatio(oursCold!)}. ` +
      `Load average after the API runs: ${loadAverage()}.`);
    say(`Peak resident memory of the server during the load: ${mib(peakResidentBytes(serve.child.pid!))}.`);
    say();
    await stop(serve.child);
    if (!onlyApi) {
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
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  const out = path.join(root, 'docs', process.env.BENCH_REPORT ?? 'bench.md');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${report.join('\n')}\n`);
  console.log(`\nWritten to ${path.relative(root, out)}`);
}

await main();
