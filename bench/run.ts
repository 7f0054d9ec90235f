/**
 * `npm run bench`: the performance figures the issues ask for, measured on this machine and
 * written to docs/bench.md. Sections: seeding and cold start on the large dataset, the v1 API
 * under one and sixteen connections against a bare node:http floor, scope coverage and gaps.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureAgentConfigSigning } from './agent-config-bench.js';
import { buildMix, fetchBodies, load, startFloorServer } from './api-bench.js';
import { measureCoverage } from './coverage-bench.js';
import { cli, mib, ms, peakResidentBytes, residentBytes, root, startServe, stop } from './support.js';

const size = process.env.BENCH_SIZE ?? 'large';
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
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

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-bench-'));
  try {
    say(`# Benchmark report`);
    say();
    say(`Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ` +
      `${mib(os.totalmem())} memory, Node ${process.version}. Dataset: \`${size}\`. Load runs: ${seconds} s each, autocannon in the benchmark process, the server in its own.`);
    say();

    say(`## Seeding and cold start`);
    say();
    cli(dataDir, 'orgs', 'create', '--slug', 'bench', '--name', 'Benchmark');
    const key = cli(dataDir, 'keys', 'create', '--org', 'bench').trim();
    const started = performance.now();
    cli(dataDir, 'seed', '--org', 'bench', '--size', size, '--seed', '7');
    const seedSeconds = (performance.now() - started) / 1000;
    const databaseBytes = fs.statSync(path.join(dataDir, 'inventory.sqlite')).size;
    say(`| measure | value | target |`);
    say(`|---|---|---|`);
    say(`| seed \`${size}\` (generate, insert, index, persist; whole CLI process) | ${seedSeconds.toFixed(1)} s | ≤ 60 s |`);
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

    say(`## Scope coverage and coverage gaps`);
    say();
    say(`The console's coverage answers (first page: 50 findings), timed by the client. The first coverage request reads the organization's findings into memory; later ones, until the next write, use them. Meanwhile \`/health\` is asked every 10 ms: its slowest answer says how long other requests waited.`);
    say();
    const coverage = await measureCoverage(serve.url, serve.consoleToken, 'bench', serve.child.pid!);
    const row = (label: string, timing: { ms: number; serverCpuMs: number; healthMaxMs: number }, target = '') =>
      say(`| ${label} | ${ms(timing.ms)} | ${timing.serverCpuMs} ms | ${ms(timing.healthMaxMs)} | ${target} |`);
    say(`| request | time | server CPU | slowest /health meanwhile | target |`);
    say(`|---|---|---|---|---|`);
    row(`coverage gaps, first page, first time (${coverage.gaps} gaps)`, coverage.gapsFirst, '≈ 1 s');
    row('coverage gaps, first page, repeated', coverage.gapsRepeated, '≤ 1 s');
    row('coverage gaps, a middle page', coverage.gapsLaterPage);
    row(`a scope's coverage, first page (${coverage.scopeFindings} findings)`, coverage.scopeFirst, '≤ 1 s');
    row(`a scope's coverage, repeated`, coverage.scopeRepeated);
    row(`a scope's open findings, a middle page`, coverage.scopeLaterPage);
    say();
    say(`Resident memory of the server: ${mib(coverage.residentBefore)} before, ${mib(coverage.residentAfter)} after (${mib(coverage.residentAfter - coverage.residentBefore)} for the coverage columns and sets).`);
    say();
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
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const out = path.join(root, 'docs', process.env.BENCH_REPORT ?? 'bench.md');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${report.join('\n')}\n`);
  console.log(`\nWritten to ${path.relative(root, out)}`);
}

await main();
