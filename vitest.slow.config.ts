import { defineConfig } from 'vitest/config';
import { runOptions } from './vitest.config.js';

/**
 * `npm run test:slow`: the randomised kill and power-loss tests with their full trial counts
 * (server/test/support/trial-count.ts), and the tests of the console's figures with a second demo
 * seed; `npm test` runs them bounded, the figures on one demo seed.
 */
export default defineConfig({
  test: {
    ...runOptions,
    include: ['server/test/crash-safety.test.ts', 'server/test/power-loss.test.ts', 'server/sync/sync-cli.test.ts', 'server/test/remediation-performance.test.ts', 'server/test/decide-figures.test.ts', 'server/test/endpoint-context-figures.test.ts'],
    env: { RC_FULL_TRIALS: '1' },
  },
});
