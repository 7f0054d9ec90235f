import { defineConfig } from '@playwright/test';
import type { DatasetSize } from './contracts/inventory.js';
import base from './playwright.config.js';

/**
 * `npm run test:slow`: the console at the `large` scale (a million findings). `npm test` runs
 * e2e/large-dataset.spec.ts on `medium`; seeding `large` alone takes minutes on a loaded machine.
 */
export default defineConfig<object, { datasetSize: DatasetSize }>({
  ...base,
  testMatch: 'large-dataset.spec.ts',
  use: { ...base.use, datasetSize: 'large' },
});
