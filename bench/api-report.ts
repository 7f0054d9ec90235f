import { type LoadResult, buildColdMix, buildMix, fetchBodies, interleave, load, startFloorServer } from './api-bench.js';
import { loadAverage, mib, ms, peakResidentBytes } from './support.js';

function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The v1 API sections of the report: one connection (lists and gets), then sixteen connections
 * against a bare node:http floor. The sixteen-connection runs (ours, ours cache-cold, the floor)
 * take turns in slices, and the servers' CPU time per request is reported beside the rates: on a
 * machine shared with other work the rates swing with it, the CPU cost much less.
 */
export async function reportApi(
  serve: { url: string; pid: number },
  key: string,
  workDir: string,
  seconds: number,
  say: (line?: string) => void,
): Promise<void> {
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
  // The same kinds of request, never sent before: what the store costs when the answer cache cannot help.
  const neverSent = await buildColdMix(serve.url, key, random, mix, 25_000);
  const coldLists = neverSent.filter((request) => request.kind === 'list');
  const coldGets = neverSent.filter((request) => request.kind === 'get');
  const oneColdList = await load(serve.url, key, coldLists, 1, seconds);
  const oneColdGet = await load(serve.url, key, coldGets, 1, seconds);
  const repeats = (result: LoadResult, requests: unknown[]) => (result.requestsPerSecond * seconds > requests.length ? ' (some sent twice)' : '');
  say(`| filtered list pages, never sent before${repeats(oneColdList, coldLists)} | ${oneColdList.requestsPerSecond.toFixed(0)} | ${ms(oneColdList.p50)} | ${ms(oneColdList.p99)} | ${ms(oneColdList.max)} | p99 ≤ 10 ms |`);
  say(`| single gets, never sent before${repeats(oneColdGet, coldGets)} | ${oneColdGet.requestsPerSecond.toFixed(0)} | ${ms(oneColdGet.p50)} | ${ms(oneColdGet.p99)} | ${ms(oneColdGet.max)} | p99 ≤ 2 ms |`);
  say();
  say(`The first two rows repeat their requests, as clients polling do, and are answered from the answer cache after the first time; the last two never repeat one.`);
  say();

  say(`## The v1 API, sixteen connections, against a bare node:http floor`);
  say();
  const both = [...mix.lists, ...mix.gets];
  const bodies = await fetchBodies(serve.url, key, both);
  const floor = await startFloorServer(bodies, workDir);
  // Sized for well above the fastest answers seen so far, so that no request of it is sent twice.
  const cold = await buildColdMix(serve.url, key, random, mix, Math.ceil(Math.max(oneGet.requestsPerSecond, 1000) * seconds * 2));
  const [ours, oursCold, bare] = await interleave(key, [
    { url: serve.url, requests: both, pid: serve.pid },
    { url: serve.url, requests: cold, pid: serve.pid },
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
  say(`Peak resident memory of the server during the load: ${mib(peakResidentBytes(serve.pid))}.`);
  say();
}
