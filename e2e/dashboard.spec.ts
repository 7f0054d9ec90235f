import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addSession, expect, expectAccessible, openConsole, screenshot, server, test } from './support/console-page.js';
import { cli, consoleUrlOf, openSession, serve, stop } from './support/serve-process.js';

test('the console opens on the demo dashboard, with no token in the address bar', async ({ page }) => {
  await openConsole(page);
  await expect(page).toHaveURL(/\/orgs\/demo$/);
  expect(page.url()).not.toContain('token');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Endpoints$/ }).first()).toBeVisible();
  const totals = page.getByRole('list', { name: 'Totals' });
  await expect(totals.getByRole('link', { name: /500\s*Endpoints/ })).toBeVisible();
  await expect(totals.getByRole('link', { name: /20,000\s*Findings/ })).toBeVisible();
  for (const title of ['Findings by severity', 'Endpoints by OS family', 'Agent coverage', 'Top vulnerable products', 'Findings over time']) {
    await expect(page.getByRole('heading', { name: new RegExp(title) })).toBeVisible();
  }
  await expect(page.locator('.chart-card .recharts-wrapper > svg')).toHaveCount(5);
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(page.getByTestId('api-address')).toHaveText(`${server.baseUrl}/v1`);
  await expect(page.getByText('Demo', { exact: true })).toBeVisible();
  await screenshot(page, 'dashboard');
  await expectAccessible(page);
});

test('a reload keeps working without the fragment, and the dark theme follows the OS', async ({ page }) => {
  await openConsole(page, '/orgs/demo');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await page.reload();
  await expect(page.locator('.chart-card .recharts-wrapper > svg')).toHaveCount(5);
  await page.emulateMedia({ colorScheme: 'dark' });
  const background = await page.evaluate(() => getComputedStyle(document.body.parentElement!).backgroundColor);
  expect(background).toBe('rgb(17, 20, 24)');
  await screenshot(page, 'dashboard-dark');
  await expectAccessible(page);
});

test('without a session the console says how to open it', async ({ page, problems }) => {
  await page.goto(server.baseUrl);
  await expect(page.getByText(/one-time link/)).toContainText('remediation-console console-url');
  // The browser reports the 401 of the session check that found none.
  expect(problems).toEqual([expect.stringContaining('status of 401')]);
  problems.length = 0;
});

test('totals link to the filtered lists', async ({ page }) => {
  await openConsole(page, '/orgs/demo');
  await page.getByRole('link', { name: /Open KEV findings/ }).click();
  await expect(page).toHaveURL(/vulnerability-findings\?status=open&isKev=true$/);
  await expect(page.getByLabel('KEV')).toHaveValue('true');
});

test("an empty local organization's dashboard says how its data would arrive", async ({ page }) => {
  // A data directory of its own: the shared server holds its own, and only a stopped one takes `orgs create`.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-e2e-empty-'));
  execFileSync(process.execPath, [cli, 'orgs', 'create', '--slug', 'empty', '--name', 'Empty', '--data-dir', dataDir], { stdio: 'ignore' });
  const { child, output } = await serve(dataDir);
  try {
    const link = consoleUrlOf(output);
    await addSession(page, link.origin, await openSession(link));
    await page.goto(`${link.origin}/orgs/empty`);
    await expect(page.getByText('This organization has no data yet.')).toBeVisible();
    await expect(page.getByText('the v1 API only reads it')).toBeVisible();
    await expect(page.locator('code', { hasText: 'remediation-console seed --org empty --size demo' })).toBeVisible();
    await expect(page.locator('.state').getByRole('link', { name: 'Organizations' })).toHaveAttribute('href', '/orgs/empty/organizations');
    await screenshot(page, 'dashboard-empty-local');
    await expectAccessible(page);
  } finally {
    await stop(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
