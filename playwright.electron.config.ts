import { defineConfig } from '@playwright/test';
import { findElectronRuntime } from './app/electron-runtime.mjs';

// The list reporter shows a skipped test without its reason: say it once, plainly.
if (!findElectronRuntime()) {
  console.log('Electron e2e tests skipped: no Electron runtime on this machine (its binary is not installed and cannot be downloaded here).');
}

/**
 * The desktop app's end-to-end tests (`npx playwright test -c playwright.electron.config.ts`):
 * Playwright's Electron driver against the built app (`npm run build && npm run build:app`).
 * Where no Electron runtime is installed they are reported as skipped, saying why.
 */
export default defineConfig({
  testDir: 'e2e-electron',
  outputDir: 'test-results/electron',
  // One app at a time: each owns a window, a server and a data directory.
  workers: 1,
  timeout: 60_000,
  reporter: [['list']],
});
