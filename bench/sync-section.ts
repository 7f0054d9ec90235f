/**
 * The sync section of the benchmark report. The syncs run in a process of their own
 * (bench/sync-bench.ts), and the full syncs from `serve` at the command's pace are the `sync`
 * command's processes, so that the peak memory reported is theirs alone.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { FullSyncWeight, SyncBenchFigures } from './sync-bench.js';
import { loadAverage, mib, root } from './support.js';

const syncHeading = '## Full and incremental sync';

/** Runs the sync benchmark in a child process; its progress lines go to the console. */
async function measureInChild(size: string): Promise<SyncBenchFigures> {
  const child = spawn(process.execPath, [...process.execArgv, path.join(root, 'bench', 'sync-bench.ts')], {
    env: { ...process.env, BENCH_SIZE: size },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const json = output.slice(output.lastIndexOf('\n{') + 1);
  if (status !== 0 || !json.startsWith('{')) throw new Error(`the sync benchmark failed (exit ${status})`);
  return JSON.parse(json) as SyncBenchFigures;
}

/** Measures the syncs of the dataset and says the section's lines. */
export async function syncSection(size: string, say: (line?: string) => void): Promise<void> {
  const loadBefore = loadAverage();
  const figures = await measureInChild(size);
  // A figure left out is NaN, which JSON carries as null.
  const s = (value: number | null) => (Number.isFinite(value) ? `${value!.toFixed(1)} s` : 'not measured');
  say(syncHeading);
  say();
  say(
    `${figures.items.toLocaleString('en')} items (dataset \`${figures.size}\`), pages of 100 (both remotes refuse 1,000, as the specification's maximum says). The machine is shared: load average ` +
      `(1, 5, 15 min) ${loadBefore} before, ${loadAverage()} after. The in-process remote isolates the sync's own cost from the remote's.`,
  );
  say();
  say(`| measure | value | target |`);
  say(`|---|---|---|`);
  say(
    `| full sync from a \`serve\` remote on loopback by the \`sync\` command (staging writes of 100 ms), from its spawn to its summary line | ${s(figures.fullFromServe)} | ≤ 120 s |`,
  );
  say(
    `| the same full sync into a new replica at the pace of \`serve\`'s and the app's own syncs (staging writes of 20 ms; the command's pace before 2026-11-29) | ${s(figures.fullFromServeAtServersPace)} | |`,
  );
  say(`| incremental sync from that remote, nothing changed | ${s(figures.unchangedFromServe)} | |`);
  say(`| full sync again by the command from that remote into the same replica (nothing differs: it compares, and would replace the replica in place past 50,000 differences; its collection not counted) | ${s(figures.fullAgainFromServe)} | |`);
  const ratio = figures.fullThroughSlowLink / figures.fullFromServe;
  say(
    `| the same full sync by the command through a proxy answering each request ${figures.slowLinkDelayMs} ms late (bench/delay-proxy.mjs), into a new replica | ` +
      `${s(figures.fullThroughSlowLink)}${Number.isFinite(ratio) ? ` (${ratio.toFixed(2)} × loopback; at most ${figures.slowLinkMostInFlight} requests in flight)` : ''} | ≤ 1.2 × loopback |`,
  );
  say(`| full sync from an in-process remote (staging writes of 20 ms) | ${s(figures.fullFromMemory)} | |`);
  say(`| incremental sync, 1% changed (${figures.incrementalItems.toLocaleString('en')} items) | ${s(figures.incremental)} | ≤ 10 s |`);
  say(`| incremental sync from the in-process remote, nothing changed | ${s(figures.unchangedFromMemory)} | |`);
  say(`| full sync again from the in-process remote (nothing differs: it compares) | ${s(figures.fullAgainFromMemory)} | |`);
  const weighed = (label: string, weight: FullSyncWeight | null) => {
    if (!weight) return;
    const data = weight.dataBytes;
    say(
      `| ${label}: file on disk (its logs) / data (pages in use) | ${mib(weight.fileBytes)} (${mib(weight.logBytes)}) / ${mib(data)} = ${(weight.fileBytes / data).toFixed(2)} × | ≤ 1.1 × |`,
    );
    say(`| ${label}: free pages | ${(100 * weight.freeShare).toFixed(1)} % of the file | ≤ 10 % |`);
    say(
      `| ${label}: peak resident memory of the \`sync\` command's process (sync, collection, checkpoint at close) | ${mib(weight.peakBytes)} = ${(weight.peakBytes / data).toFixed(2)} × data | ≤ 1.5 × data |`,
    );
    say(`| ${label}: collection after it, to the command's exit (deletes, the pages given back, the checkpoint at close) | ${weight.collectSeconds.toFixed(1)} s | |`);
  };
  weighed('after the first full sync from `serve`', figures.firstFullWeight);
  weighed('after a repeated full sync from `serve` into the same replica (nothing differs: compared, not staged)', figures.repeatedFullWeight);
  say(
    `| full sync by the command into the same replica after the remote was seeded again with another seed (more than 50,000 differences: it deletes the rows the remote no longer has, pulls again and merges, the replica replaced in place; to its summary line) | ${s(figures.fullReplacedFromServe)} | ≤ 120 s |`,
  );
  weighed('after that full sync past 50,000 differences (the replica replaced in place)', figures.replacedFullWeight);
  say(`| peak resident memory of the benchmark's syncing process after the syncs from \`serve\` (the one at \`serve\`'s pace ran in it) | ${mib(figures.peakAfterServeSync)} | |`);
  say(`| peak resident memory at the end (the in-process remote's copy of the data included) | ${mib(figures.peakAtEnd)} | |`);
  say();
}
