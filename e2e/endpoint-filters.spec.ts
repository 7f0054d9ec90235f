import { type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { columnTexts, expect, listTotal, openConsole, server, test } from './support/console-page.js';

/** A /v1 list of the demo organization, read with its key. */
async function v1(request: APIRequestContext, path: string): Promise<{ data: any[]; total: number }> {
  const response = await request.get(`${server.baseUrl}/v1/${path}`, { headers: { Authorization: `Bearer ${server.demoApiKey}` } });
  expect(response.status()).toBe(200);
  return response.json();
}

/** The findings /v1 lists for `filters` on the endpoints /v1 lists for `endpointFilters`, counted endpoint by endpoint. */
async function v1FindingsOnEndpoints(request: APIRequestContext, endpointFilters: string, filters: string): Promise<number> {
  let count = 0;
  for (let offset = 0; ; offset += 100) {
    const endpoints = await v1(request, `endpoints?${endpointFilters}&limit=100&offset=${offset}`);
    for (const endpoint of endpoints.data) count += (await v1(request, `vulnerability-findings?endpointId=${endpoint.id}&${filters}&limit=1`)).total;
    if (offset + 100 >= endpoints.total) return count;
  }
}

const findingsGrid = (page: Page) => page.getByRole('grid', { name: 'Vulnerability findings' });
/** The findings table's columns (1-based): KEV, CVSS and the status. */
/** The columns of the findings table: the KEV badge is under the severity. */
const column = { kev: 2, cvss: 3 };

/** A list of open findings has no status column: it would say "Open" on every row. */
async function noStatusColumn(grid: Locator): Promise<void> {
  await expect(grid.getByRole('columnheader', { name: 'Status' })).toHaveCount(0);
}

test('open critical KEV findings on Windows: the count /v1 gives, kept in the URL', async ({ page, request }) => {
  const expected = await v1FindingsOnEndpoints(request, 'osFamily=windows', 'status=open&severity=critical&isKev=true');
  expect(expected).toBeGreaterThan(0);
  await openConsole(page, '/orgs/demo/vulnerability-findings');
  const all = await listTotal(page);
  // Open is the view's default: the status control shows it already.
  await expect(page.getByLabel('Status')).toHaveValue('open');
  await page.getByLabel('OS family').selectOption('windows');
  await expect(page).toHaveURL(/osFamily=windows/);
  await page.getByLabel('Severity').selectOption('critical');
  await page.getByLabel('KEV').selectOption('true');
  await expect(page).toHaveURL(/\?osFamily=windows&severity=critical&isKev=true$/);
  await expect.poll(() => listTotal(page)).toBeLessThan(all);
  expect(await listTotal(page)).toBe(expected);
  await noStatusColumn(findingsGrid(page));

  // A bookmark of it opens the same list.
  await page.reload();
  await expect(page.getByLabel('OS family')).toHaveValue('windows');
  await expect(page.getByLabel('Status')).toHaveValue('open');
  expect(await listTotal(page)).toBe(expected);

  // Without an agent: fewer, as /v1 counts them.
  await page.getByLabel('Agent').selectOption('false');
  await expect(page).toHaveURL(/hasAgent=false/);
  await expect.poll(() => listTotal(page)).toBe(await v1FindingsOnEndpoints(request, 'osFamily=windows&hasAgent=false', 'status=open&severity=critical&isKev=true'));
});

test('targets on Linux endpoints: the count /v1 gives', async ({ page, request }) => {
  let expected = 0;
  for (let offset = 0; ; offset += 100) {
    const endpoints = await v1(request, `endpoints?osFamily=linux&limit=100&offset=${offset}`);
    for (const endpoint of endpoints.data) expected += (await v1(request, `remediation-targets?endpointId=${endpoint.id}&limit=1`)).total;
    if (offset + 100 >= endpoints.total) break;
  }
  await openConsole(page, '/orgs/demo/remediation-targets?osFamily=linux');
  await expect(page.getByLabel('OS family')).toHaveValue('linux');
  expect(await listTotal(page)).toBe(expected);
});

test('the findings view opens on open findings, KEV first then CVSS descending, and says so', async ({ page, request }) => {
  await openConsole(page, '/orgs/demo/vulnerability-findings');
  await expect(page.getByText('Open findings, riskiest first (KEV, then CVSS)')).toBeVisible();
  const grid = findingsGrid(page);
  await expect(grid.getByRole('columnheader', { name: 'KEV' })).toHaveAttribute('aria-sort', 'descending');
  expect(await listTotal(page)).toBe((await v1(request, 'vulnerability-findings?status=open&limit=1')).total);
  expect(new URL(page.url()).search).toBe('');

  // The first rows: open, KEV, CVSS descending.
  const kev = await columnTexts(grid, column.kev);
  expect(kev.length).toBeGreaterThan(5);
  for (const text of kev) expect(text).toContain('KEV');
  const scores = (await columnTexts(grid, column.cvss)).map((text) => (text === '—' ? -1 : Number(text)));
  expect(scores).toEqual([...scores].sort((a, b) => b - a));
  await noStatusColumn(grid);

  // Where the open KEV findings end, the others begin, from the highest CVSS again.
  const openKev = (await v1(request, 'vulnerability-findings?status=open&isKev=true&limit=1')).total;
  await grid.evaluate((element, row) => element.scrollTo(0, element.querySelector<HTMLElement>('.virtual-table__body [role=row]')!.offsetHeight * row), openKev - 3);
  const lastKev = grid.locator(`[aria-rowindex="${openKev + 1}"] [role=gridcell]:nth-child(${column.kev})`);
  const firstOther = grid.locator(`[aria-rowindex="${openKev + 2}"] [role=gridcell]:nth-child(${column.kev})`);
  await expect(lastKev).toContainText('KEV');
  await expect(firstOther).not.toContainText('KEV');

  // Every status and another order are a choice away; the summary goes with the default.
  await page.getByLabel('Status').selectOption('any');
  await expect(page).toHaveURL(/\?status=any$/);
  await expect(grid.getByRole('columnheader', { name: 'Status' })).toBeVisible();
  await expect.poll(() => listTotal(page)).toBe((await v1(request, 'vulnerability-findings?limit=1')).total);
  await expect(page.getByText('Open findings, riskiest first (KEV, then CVSS)')).toBeHidden();
  await grid.getByRole('columnheader', { name: 'CVE' }).click();
  await expect(page).toHaveURL(/status=any&sort=cve_id/);
  await page.getByLabel('Status').selectOption('open');
  await expect(page).toHaveURL(/\?sort=cve_id$/);
});
