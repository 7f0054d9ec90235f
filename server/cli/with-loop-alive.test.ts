import { describe, expect, it } from 'vitest';
import { withLoopAlive } from './with-loop-alive.js';

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('withLoopAlive', () => {
  it('holds a timer while the work runs and lets it go when the work ends, either way', async () => {
    const before = timers();
    let during = 0;
    await expect(
      withLoopAlive(async () => {
        during = timers();
        return 'done';
      }),
    ).resolves.toBe('done');
    expect(during).toBe(before + 1);
    expect(timers()).toBe(before);

    await expect(
      withLoopAlive(async () => {
        throw new Error('failed');
      }),
    ).rejects.toThrow('failed');
    expect(timers()).toBe(before);
  });
});
