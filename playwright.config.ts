import { defineConfig } from '@playwright/test';

/**
 * The console in Debian's Chromium against headless servers (e2e/support/global-setup.ts starts
 * them from the build: run `npm run build` first), one per worker: a spec file runs whole in one
 * worker, against that worker's server, so that what a spec changes no spec of another worker
 * sees. Two workers on two cores: a test waits on the browser and the server most of its time;
 * three were slower (5.7 minutes against 4.8–4.9: the cores were then full).
 */
export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/support/global-setup.ts',
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? 'line' : 'list',
  outputDir: 'test-results',
  use: {
    viewport: { width: 1280, height: 860 },
    acceptDownloads: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
