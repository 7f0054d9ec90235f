/** Whether this is `npm run test:slow` (vitest.slow.config.ts sets RC_FULL_TRIALS): the full trial counts, and the cases kept for it. */
export function isSlowRun(): boolean {
  return process.env.RC_FULL_TRIALS === '1';
}

/**
 * How many times a randomised test repeats its trial: `bounded` in `npm test`, chosen so that it
 * still reaches every case the test names, and `full` in `npm run test:slow` (vitest.slow.config.ts
 * sets RC_FULL_TRIALS), the sampling depth that finds the rarer moments to kill a process in.
 */
export function trialCount(bounded: number, full: number): number {
  return isSlowRun() ? full : bounded;
}
