import { type ChildProcess, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { type DatasetSize, datasetSizes } from '../contracts/inventory.js';
import { addSession, expect, listTotal, screenshot, test } from './support/console-page.js';
import { type ConsoleSessionCookie, cli, consoleUrlOf, openSession, root, serve, stop } from './support/serve-process.js';

// A generated dataset of DESIGN section 8, seeded and served for this file alone: the console
// must stay usable at scale. `npm test` seeds `medium` (200,000 findings: seeding `large` costs
// more than the rest of the e2e tests together); `npm run test:slow` runs this file on `large`
// (20,000 endpoints, 200,000 targets, a million findings): playwright.slow.config.ts sets
// E2E_DATASET_SIZE. Read from the environment, not a worker option: a worker fixture of its own
// gave this file a worker of its own, started after every other spec, while the other worker idled.
const datasetSize = datasetSizeOf(process.env.E2E_DATASET_SIZE ?? 'medium');
const formatted = (count: number) => count.toLocaleString('en-US');

function datasetSizeOf(name: string): DatasetSize {
  if (!Object.hasOwn(datasetSizes, name)) throw new Error(`E2E_DATASET_SIZE must be one of ${Object.keys(datasetSizes).join(', ')}, not "${name}"`);
  return name as DatasetSize;
}
let dataDir = '';
let child: ChildProcess | undefined;
let consoleUrl: URL;
let session: ConsoleSessionCookie;

test.beforeAll(async () => {
  test.setTimeout(600_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-e2e-scale-'));
  const run = (...args: string[]) => execFileSync(process.execPath, [cli, ...args, '--data-dir', dataDir], { cwd: root, encoding: 'utf8' });
  run('orgs', 'create', '--slug', 'scale', '--name', 'Scale');
  run('seed', '--org', 'scale', '--size', datasetSize, '--seed', '7');
  const started = await serve(dataDir);
  child = started.child;
  consoleUrl = consoleUrlOf(started.output);
  session = await openSession(consoleUrl);
});

test.afterAll(async () => {
  if (child) await stop(child);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function open(page: Page, viewPath: string): Promise<void> {
  await addSession(page, consoleUrl.origin, session);
  await page.goto(`${consoleUrl.origin}${viewPath}`);
}

/**
 * How long rows deep in the findings view may take right after `serve` started: it opens
 * riskiest first, an order read from the findings' coverage columns, which `serve` reads (with
 * the dashboard) a little after it starts; seconds on a million findings, more on a busy machine.
 * Its first pages come sooner, from the KEV findings alone (store/kev-first-page.ts).
 */
const firstOrderMs = 120_000;

const findingsGrid = (page: Page) => page.getByRole('grid', { name: 'Vulnerability findings' });
const row = (page: Page, index: number) => findingsGrid(page).locator(`[role=row][aria-rowindex="${index + 2}"]`);

test('the findings list holds every row, opens deep in them, and goes to the last with End', async ({ page }) => {
  test.setTimeout(180_000);
  const { findings } = datasetSizes[datasetSize];
  // Every status: the view opens on the open ones.
  await open(page, '/orgs/scale/vulnerability-findings?status=any');
  await expect(row(page, 0).locator('[role=gridcell]').first()).toHaveText(/^CVE-/, { timeout: firstOrderMs });
  expect(await listTotal(page)).toBe(findings);

  await open(page, `/orgs/scale/vulnerability-findings?status=any&offset=${findings / 2}`);
  await expect(row(page, findings / 2).locator('[role=gridcell]').first()).toHaveText(/^CVE-/, { timeout: firstOrderMs });

  // A click on a row opens it: the keyboard reaches the grid through its focus.
  await findingsGrid(page).focus();
  await page.keyboard.press('End');
  await expect(row(page, findings - 1).locator('[role=gridcell]').first()).toHaveText(/^CVE-/);
  await expect(row(page, findings - 1)).toHaveAttribute('aria-selected', 'true');
  await screenshot(page, `${datasetSize}-findings-end`);
});

test('filters and sorts every finding', async ({ page }) => {
  test.setTimeout(180_000);
  await open(page, '/orgs/scale/vulnerability-findings');
  await expect(row(page, 0).locator('[role=gridcell]').first()).toHaveText(/^CVE-/, { timeout: firstOrderMs });
  await page.getByLabel('Severity').selectOption('critical');
  await expect(page).toHaveURL(/severity=critical/);
  await expect.poll(() => listTotal(page)).toBeLessThan(datasetSizes[datasetSize].findings);
  // The severity's badge, a KEV one under it on some rows.
  await expect(row(page, 0).locator('[role=gridcell]').nth(1).locator('.badge').first()).toHaveText('critical');

  // A score sorts highest first at the first click.
  await page.getByRole('button', { name: 'CVSS' }).click();
  await expect(page).toHaveURL(/sort=-cvss_score/);
  const scores = findingsGrid(page).locator('[role=row] [role=gridcell]:nth-child(3)');
  await expect(scores.first()).not.toHaveText('Loading…');
  // The CVSS score, the first line of its cell (EPSS under it).
  const shown = (await scores.allInnerTexts()).map((text) => Number(text.split('\n')[0]));
  expect(shown.length).toBeGreaterThan(5);
  expect(shown).toEqual([...shown].sort((a, b) => b - a));
  expect(shown[0]).toBe(10);
});

test('the dashboard and the coverage gaps answer on every finding', async ({ page }) => {
  test.setTimeout(180_000);
  const { findings, endpoints } = datasetSizes[datasetSize];
  await open(page, '/orgs/scale');
  const totals = page.getByRole('list', { name: 'Totals' });
  await expect(totals.getByRole('link', { name: new RegExp(`${formatted(findings)}\\s*Findings`) })).toBeVisible({ timeout: 60_000 });
  await expect(totals.getByRole('link', { name: new RegExp(`${formatted(endpoints)}\\s*Endpoints`) })).toBeVisible();
  await screenshot(page, `${datasetSize}-dashboard`);

  await open(page, '/orgs/scale/coverage-gaps');
  await expect(page.getByText(/such findings are not covered by any of the \d+ active scopes/)).toBeVisible({ timeout: 60_000 });
  const gaps = page.getByRole('grid', { name: 'Uncovered findings' });
  await expect(gaps.locator('[role=row][aria-rowindex="2"] [role=gridcell]').first()).toHaveText(/^CVE-/);
  await screenshot(page, `${datasetSize}-coverage-gaps`);
});
