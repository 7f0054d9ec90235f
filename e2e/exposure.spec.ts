import type { Locator, Page } from '@playwright/test';
import { columnTexts, expect, expectAccessible, figure, openConsole, screenshot, test } from './support/console-page.js';

// The endpoints table's columns, in order (renderer/src/views/list-definitions.tsx, exposure-columns.tsx).
const endpointColumn = { hostname: 1, risk: 3, critical: 4, kev: 9, maxCvss: 10 };
// The findings table's columns, in order: the version follows the product in its column.
const findingColumn = { host: 5, product: 6 };
const byText = (a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);
const descending = (values: number[]) => [...values].sort((a, b) => b - a);
/** An endpoint's risk score: the first line of its cell, the exploit probability under it. */
const riskOf = (text: string) => figure(text.split('\n')[0]!);

/** The texts of a column in the last rows of a grid, which End moves to. */
async function lastRows(grid: Locator, texts: (grid: Locator) => Promise<string[]>): Promise<string[]> {
  await grid.focus();
  await grid.page().keyboard.press('End');
  await expect(grid.locator('[role=row][aria-selected=true] [role=gridcell]').first()).not.toHaveText('Loading…');
  return texts(grid);
}

/** The products, or versions, of the findings in view: the product leads its cell, its version after it in smaller type. */
async function places(grid: Locator, part: 'product' | 'version'): Promise<string[]> {
  await columnTexts(grid, findingColumn.product);
  const cells = grid.locator(`[role=row]:not([aria-rowindex="1"]) [role=gridcell]:nth-child(${findingColumn.product}) .wrapped-text`);
  return cells.evaluateAll((elements, part) => elements.map((element) => (part === 'product' ? element.firstChild?.textContent : element.querySelector('.minor-text')?.textContent) ?? '—'), part);
}

async function sortBy(page: Page, grid: Locator, header: string, url: RegExp, direction: 'ascending' | 'descending') {
  await grid.getByRole('columnheader', { name: header }).getByRole('button', { name: header, exact: true }).click();
  await expect(page).toHaveURL(url);
  await expect(grid.getByRole('columnheader', { name: header })).toHaveAttribute('aria-sort', direction);
}

test('the endpoints open riskiest first, sort by each figure, and the riskiest shows its exposure and its findings with their host', async ({ page }) => {
  await openConsole(page, '/orgs/demo/endpoints');
  const grid = page.getByRole('grid', { name: 'Endpoints' });
  const riskHeader = grid.getByRole('columnheader', { name: 'Risk' });
  await expect(riskHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(page).not.toHaveURL(/sort=/);
  // The score's explanation is the Risk header's description.
  await expect(riskHeader.getByRole('button', { name: 'Risk', exact: true })).toHaveAccessibleDescription(/^Risk: the sum over open findings of critical 100, high 30/);
  const risks = (await columnTexts(grid, endpointColumn.risk)).map(riskOf);
  expect(risks.length).toBeGreaterThan(10);
  expect(risks[0]).toBeGreaterThan(0);
  expect(risks).toEqual(descending(risks));
  // The hostname cell may end with the endpoint's criticality badge, on a line of its own.
  const riskiest = (await columnTexts(grid, endpointColumn.hostname))[0]!.split('\n')[0]!.trim();
  await screenshot(page, 'endpoints-by-risk');
  await expectAccessible(page);

  // The Risk header toggles; back to riskiest first, the URL is bare again.
  await sortBy(page, grid, 'Risk', /sort=risk_score(&|$)/, 'ascending');
  const leastRisky = (await columnTexts(grid, endpointColumn.risk)).map(riskOf);
  expect(leastRisky).toEqual([...leastRisky].sort((a, b) => a - b));
  await sortBy(page, grid, 'Risk', /\/endpoints$/, 'descending');

  // A figure sorts largest first on its first click, then the other way.
  await sortBy(page, grid, 'Critical', /sort=-open_critical/, 'descending');
  const criticals = (await columnTexts(grid, endpointColumn.critical)).map(figure);
  expect(criticals[0]).toBeGreaterThan(0);
  expect(criticals).toEqual(descending(criticals));
  await sortBy(page, grid, 'KEV', /sort=-open_kev_findings/, 'descending');
  const kev = (await columnTexts(grid, endpointColumn.kev)).map(figure);
  expect(kev).toEqual(descending(kev));
  await sortBy(page, grid, 'CVSS', /sort=-highest_open_cvss/, 'descending');
  const cvss = (await columnTexts(grid, endpointColumn.maxCvss)).filter((text) => text !== '—').map(Number);
  expect(cvss[0]).toBeGreaterThanOrEqual(9);
  expect(cvss).toEqual(descending(cvss));

  // The riskiest endpoint: its exposure with the score explained, and its findings, each with its host.
  await openConsole(page, '/orgs/demo/endpoints');
  await grid.locator('[role=row][aria-rowindex="2"]').click();
  await expect(page.getByRole('heading', { level: 1, name: riskiest })).toBeVisible();
  const exposure = page.getByRole('list', { name: 'Exposure of the endpoint' });
  await expect(exposure.locator('.figure').filter({ hasText: 'Risk score' }).locator('.figure__value')).toHaveText(risks[0]!.toLocaleString('en-US'));
  await expect(page.getByText('Risk: the sum over open findings of critical 100')).toBeVisible();
  const findings = page.getByRole('grid', { name: 'Findings on this endpoint' });
  const hosts = await columnTexts(findings, findingColumn.host);
  expect(hosts.length).toBeGreaterThan(0);
  expect(new Set(hosts)).toEqual(new Set([riskiest]));
  await findings.scrollIntoViewIfNeeded();
  await screenshot(page, 'endpoint-exposure');
  await expectAccessible(page);
});

test('the findings show their host, product and version, and sort by host and by product', async ({ page }) => {
  await openConsole(page, '/orgs/demo/vulnerability-findings?status=open');
  const grid = page.getByRole('grid', { name: 'Vulnerability findings' });
  const hosts = await columnTexts(grid, findingColumn.host);
  expect(hosts.filter((host) => host !== '—').length).toBeGreaterThan(0);
  expect((await places(grid, 'product')).filter((product) => product !== '—').length).toBeGreaterThan(0);
  expect((await places(grid, 'version')).filter((version) => version !== '—').length).toBeGreaterThan(0);
  await screenshot(page, 'findings-with-place');
  await expectAccessible(page);

  // A to Z, findings without a host first: the last rows (End) have the last hosts, Z to A their first.
  await sortBy(page, grid, 'Host', /sort=endpoint_hostname/, 'ascending');
  const lastHosts = await lastRows(grid, (rows) => columnTexts(rows, findingColumn.host));
  expect(lastHosts.length).toBeGreaterThan(10);
  expect(lastHosts).not.toContain('—');
  expect(lastHosts).toEqual([...lastHosts].sort(byText));
  await sortBy(page, grid, 'Host', /sort=-endpoint_hostname/, 'descending');
  const firstHosts = await columnTexts(grid, findingColumn.host);
  expect(firstHosts).not.toContain('—');
  expect(firstHosts).toEqual([...firstHosts].sort(byText).reverse());
  expect(firstHosts[0]).toBe(lastHosts[lastHosts.length - 1]);

  await sortBy(page, grid, 'Product', /sort=target_product/, 'ascending');
  const lastProducts = await lastRows(grid, (rows) => places(rows, 'product'));
  expect(lastProducts.length).toBeGreaterThan(10);
  expect(lastProducts).not.toContain('—');
  expect(lastProducts).toEqual([...lastProducts].sort(byText));
  await expect(page).toHaveURL(/status=open/);
});
