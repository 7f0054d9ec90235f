import { defineConfig } from '@playwright/test';
import base from './playwright.config.js';

/**
 * `npm run test:slow`: the console at the `large` scale (a million findings). `npm test` runs
 * e2e/large-dataset.spec.ts on `medium`; seeding `large` alone takes minutes on a loaded machine.
 * The size reaches the spec through the environment, which its workers inherit.
 */
process.env.E2E_DATASET_SIZE = 'large';

export default defineConfig({
  ...base,
  testMatch: 'large-dataset.spec.ts',
});
