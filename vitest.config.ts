import { defineConfig } from 'vitest/config';

/** What every run of the tests shares: bounds of time, and the workers. */
export const runOptions = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // Two cores: one worker per core keeps servers started by tests from starving each other.
  maxWorkers: 2,
};

export default defineConfig({
  test: {
    ...runOptions,
    projects: [
      // One module graph per worker: importing the server's modules for each of its 136 files again
      // was 80 s of CI (docs/decisions/tests-docs-and-ci/server-tests-share-their-workers-modules.md).
      { extends: true, test: { name: 'server', include: ['server/**/*.test.ts'], isolate: false } },
      // The main process's tests replace modules (vi.mock of electron): each file its own graph.
      { extends: true, test: { name: 'app', include: ['app/**/*.test.ts'] } },
      {
        // The console's component tests, in jsdom, against one console server their global setup starts (docs/decisions/tests-docs-and-ci/component-tests-of-the-console.md, "Component tests of the console").
        extends: true,
        test: {
          name: 'renderer',
          include: ['renderer/**/*.test.tsx'],
          environment: 'jsdom',
          globalSetup: ['server/test/support/component-test-server.ts'],
          setupFiles: ['renderer/src/test-support/setup.ts'],
        },
      },
    ],
  },
});
