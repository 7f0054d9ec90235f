/**
 * Where the CPU of a cache-cold v1 request goes: runs `serve` under `node --cpu-prof` on a
 * seeded data directory, sends it the api section's never-sent requests (buildColdMix: 80 % list
 * pages at new offsets, 20 % gets of new ids) over sixteen connections, and prints the server's
 * CPU per request (user and system, from /proc) and the share of the busy samples under each
 * step of the answer. Not a section of `npm run bench`: a tool for the next change of the cold
 * path (docs/decisions/the-v1-api/cache-cold-pages.md).
 *
 * `npm run build`, then: `BENCH_DATA_DIR=D BENCH_KEY=K [BENCH_SECONDS=8] npx tsx bench/cold-pages-profile.ts`
 * (D seeded by `orgs create` and `seed`, K from `keys create`). The profile's shares are of
 * wall-clock samples: on a loaded machine a thread waiting for a core is counted where it
 * resumes (often `writev`), so compare the CPU per request first.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildColdMix, buildMix, load } from './api-bench.js';
import { bin, cpuTimes, firstOkAnswer, stop } from './support.js';

const dataDir = process.env.BENCH_DATA_DIR;
const key = process.env.BENCH_KEY;
if (!dataDir || !key) throw new Error('BENCH_DATA_DIR and BENCH_KEY are needed: a seeded data directory and an API key of its organization');
const seconds = Number(process.env.BENCH_SECONDS ?? 8);

/** The steps of an answer, each named by a frame that every sample of it has on its stack (function and file; indented: within the step above). */
const steps: [step: string, functionName: string, file: string][] = [
  ['the page (V1Answers.list)', 'list', 'v1-answers.js'],
  ['  its statement, stepped in SQLite', 'step', 'sql-wasm.js'],
  ['  its values out of WebAssembly', 'get', 'sql-wasm.js'],
  ['  pages read from the in-memory file', 'read', 'sql-wasm.js'],
  ['  the total, kept (countList)', 'countList', 'inventory-reads.js'],
  ['  the answer made bytes (Buffer.from)', 'from', 'buffer'],
  ['a get (V1Answers.get)', 'get', 'v1-answers.js'],
  ['the response written (send)', 'send', 'v1-pipeline.js'],
  ['  the socket write (writev)', 'writev', ''],
  ['garbage collection', '(garbage collector)', ''],
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** A CPU profile as `--cpu-prof` writes it; times in µs of the monotonic clock. */
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Shares of the busy samples of a profile under each of {@link steps}, within `window` (µs of the monotonic clock). */
function shares(profile: CpuProfile, window: { from: number; to: number }): { busyMs: number; shares: Map<string, number> } {
  const parents = new Map<number, ProfileNode>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  const under = new Map(steps.map(([step]) => [step, 0]));
  let busy = 0;
  let time = profile.startTime;
  profile.samples.forEach((sample, index) => {
    time += profile.timeDeltas[index]!;
    if (time < window.from || time > window.to) return;
    const node = byId.get(sample)!;
    if (node.callFrame.functionName === '(idle)' || node.callFrame.functionName === '(program)') return;
    const micros = profile.timeDeltas[index + 1] ?? 0;
    busy += micros;
    for (const [step, functionName, file] of steps) {
      for (let frame: ProfileNode | undefined = node; frame; frame = parents.get(frame.id)) {
        // sql.js's minified methods are profiled as `c.step`, `c.get`: the name after the last dot.
        if (frame.callFrame.functionName.split('.').at(-1) === functionName && frame.callFrame.url.endsWith(file)) {
          under.set(step, under.get(step)! + micros);
          break;
        }
      }
    }
  });
  return { busyMs: busy / 1000, shares: new Map([...under].map(([step, micros]) => [step, micros / busy])) };
}

/** The monotonic clock in µs, which V8 stamps its profiles' samples with. */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

async function main(): Promise<void> {
  const window = { from: 0, to: 0 };
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-cold-profile-'));
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, bin, 'serve', '--port', '0', '--data-dir', dataDir!], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', () => reject(new Error(`serve exited:\n${output}`)));
  });
  try {
    await firstOkAnswer(url, key!);
    // serve's warm-up after start (server/warm-console-caches.ts); the profiler's own sampling keeps
    // the process from looking idle (bench/support.ts untilIdle), so a fixed wait.
    await new Promise((resolve) => setTimeout(resolve, 8000));
    let seed = 99;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const mix = await buildMix(url, key!, random);
    const cold = await buildColdMix(url, key!, random, mix, 60_000);
    const before = cpuTimes(child.pid!);
    window.from = monotonicMicros();
    const result = await load(url, key!, cold, 16, seconds);
    window.to = monotonicMicros();
    const after = cpuTimes(child.pid!);
    const perRequest = (milliseconds: number) => ((milliseconds * 1000) / result.sent).toFixed(0);
    console.log(`${result.sent} cache-cold requests (${result.requestsPerSecond.toFixed(0)} req/s), server CPU per request: ` +
      `${perRequest(after.user - before.user)} µs user, ${perRequest(after.system - before.system)} µs system. Load average: ${os.loadavg().map((value) => value.toFixed(2)).join(', ')}.`);
  } finally {
    await stop(child);
  }
  // The worker thread that answers HTTP writes the larger profile; the main thread mostly waits.
  const [largest] = fs.readdirSync(profileDir).map((name) => path.join(profileDir, name)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  const split = shares(JSON.parse(fs.readFileSync(largest!, 'utf8')) as CpuProfile, window);
  console.log(`Busy samples during the load: ${split.busyMs.toFixed(0)} ms of ${seconds * 1000}; their shares:`);
  for (const [step, share] of split.shares) console.log(`${(share * 100).toFixed(1).padStart(5)} %  ${step}`);
  console.log(`(profiles in ${profileDir})`);
}

await main();
