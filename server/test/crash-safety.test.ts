import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shownOnly, storeDigest } from './support/store-digest.js';
import { isSlowRun, trialCount } from './support/trial-count.js';

/**
 * Crash safety (issues 13 and 27): a child process runs writes of every kind
 * (support/crash-writer.ts: keys, secrets, syncs, a full sync's staging and swap, merges past
 * the replay budget whose pages are folded as deltas, checkpoints, two failed checkpoints whose
 * logs the next one folds three at once) and is killed with
 * SIGKILL at random moments inside one of them. Reopened, the data directory must hold exactly
 * the state before that write or after it (every row compared through a digest, and
 * `PRAGMA integrity_check` ok: support/store-digest.ts) — never a mix, never an error — and
 * every write the child had reported done. Then a second process recovers from that crash
 * (opens, replays or removes what was left, checkpoints at close) and is killed in turn: the
 * same state must come out. `npm test` kills once inside every kind of write (in one write of
 * the kind, chosen at random) and in each swap, and recovers from every second trial; `npm run test:slow` kills 20 times in every kind of write
 * and 10 times in each swap, and recovers from every trial.
 */
const writer = path.join(import.meta.dirname, 'support', 'crash-writer.ts');
const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

interface Run {
  lines: string[];
  signal: NodeJS.Signals | null;
}

function runWriter(args: string[]): Promise<Run> {
  const dataDir = args[0]!;
  folders.push(dataDir);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ lines: output.trim().split('\n'), signal }));
  });
}

const newDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'rc-crash-'));

describe('crash safety', () => {
  it('opens, after a kill -9 inside any write, the state before or after that write', { timeout: isSlowRun() ? 3_600_000 : 600_000 }, async () => {
    const reference = await runWriter([newDataDir()]);
    expect(reference.lines.at(-1)).toBe('closed');
    const done = reference.lines.filter((line) => line.startsWith('done ')).map((line) => line.split(' '));
    const digests = new Map(done.map(([, index, digest]) => [Number(index), digest!]));
    // A staged sync has a state between: its pages logged, the organization not yet pointed at them.
    const stagedLines = reference.lines.filter((line) => line.startsWith('staged ')).map((line) => line.split(' '));
    const staged = new Map(stagedLines.map(([, index, digest]) => [Number(index), digest!]));
    // When that swap begins, from the start of the write.
    const swapAt = new Map(stagedLines.map(([, index, , micros]) => [Number(index), Number(micros)]));
    const micros = new Map(done.map(([, index, , took]) => [Number(index), Number(took)]));
    const kinds = new Map<string, number[]>();
    const { sequence } = await import('./support/crash-writer-sequence.js');
    sequence.forEach((kind, index) => kinds.set(kind, [...(kinds.get(kind) ?? []), index]));

    const trials: { kind: string; index: number; delay: number }[] = [];
    for (const [kind, indexes] of kinds) {
      // Bounded, once in one of the kind's writes, a different one from run to run.
      const first = Math.floor(Math.random() * indexes.length);
      for (let trial = 0; trial < trialCount(1, 20); trial++) {
        const index = indexes[(first + trial) % indexes.length]!;
        // From the write's start to a little past its end, as long as it took the first time.
        trials.push({ kind, index, delay: Math.round(Math.random() * 1.2 * micros.get(index)!) });
      }
    }
    // A full sync's swap: from the moment its pages are logged to a little past the write's end.
    for (const [index, at] of swapAt) {
      for (let trial = 0; trial < trialCount(1, 10); trial++) trials.push({ kind: 'swap', index, delay: Math.round(at + Math.random() * 1.2 * (micros.get(index)! - at)) });
    }
    // How long a recovery takes, as last seen: a second kill comes within it.
    let recoveryMicros = 150_000;
    let recoveries = 0;
    const outcomes: string[] = [];
    const runTrial = async ({ kind, index, delay }: (typeof trials)[number], trialNumber: number) => {
      const dataDir = newDataDir();
      const run = await runWriter([dataDir, String(index), String(delay)]);
      expect(run.signal, `${kind} #${index}: ${run.lines.join(' | ')}`).toBe('SIGKILL');
      const finished = run.lines.some((line) => line.startsWith(`done ${index} `));
      const state = await storeDigest(dataDir, shownOnly);
      const before = digests.get(index - 1)!;
      const after = digests.get(index)!;
      const between = staged.get(index);
      expect([before, after, ...(between ? [between] : [])], `${kind} #${index} killed after ${delay} µs`).toContain(state);
      if (finished) expect(state, `${kind} #${index} was reported done`).toBe(after);
      outcomes.push(`${kind}:${state === after ? 'after' : state === before ? 'before' : 'staged'}`);
      // A second kill, while the next process recovers from the first: the same state, whatever it left.
      if (trialNumber % trialCount(2, 1) !== 0) return;
      const recoveryDelay = Math.round(Math.random() * 1.2 * recoveryMicros);
      // Every second recovery opens as a command line does, its pages read on demand.
      const recovery = await runWriter([dataDir, 'recover', String(recoveryDelay), ...(recoveries++ % 2 === 0 ? ['on-demand'] : [])]);
      const recovered = recovery.lines.find((line) => line.startsWith('recovered '));
      if (recovered) recoveryMicros = Number(recovered.split(' ')[1]);
      expect(await storeDigest(dataDir, shownOnly), `${kind} #${index} killed after ${delay} µs, its recovery after ${recoveryDelay} µs`).toBe(state);
      outcomes.push(`recovery:${recovered ? 'done' : 'killed'}`);
    };
    // Two at a time: the machine has two cores.
    for (let i = 0; i < trials.length; i += 2) await Promise.all(trials.slice(i, i + 2).map((trial, j) => runTrial(trial, i + j)));
    expect(outcomes.filter((outcome) => !outcome.startsWith('recovery:'))).toHaveLength(trials.length);
    expect(outcomes.filter((outcome) => outcome === 'recovery:killed').length).toBeGreaterThan(0);
  });
});
