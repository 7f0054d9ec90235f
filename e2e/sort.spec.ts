import fs from 'node:fs';
import { expect, openConsole, test } from './support/console-page.js';
import { parseCsv } from '../server/test/support/csv.js';

const severityRank = ['info', 'low', 'medium', 'high', 'critical'];
const byText = (a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);

test('a click on a header sorts by it, the URL keeps the order across a reload, and the export follows it', async ({ page }) => {
  await openConsole(page, '/orgs/demo/endpoints');
  const grid = page.getByRole('grid', { name: 'Endpoints' });
  const header = grid.getByRole('columnheader', { name: 'Hostname' });
  const hostnames = grid.locator('[role=row] [role=gridcell]:first-child .hostname-cell__name');
  await expect(hostnames.first()).not.toHaveText('Loading…');
  await expect(header).toHaveAttribute('aria-sort', 'none');
  // The endpoints open riskiest first (exposure.spec.ts checks that order).
  await expect(grid.getByRole('columnheader', { name: 'Risk' })).toHaveAttribute('aria-sort', 'descending');
  const unsorted = await hostnames.allInnerTexts();

  await header.getByRole('button').click();
  await expect(page).toHaveURL(/sort=hostname(&|$)/);
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(hostnames.first()).not.toHaveText('Loading…');
  const ascending = await hostnames.allInnerTexts();
  expect(ascending).toEqual([...ascending].sort(byText));
  for (const hostname of unsorted) expect(byText(ascending[0]!, hostname)).toBeLessThanOrEqual(0);

  await header.getByRole('button').click();
  await expect(page).toHaveURL(/sort=-hostname/);
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(hostnames.first()).not.toHaveText(ascending[0]!);
  const descending = await hostnames.allInnerTexts();
  expect(descending).toEqual([...descending].sort(byText).reverse());

  await page.reload();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(hostnames.first()).toHaveText(descending[0]!);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const [columns, ...rows] = parseCsv(fs.readFileSync((await (await downloading).path())!, 'utf8'));
  const exported = rows.map((row) => row[columns!.indexOf('hostname')]!);
  expect(exported.slice(0, descending.length)).toEqual(descending);
  expect(exported).toEqual([...exported].sort(byText).reverse());
});

test('headers sort from the keyboard, and Enter on a header opens no row', async ({ page }) => {
  await openConsole(page, '/orgs/demo/vulnerability-findings?status=open');
  const grid = page.getByRole('grid', { name: 'Vulnerability findings' });
  // The severity's badge, above the KEV one in the same column.
  const severities = grid.locator('[role=row] [role=gridcell]:nth-child(2) .badge:not(.badge--kev)');
  await expect(severities.first()).toBeVisible();
  const button = grid.getByRole('button', { name: 'Severity' });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/status=open&sort=severity|sort=severity&status=open/);
  await expect(severities.first()).not.toHaveText('critical');
  const ascending = (await severities.allInnerTexts()).map((severity) => severityRank.indexOf(severity));
  expect(ascending).toEqual([...ascending].sort());
  await grid.getByRole('button', { name: 'Severity' }).focus();
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/sort=-severity/);
  await expect(severities.first()).toHaveText('critical');
  const descending = (await severities.allInnerTexts()).map((severity) => severityRank.indexOf(severity));
  expect(descending).toEqual([...descending].sort().reverse());
  await expect(page.getByRole('heading', { level: 1, name: 'Vulnerability findings' })).toBeVisible();
});

test('two fields in one column each keep their sort button: Severity and KEV, Product under Version', async ({ page }) => {
  await openConsole(page, '/orgs/demo/vulnerability-findings?status=open&sort=severity');
  const grid = page.getByRole('grid', { name: 'Vulnerability findings' });
  const column = grid.getByRole('columnheader', { name: 'Severity KEV' });
  await expect(column).toHaveAttribute('aria-sort', 'ascending');
  await column.getByRole('button', { name: 'KEV' }).click();
  // KEV sorts by risk, KEV first: the view's default order, which the URL leaves out.
  await expect(page).toHaveURL(/\?status=open$/);
  await expect(column).toHaveAttribute('aria-sort', 'descending');
  await expect(grid.locator('[role=row] [role=gridcell]:nth-child(2)').first()).toContainText('KEV');
  const product = grid.getByRole('columnheader', { name: 'Product Version' });
  await product.getByRole('button', { name: 'Product' }).click();
  await expect(page).toHaveURL(/sort=target_product/);
  await expect(product).toHaveAttribute('aria-sort', 'ascending');
  await expect(column).toHaveAttribute('aria-sort', 'none');
});

test('the findings search box finds the findings of a CVE by its id, in any case', async ({ page }) => {
  await openConsole(page, '/orgs/demo/vulnerability-findings');
  const grid = page.getByRole('grid', { name: 'Vulnerability findings' });
  const cves = grid.locator('[role=row] [role=gridcell]:first-child');
  await expect(cves.first()).not.toHaveText('Loading…');
  const cve = await cves.first().innerText();
  await page.getByLabel('Search').fill(cve.toLowerCase());
  await expect(page).toHaveURL(new RegExp(`q=${cve.toLowerCase()}`));
  await expect(cves.first()).toHaveText(cve);
  for (const text of await cves.allInnerTexts()) expect(text).toContain(cve);
});

test('a click anywhere in a header cell sorts, and a score sorts highest first at the first click', async ({ page }) => {
  await openConsole(page, '/orgs/demo/remediation-targets');
  const grid = page.getByRole('grid', { name: 'Remediation targets' });
  const header = grid.getByRole('columnheader', { name: 'Max CVSS' });
  await expect(grid.locator('[role=row][aria-rowindex="2"] [role=gridcell]').first()).not.toHaveText('Loading…');
  const column = (await grid.getByRole('columnheader').allInnerTexts()).findIndex((text) => text.startsWith('Max CVSS')) + 1;
  // The cell's right edge, away from its label.
  const box = (await header.boundingBox())!;
  await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
  await expect(page).toHaveURL(/sort=-highest_cvss_score/);
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  const scores = grid.locator(`[role=row] [role=gridcell]:nth-child(${column})`);
  await expect(scores.first()).not.toHaveText('Loading…');
  const values = (await scores.allInnerTexts()).map((text) => (text === '—' ? -1 : Number(text)));
  expect(values[0]).toBeGreaterThan(9);
  expect(values).toEqual([...values].sort((a, b) => b - a));
});
