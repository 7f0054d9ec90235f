import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test', 'support', 'heap-growth-child.ts');

function largestGenerations(sizing: 'small' | 'defaults'): { youngMiB: number; oldMiB: number } {
  const output = execFileSync(process.execPath, ['--import', 'tsx', child, sizing], { encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(output.trim().split('\n').pop()!) as { youngMiB: number; oldMiB: number };
}

describe("a command's heap sizing, set at run time", () => {
  // The flags are set once the process runs (withStore): this Node's V8 must read them when it
  // sizes the heap, not only at its start, or the command's peak goes back up unseen.
  it('keeps the young generation at its size then and the old one near what it holds', () => {
    const defaults = largestGenerations('defaults');
    const small = largestGenerations('small');
    // Grown a step at most while the child's modules loaded, before the flags were set.
    expect(small.youngMiB).toBeLessThanOrEqual(4);
    expect(defaults.youngMiB).toBeGreaterThan(2 * small.youngMiB);
    expect(small.oldMiB).toBeLessThan(0.55 * defaults.oldMiB);
  });
});
