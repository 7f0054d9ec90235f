// Loaded into `serve` (NODE_OPTIONS="--import <repo>/bench/turn-probe.mjs"), in the server's
// thread only (the worker started with the data directory): finds what held that thread. It
// records every gap of a 2 ms interval longer than 50 ms, GC pauses longer than 10 ms, and a CPU
// profile (500 µs, the thread's own inspector session). When the file TURN_PROBE_STOP names
// appears (default /tmp/turn-probe-stop), it removes it, stops the profile and appends to
// TURN_PROBE_OUT (default /tmp/turn-probe.log) each gap with the profile's samples inside it:
// the functions that ran (self) and the product's own frames among their callers, then starts
// again. A gap with about two samples per millisecond is the thread's own work; one with few is
// a thread the OS did not run. Its own analysis makes a gap, which the next round leaves out.
// Used for docs/decisions/reports/a-technical-report-holds-no-turn-and-reads-one-version.md.
import fs from 'node:fs';
import inspector from 'node:inspector';
import { PerformanceObserver } from 'node:perf_hooks';
import { isMainThread, workerData } from 'node:worker_threads';

const out = process.env.TURN_PROBE_OUT ?? '/tmp/turn-probe.log';
const stopFile = process.env.TURN_PROBE_STOP ?? '/tmp/turn-probe-stop';
const gapMs = 50;
const samplingMicroseconds = 500;

if (!isMainThread && typeof workerData === 'object' && workerData !== null && 'dataDir' in workerData) {
  // Microseconds of the monotonic clock, the profile's own.
  const nowUs = () => Number(process.hrtime.bigint() / 1000n);
  const hrtimeAtOrigin = nowUs() - performance.now() * 1000;
  const log = (line) => fs.appendFileSync(out, `${line}\n`);
  let gaps = [];
  let pauses = [];
  let last = nowUs();
  setInterval(() => {
    const now = nowUs();
    if (now - last > gapMs * 1000) gaps.push({ start: last, end: now, at: new Date().toISOString() });
    last = now;
  }, 2).unref();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration > 10) pauses.push({ start: hrtimeAtOrigin + entry.startTime * 1000, ms: entry.duration, kind: entry.detail?.kind });
    }
  }).observe({ entryTypes: ['gc'] });

  const session = new inspector.Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: samplingMicroseconds });
  await post('Profiler.start');
  log(`turn probe started ${new Date().toISOString()}`);

  setInterval(async () => {
    if (!fs.existsSync(stopFile)) return;
    fs.rmSync(stopFile, { force: true });
    const { profile } = await post('Profiler.stop');
    describeGaps(profile, gaps, pauses);
    log('analysed');
    gaps = [];
    pauses = [];
    await post('Profiler.start');
    last = nowUs();
  }, 1000).unref();

  /** Appends each gap with the samples the profile took inside it. */
  function describeGaps(profile, gapsSeen, pausesSeen) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const parents = new Map();
    for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
    const times = [];
    let time = profile.startTime;
    for (const delta of profile.timeDeltas) times.push((time += delta));
    const name = (node) => `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/.*\/(dist|node_modules)\//, '$1/')}:${node.callFrame.lineNumber + 1}`;
    const top = (counts, count) => [...counts].sort((a, b) => b[1] - a[1]).slice(0, count).map(([frame, samples]) => `      ${samples}\t${frame}`).join('\n');
    for (const gap of gapsSeen) {
      const self = new Map();
      const ours = new Map();
      let samples = 0;
      for (let i = 0; i < times.length; i++) {
        if (times[i] < gap.start || times[i] > gap.end) continue;
        samples++;
        const leaf = nodes.get(profile.samples[i]);
        self.set(name(leaf), (self.get(name(leaf)) ?? 0) + 1);
        const seen = new Set();
        for (let id = leaf.id; id !== undefined; id = parents.get(id)) {
          const node = nodes.get(id);
          if (!/dist\/(server|cli)\//.test(node.callFrame.url) || seen.has(name(node))) continue;
          seen.add(name(node));
          ours.set(name(node), (ours.get(name(node)) ?? 0) + 1);
        }
      }
      const cpuMs = (samples * samplingMicroseconds) / 1000;
      const gc = pausesSeen.filter((pause) => pause.start >= gap.start - 1000 && pause.start <= gap.end).map((pause) => `kind ${pause.kind} ${pause.ms.toFixed(0)} ms`);
      log(`gap ${((gap.end - gap.start) / 1000).toFixed(1)} ms at ${gap.at}, about ${cpuMs} ms of CPU, GC [${gc.join(', ')}]`);
      if (cpuMs >= 25) log(`    self:\n${top(self, 8)}\n    ours (inclusive):\n${top(ours, 16)}`);
    }
  }
}
