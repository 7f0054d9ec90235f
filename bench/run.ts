/**
 * `npm run bench`: the performance figures the issues ask for, measured on this machine and
 * written to docs/bench.md. Sections: seeding and cold start on the large dataset, the v1 API
 * under one and sixteen connections against a bare node:http floor, the console in Chromium,
 * signed agent configuration files.
 *
 * BENCH_ONLY=console runs the console section alone and replaces only that section of the
 * report. BENCH_DATA_DIR (with BENCH_KEY, an API key of the organization BENCH_ORG, `demo` by
 * default) measures an existing data directory instead of seeding a new one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureAgentConfigSigning } from './agent-config-bench.js';
import { buildMix, fetchBodies, load, startFloorServer } from './api-bench.js';
import { reportConsole } from './console-report.js';
import { spliceSections } from './report-sections.js';
import { cli, mib, ms, peakResidentBytes, residentBytes, root, startServe, stop } from './support.js';

const size = process.env.BENCH_SIZE ?? 'large';
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const only = process.env.BENCH_ONLY;
if (only !== undefined && only !== 'console') throw new Error(`BENCH_ONLY=${only}: the only section that runs alone is "console"`);
const givenDataDir = process.env.BENCH_DATA_DIR;
const slug = process.env.BENCH_ORG ?? (givenDataDir ? 'demo' : 'bench');
const report: string[] = [];
const say = (line = '') => {
  console.log(line);
  report.push(line);
};

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

/** BENCH_DATA_DIR as it is, or a new data directory seeded now (and how long that took). */
function prepareDataDir(): { dataDir: string; key: string; seedSeconds?: number } {
  if (givenDataDir) {
    if (!process.env.BENCH_KEY) throw new Error('BENCH_DATA_DIR needs BENCH_KEY, an API key of its organization');
    return { dataDir: givenDataDir, key: process.env.BENCH_KEY };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-bench-'));
  cli(dataDir, 'orgs', 'create', '--slug', slug, '--name', 'Benchmark');
  const key = cli(dataDir, 'keys', 'create', '--org', slug).trim();
  const started = performance.now();
  cli(dataDir, 'seed', '--org', slug, '--size', size, '--seed', '7');
  return { dataDir, key, seedSeconds: (performance.now() - started) / 1000 };
}

async function main() {
  const { dataDir, key, seedSeconds } = prepareDataDir();
  try {
    say(`# Benchmark report`);
    say();
    say(`Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ` +
      `${mib(os.totalmem())} memory, Node ${process.version}. Dataset: \`${size}\`. Load runs: ${seconds} s each, autocannon in the benchmark process, the server in its own.`);
    say();
    if (only === 'console') {
      const serve = await startServe(dataDir);
      await firstOkAnswer(serve.url, key);
      await reportConsole(serve.consoleUrl, slug, say);
      await stop(serve.child);
      writeReport();
      return;
    }

    say(`## Seeding and cold start`);
    say();
    const databaseBytes = fs.statSync(path.join(dataDir, 'inventory.sqlite')).size;
    say(`| measure | value | target |`);
    say(`|---|---|---|`);
    if (seedSeconds !== undefined) say(`| seed \`${size}\` (generate, insert, index, persist; whole CLI process) | ${seedSeconds.toFixed(1)} s | ≤ 60 s |`);
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
    const ours = await load(serve.url, key, both, 16, seconds);
    const bodies = await fetchBodies(serve.url, key, both);
    const floor = await startFloorServer(bodies, dataDir);
    const bare = await load(floor.url, key, both, 16, seconds);
    await floor.close();
    say(`| server | req/s | p50 | p99 | non-2xx |`);
    say(`|---|---|---|---|---|`);
    say(`| Remediation Console | ${ours.requestsPerSecond.toFixed(0)} | ${ms(ours.p50)} | ${ms(ours.p99)} | ${ours.non2xx} |`);
    say(`| bare node:http, same bodies | ${bare.requestsPerSecond.toFixed(0)} | ${ms(bare.p50)} | ${ms(bare.p99)} | ${bare.non2xx} |`);
    say();
    say(`Ratio ours / floor: **${(ours.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}** (aim ≥ 0.5).`);
    say(`Peak resident memory of the server during the load: ${mib(peakResidentBytes(serve.child.pid!))}.`);
    say();
    await reportConsole(serve.consoleUrl, slug, say);
    await stop(serve.child);

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
  } finally {
    if (!givenDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  writeReport();
}

/** Writes the report; a BENCH_ONLY run replaces its own sections of the last one and keeps the others. */
function writeReport() {
  const out = path.resolve(root, 'docs', process.env.BENCH_REPORT ?? 'bench.md');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const text = `${report.join('\n')}\n`;
  fs.writeFileSync(out, only && fs.existsSync(out) ? spliceSections(fs.readFileSync(out, 'utf8'), text) : text);
  console.log(`\nWritten to ${path.relative(root, out)}`);
}

await main();
