import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { type Locator, type Page, expect, test as base } from '@playwright/test';
import type { ConsoleSessionCookie } from './serve-process.js';

/** One of global-setup.ts's values for this worker's server (Playwright numbers its workers from 0). */
const ofThisWorker = (name: string): string => {
  const value = process.env[`${name}_${process.env.TEST_PARALLEL_INDEX ?? '0'}`];
  if (value === undefined) throw new Error(`global-setup.ts set no ${name} for worker ${process.env.TEST_PARALLEL_INDEX}`);
  return value;
};

/** The server global-setup.ts started for this worker. */
export const server = {
  get baseUrl() {
    return ofThisWorker('E2E_BASE_URL');
  },
  /** A script token made by global-setup.ts, which /app takes in the `x-console-script-token` header. */
  get scriptToken() {
    return ofThisWorker('E2E_SCRIPT_TOKEN');
  },
  /** The console session opened by global-setup.ts, for the browser's cookie. */
  get session(): ConsoleSessionCookie {
    return { name: ofThisWorker('E2E_SESSION_COOKIE'), value: ofThisWorker('E2E_SESSION_VALUE') };
  },
  get demoApiKey() {
    return process.env.E2E_DEMO_API_KEY!;
  },
};

/**
 * The page fixture, extended: problems the browser reports (a CSP violation, an uncaught
 * error, a failed request other than one a test caused on purpose) fail the test.
 */
export const test = base.extend<{ problems: string[] }>({
  problems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await use(problems);
      expect(problems, 'errors in the browser console').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/** Gives the page's browser context a console session's cookie, as opening a console link in it does. */
export async function addSession(page: Page, baseUrl: string, session: ConsoleSessionCookie): Promise<void> {
  await page.context().addCookies([{ ...session, url: baseUrl, httpOnly: true, sameSite: 'Strict' }]);
}

/** Opens a view of the console as a bookmark does in a browser that has a console session (e2e/session.spec.ts opens the link itself). */
export async function openConsole(page: Page, viewPath = '/'): Promise<void> {
  await addSession(page, server.baseUrl, server.session);
  await page.goto(`${server.baseUrl}${viewPath}`);
}

/** Checks the page with axe-core: no serious or critical violation. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
  expect(serious, 'serious or critical accessibility violations').toEqual([]);
}

/** Saves a screenshot of the view under e2e/artifacts/, for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(import.meta.dirname, '..', 'artifacts', `${name}.png`) });
}

/** The grid of a list view and the count it reports. */
export async function listTotal(page: Page): Promise<number> {
  const status = page.locator('.virtual-table__status').first();
  await expect(status).toContainText('row');
  return Number((await status.innerText()).split(' ')[0]!.replaceAll(/[^\d]/g, ''));
}

/** The texts of one column (1-based) of the rows a grid shows, once they have all loaded. */
export async function columnTexts(grid: Locator, nth: number): Promise<string[]> {
  const column = grid.locator(`[role=row]:not([aria-rowindex="1"]) [role=gridcell]:nth-child(${nth})`);
  await expect(column.first()).not.toHaveText('Loading…');
  await expect(grid.locator('.virtual-table__placeholder')).toHaveCount(0);
  return column.allInnerTexts();
}

/** A count or score as a table shows it ("26,790"), as a number. */
export const figure = (text: string): number => Number(text.replaceAll(/[^\d.]/g, ''));
