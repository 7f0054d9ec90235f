import { describe, expect, it } from 'vitest';
import { lastJsonOfChild } from '../test/support/child-script.js';

describe('a request to a remote that stalls', () => {
  // A garbage collection once dropped fetch's weakly held link from its signal to a body it had
  // answered with: the page hung past its timeout, and its sync past a pause, until the remote
  // closed (found by the bench's hostile section). The child runs with --expose-gc to collect.
  it('ends at its timeout, or at once when interrupted, even after a garbage collection', () => {
    const ends = lastJsonOfChild<Record<'stalledBody' | 'interrupted' | 'silent', { ended: string; seconds: number }>>('stalled-answer-child.ts', { nodeFlags: ['--expose-gc'], timeoutMs: 30_000 });
    for (const stalled of [ends.stalledBody, ends.silent]) {
      expect(stalled.ended).toMatch(/did not answer within 1\.5 s/);
      expect(stalled.seconds).toBeLessThan(4.5);
    }
    expect(ends.interrupted.ended).toBe('paused');
    expect(ends.interrupted.seconds).toBeLessThan(1.5);
  });
});
