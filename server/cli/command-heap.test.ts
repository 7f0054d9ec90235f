import { describe, expect, it } from 'vitest';
import { lastJsonOfChild } from '../test/support/child-script.js';

function largestGenerations(sizing: 'small' | 'defaults'): { youngMiB: number; oldMiB: number } {
  return lastJsonOfChild('heap-growth-child.ts', { args: [sizing] });
}

describe("a command's heap sizing, set at run time", () => {
  // The flags are set once the process runs (command-line.ts main): this Node's V8 must read them
  // when it sizes the heap, not only at its start, or the command's peak goes back up unseen.
  it('keeps the young generation at its size then and the old one near what it holds', () => {
    const defaults = largestGenerations('defaults');
    const small = largestGenerations('small');
    // Grown a step at most while the child's modules loaded, before the flags were set.
    expect(small.youngMiB).toBeLessThanOrEqual(4);
    expect(defaults.youngMiB).toBeGreaterThan(2 * small.youngMiB);
    expect(small.oldMiB).toBeLessThan(0.55 * defaults.oldMiB);
  });
});
