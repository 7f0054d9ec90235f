import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { storeDigest } from './support/store-digest.js';
import { trialCount } from './support/trial-count.js';

/**
 * Crash safety (issue 13): a child process runs writes of every kind (support/crash-writer.ts)
 * and is killed with SIGKILL at random moments inside one of them. Reopened, the data directory
 * must hold exactly the state before that write or after it — never a mix, never an error —
 * and every write the child had reported done. `npm test` kills once inside every write of the
 * sequence; `npm run test:slow` 20 times in every kind of write.
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
  it('opens, after a kill -9 inside any write, the state before or after that write', { timeout: 600_000 }, async () => {
    const reference = await runWriter([newDataDir()]);
    expect(reference.lines.at(-1)).toBe('closed');
    const done = reference.lines.filter((line) => line.startsWith('done ')).map((line) => line.split(' '));
    const digests = new Map(done.map(([, index, digest]) => [Number(index), digest!]));
    // A staged sync has a state between: its pages logged, the organization not yet pointed at them.
    const staged = new Map(reference.lines.filter((line) => line.startsWith('staged ')).map((line) => [Number(line.split(' ')[1]), line.split(' ')[2]!]));
    const micros = new Map(done.map(([, index, , took]) => [Number(index), Number(took)]));
    const kinds = new Map<string, number[]>();
    const { sequence } = await import('./support/crash-writer-sequence.js');
    sequence.forEach((kind, index) => kinds.set(kind, [...(kinds.get(kind) ?? []), index]));

    const trials: { kind: string; index: number; delay: number }[] = [];
    for (const [kind, indexes] of kinds) {
      for (let trial = 0; trial < trialCount(indexes.length, 20); trial++) {
        const index = indexes[trial % indexes.length]!;
        // From the write's start to a little past its end, as long as it took the first time.
        trials.push({ kind, index, delay: Math.round(Math.random() * 1.2 * micros.get(index)!) });
      }
    }
    const outcomes: string[] = [];
    const runTrial = async ({ kind, index, delay }: (typeof trials)[number]) => {
      const dataDir = newDataDir();
      const run = await runWriter([dataDir, String(index), String(delay)]);
      expect(run.signal, `${kind} #${index}: ${run.lines.join(' | ')}`).toBe('SIGKILL');
      const finished = run.lines.some((line) => line.startsWith(`done ${index} `));
      const state = await storeDigest(dataDir);
      const before = digests.get(index - 1)!;
      const after = digests.get(index)!;
      const between = staged.get(index);
      expect([before, after, ...(between ? [between] : [])], `${kind} #${index} killed after ${delay} µs`).toContain(state);
      if (finished) expect(state, `${kind} #${index} was reported done`).toBe(after);
      outcomes.push(`${kind}:${state === after ? 'after' : state === before ? 'before' : 'staged'}`);
    };
    // Two at a time: the machine has two cores.
    for (let i = 0; i < trials.length; i += 2) await Promise.all(trials.slice(i, i + 2).map(runTrial));
    expect(outcomes).toHaveLength(trials.length);
  });
});
