import fs from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, listTotal, openConsole, screenshot, server, test } from './support/console-page.js';
import { parseCsv } from '../server/test/support/csv.js';

// The software table's columns, in order (renderer/src/views/software-columns.tsx).
const column = { vendor: 1, product: 2, versions: 3, endpoints: 4, risk: 5, critical: 6, kev: 11 };
const number = (text: string) => Number(text.replaceAll(/[^\d.]/g, ''));
const byText = (a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);

/** The texts of one column of the rows a grid shows, once they have loaded. */
async function cells(grid: Locator, nth: number): Promise<string[]> {
  const column = grid.locator(`[role=row]:not([aria-rowindex="1"]) [role=gridcell]:nth-child(${nth})`);
  await expect(column.first()).not.toHaveText('Loading…');
  await expect(grid.locator('.virtual-table__placeholder')).toHaveCount(0);
  return column.allInnerTexts();
}

async function sortBy(page: Page, grid: Locator, header: string, expected: RegExp, direction: 'ascending' | 'descending') {
  await grid.getByRole('columnheader', { name: header }).getByRole('button').click();
  await expect(page).toHaveURL(expected);
  await expect(grid.getByRole('columnheader', { name: header })).toHaveAttribute('aria-sort', direction);
}

test('the software view lists products riskiest first, sorts by a header, searches and exports what it shows', async ({ page }) => {
  await openConsole(page, '/orgs/demo');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Software' }).click();
  await expect(page).toHaveURL(/\/orgs\/demo\/software$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Software' })).toBeVisible();
  await expect(page.getByText('Risk: the sum over open findings of critical 100')).toBeVisible();
  const grid = page.getByRole('grid', { name: 'Software' });
  await expect(grid.getByRole('columnheader', { name: 'Risk' })).toHaveAttribute('aria-sort', 'descending');
  const risks = (await cells(grid, column.risk)).map(number);
  expect(risks.length).toBeGreaterThan(1);
  expect(risks).toEqual([...risks].sort((a, b) => b - a));
  const total = await listTotal(page);
  await screenshot(page, 'software');
  await expectAccessible(page);

  // Figures sort largest first, then the other way; text A to Z.
  await sortBy(page, grid, 'Endpoints', /sort=-endpoints/, 'descending');
  const endpoints = (await cells(grid, column.endpoints)).map(number);
  expect(endpoints).toEqual([...endpoints].sort((a, b) => b - a));
  await sortBy(page, grid, 'Endpoints', /sort=endpoints/, 'ascending');
  await expect(grid.locator(`[role=row][aria-rowindex="2"] [role=gridcell]:nth-child(${column.endpoints})`)).not.toHaveText(String(endpoints[0]));
  const fewest = (await cells(grid, column.endpoints)).map(number);
  expect(fewest).toEqual([...fewest].sort((a, b) => a - b));
  await sortBy(page, grid, 'Product', /sort=product/, 'ascending');
  const products = (await cells(grid, column.product)).filter((product) => product !== '—');
  expect(products).toEqual([...products].sort(byText));
  await page.reload();
  await expect(grid.getByRole('columnheader', { name: 'Product' })).toHaveAttribute('aria-sort', 'ascending');

  // A search of vendor or product, kept in the URL with the sort.
  const vendor = (await cells(grid, column.vendor)).find((text) => text !== '—')!;
  const term = vendor.slice(0, 5).toLowerCase();
  await page.getByLabel('Search').fill(term);
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(term).replaceAll('%20', '(\\+|%20)')}`));
  await expect(page).toHaveURL(/sort=product/);
  const found = await listTotal(page);
  expect(found).toBeGreaterThan(0);
  expect(found).toBeLessThanOrEqual(total);
  const vendors = await cells(grid, column.vendor);
  const names = await cells(grid, column.product);
  vendors.forEach((text, index) => expect(`${text} ${names[index]}`.toLowerCase()).toContain(term));

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const [header, ...rows] = parseCsv(fs.readFileSync((await (await downloading).path())!, 'utf8'));
  expect(header).toEqual(expect.arrayContaining(['vendor', 'product', 'risk_score']));
  expect(rows).toHaveLength(found);
  const exported = rows.map((row) => row[header!.indexOf('product')]!).filter(Boolean);
  expect(exported).toEqual([...exported].sort(byText));
});

test('a product shows its versions, a version its installs, which link to their endpoint and open findings', async ({ page }) => {
  await openConsole(page, '/orgs/demo/software');
  const grid = page.getByRole('grid', { name: 'Software' });
  const [vendor] = await cells(grid, column.vendor);
  const [product] = await cells(grid, column.product);
  const [risk] = await cells(grid, column.risk);
  await grid.locator('[role=row][aria-rowindex="2"]').click();
  await expect(page).toHaveURL(/\/orgs\/demo\/software\/[A-Za-z0-9_-]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText([vendor, product].filter((text) => text !== '—').join(' '));
  const figures = page.getByRole('list', { name: 'Figures of the product' });
  await expect(figures.getByText('Risk score').locator('xpath=preceding-sibling::span')).toHaveText(risk!);
  const versions = page.getByRole('grid', { name: 'Versions' });
  // The versions come riskiest first (the risk is their third column).
  const versionRisks = (await cells(versions, 3)).map(number);
  expect(versionRisks).toEqual([...versionRisks].sort((a, b) => b - a));
  await screenshot(page, 'software-product');
  await expectAccessible(page);

  // Enter on the selected row opens the version, as in every table.
  await versions.focus();
  await page.keyboard.press('ArrowDown');
  await expect(versions.locator('[role=row][aria-rowindex="2"]')).toHaveAttribute('aria-selected', 'true');
  const [version] = await cells(versions, 1);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/software\/[A-Za-z0-9_-]+\/versions\/[A-Za-z0-9_-]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(version!);
  await expect(page.getByRole('list', { name: 'Figures of the version' })).toBeVisible();
  const installs = page.getByRole('grid', { name: 'Installs' });
  const firstInstall = installs.locator('[role=row][aria-rowindex="2"]');
  const hostnames = await cells(installs, 1);
  expect(hostnames.length).toBeGreaterThan(0);
  await screenshot(page, 'software-version');
  await expectAccessible(page);

  // The endpoint's name opens the endpoint, and Back returns to the version.
  const versionUrl = page.url();
  await firstInstall.getByRole('link').click();
  await expect(page).toHaveURL(/\/orgs\/demo\/endpoints\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(hostnames[0]!);
  await page.goBack();
  await expect(page).toHaveURL(versionUrl);

  // The row opens its target's open findings, as many as the row counts.
  // Endpoint, status, risk, then the open findings by severity.
  const counts = (await firstInstall.locator('[role=gridcell]').allInnerTexts()).slice(3, 8).map(number);
  await firstInstall.locator('[role=gridcell]').nth(1).click();
  await expect(page).toHaveURL(/\/vulnerability-findings\?remediationTargetId=[0-9a-f-]{36}&status=open$/);
  const open = counts.reduce((sum, count) => sum + count, 0);
  if (open > 0) expect(await listTotal(page)).toBe(open);
  else await expect(page.getByText('No findings match these filters.')).toBeVisible();

  // Back to the version, with the row opened selected; its breadcrumb leads to the product and the software list.
  await page.goBack();
  await expect(page).toHaveURL(`${versionUrl}?row=0`);
  await expect(firstInstall).toHaveAttribute('aria-selected', 'true');
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  const productUrl = await breadcrumb.getByRole('link', { name: [vendor, product].filter((text) => text !== '—').join(' ') }).getAttribute('href');
  expect(versionUrl).toContain(productUrl!);
  await expect(breadcrumb.getByRole('link', { name: '← Software' })).toHaveAttribute('href', '/orgs/demo/software');
  // Escape leaves a detail for the table it was opened from: the version for its product, the product for the list.
  await page.keyboard.press('Escape');
  // Each table kept the row opened from it in its URL, as it was opened.
  await expect(page).toHaveURL(`${server.baseUrl}${productUrl}?row=0`);
  await expect(page.getByRole('grid', { name: 'Versions' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/orgs\/demo\/software\?row=0$/);
  await expect(grid.locator('[role=row][aria-rowindex="2"]')).toHaveAttribute('aria-selected', 'true');
});

test('a product whose name starts with its vendor names the vendor once: "curl", not "curl curl"', async ({ page }) => {
  await openConsole(page, '/orgs/demo/software?q=curl&sort=product');
  const grid = page.getByRole('grid', { name: 'Software' });
  const vendors = await cells(grid, column.vendor);
  const products = await cells(grid, column.product);
  const curl = products.findIndex((product, index) => product === 'curl' && vendors[index] === 'curl');
  expect(curl).toBeGreaterThanOrEqual(0);
  await grid.locator(`[role=row][aria-rowindex="${curl + 2}"]`).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('curl');
  // The remediation plan names its steps the same way.
  await openConsole(page, '/orgs/demo/remediation-plan');
  const steps = page.getByRole('table', { name: 'Steps' }).getByRole('link');
  await expect(steps.first()).toBeVisible();
  const names = await steps.allInnerTexts();
  expect(names.filter((name) => /^(\S+) \1\b/i.test(name))).toEqual([]);
});

test('an unknown product says so, with a way back', async ({ page, problems }) => {
  await openConsole(page, '/orgs/demo/software/WyJubyIsIm9uZSJd');
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('link', { name: '← Software' })).toBeVisible();
  problems.length = 0;
});

// The plan's sentences (server/store/exposure/remediation-plan.ts): a goal reached, or one that updating every product falls short of.
const reachedSentence = /^Update (this|these) [\d,]+ products? on [\d,]+ endpoints? to close (\d+\.\d) % of open critical and KEV findings\.$/;
const unreachedSentence = /^Updating all [\d,]+ products? on [\d,]+ endpoints? closes (\d+\.\d) % of open critical and KEV findings, short of \d+ %: the rest have no product to update\.$/;

test('the remediation plan states the 50, 80 and 95 % goals, draws the curve and lists its steps', async ({ page }) => {
  await openConsole(page, '/orgs/demo');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Remediation plan' }).click();
  await expect(page).toHaveURL(/\/orgs\/demo\/remediation-plan$/);
  const goals = page.getByRole('list', { name: 'Goals' }).getByRole('listitem');
  await expect(goals).toHaveCount(3);
  const sentences = await goals.locator('p').allInnerTexts();
  // The demo's products close every goal but maybe the last; a goal not reached says what all products close, less than the goal.
  expect(sentences[0]).toMatch(reachedSentence);
  [50, 80, 95].forEach((goal, index) => {
    const reached = reachedSentence.exec(sentences[index]!);
    const unreached = unreachedSentence.exec(sentences[index]!);
    expect(reached ?? unreached, sentences[index]).not.toBeNull();
    if (reached) expect(Number(reached[2])).toBeGreaterThanOrEqual(goal);
    else expect(Number(unreached![1])).toBeLessThan(goal);
  });
  await expect(page.getByText(/open critical or KEV findings (have no product to update|belongs? to a product of this plan)/)).toBeVisible();

  const chart = page.getByRole('img', { name: /^Cumulative share of the [\d,]+ open critical and KEV findings closed/ });
  await expect(chart).toBeVisible();
  const curve = chart.locator('path.recharts-line-curve');
  await expect(curve).toHaveAttribute('d', /^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+){2,}/);
  await expect(chart.locator('.recharts-reference-line')).toHaveCount(3);

  const steps = page.getByRole('table', { name: 'Steps' });
  const rows = steps.locator('tbody tr');
  expect(await rows.count()).toBeGreaterThan(1);
  // The cumulative share grows step by step, up to the last goal's share or more.
  const cumulative = (await rows.locator('td:nth-child(7)').allInnerTexts()).map((text) => Number(/([\d.]+) %$/.exec(text)![1]));
  expect(cumulative).toEqual([...cumulative].sort((a, b) => a - b));
  await screenshot(page, 'remediation-plan');
  await expectAccessible(page);
  await rows.nth(Math.min(8, (await rows.count()) - 1)).scrollIntoViewIfNeeded();
  await screenshot(page, 'remediation-plan-steps');

  const first = rows.first().getByRole('link');
  const name = await first.innerText();
  await first.click();
  await expect(page).toHaveURL(/\/orgs\/demo\/software\/[A-Za-z0-9_-]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
});

test('the remediation plan of one BOD 26-04 outcome: chosen in a select, kept in the URL, closing what the API plans for it', async ({ page, request }) => {
  const headers = { 'x-console-script-token': server.scriptToken };
  const planOf = async (query: string) => (await (await request.get(`${server.baseUrl}/app/orgs/demo/remediation-plan${query}`, { headers })).json()) as { open_critical_or_kev: number; steps: { product: string | null }[] };
  const whole = await planOf('');
  const ofOutcome = await planOf('?bod2604Outcome=3%20days');
  expect(ofOutcome.open_critical_or_kev).toBeGreaterThan(0);
  expect(ofOutcome.open_critical_or_kev).toBeLessThan(whole.open_critical_or_kev);

  await openConsole(page, '/orgs/demo/remediation-plan');
  await page.getByLabel('BOD 26-04 outcome').selectOption('3 days');
  await expect(page).toHaveURL(/[?&]bod2604Outcome=3(\+|%20)days/);
  const count = ofOutcome.open_critical_or_kev.toLocaleString('en-US');
  await expect(page.getByRole('img', { name: new RegExp(`^Cumulative share of the ${count} open critical and KEV findings closed`) })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Steps' }).locator('tbody tr')).toHaveCount(ofOutcome.steps.length);
  await expectAccessible(page);
  // The CSV is the plan shown: its steps, in its order.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const [header, ...rows] = parseCsv(fs.readFileSync((await (await downloading).path())!, 'utf8'));
  expect(rows.map((row) => row[header!.indexOf('product')] || null)).toEqual(ofOutcome.steps.map((step) => step.product));
  await page.reload();
  await expect(page.getByLabel('BOD 26-04 outcome')).toHaveValue('3 days');
});
