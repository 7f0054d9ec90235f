import { columnTexts, expect, expectAccessible, listTotal, openConsole, screenshot, test } from './support/console-page.js';

const lists = [
  ['endpoints', 'Endpoints', 500, ''],
  ['remediation-targets', 'Remediation targets', 5000, ''],
  ['scopes', 'Scopes', 12, ''],
  // Every status: the findings view opens on the open ones (e2e/endpoint-filters.spec.ts).
  ['vulnerability-findings', 'Vulnerability findings', 20000, '?status=any'],
] as const;

for (const [path, title, total, query] of lists) {
  test(`the ${path} list loads with data`, async ({ page }) => {
    await openConsole(page, `/orgs/demo/${path}${query}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const grid = page.getByRole('grid', { name: title });
    await expect(grid.locator('[role=row][aria-rowindex="2"] [role=gridcell]').first()).not.toHaveText('Loading…');
    expect(await listTotal(page)).toBe(total);
    await screenshot(page, `list-${path}`);
    await expectAccessible(page);
  });
}

test('filters change the list and the URL, and the URL restores them', async ({ page }) => {
  await openConsole(page, '/orgs/demo/endpoints');
  const all = await listTotal(page);
  await page.getByLabel('OS family').selectOption('linux');
  await expect(page).toHaveURL(/osFamily=linux/);
  await expect.poll(() => listTotal(page)).toBeLessThan(all);
  const linux = await listTotal(page);
  // The OS column names the system; the demo's Linux endpoints run these three.
  const systems = await columnTexts(page.getByRole('grid', { name: 'Endpoints' }), 2);
  expect(systems.length).toBeGreaterThan(0);
  for (const system of systems) expect(system).toMatch(/^(Ubuntu|Debian GNU\/Linux|Red Hat Enterprise Linux) /);

  await page.getByLabel('Agent').selectOption('false');
  await expect(page).toHaveURL(/osFamily=linux&hasAgent=false/);
  await expect.poll(() => listTotal(page)).toBeLessThan(linux);

  await page.reload();
  await expect(page.getByLabel('OS family')).toHaveValue('linux');
  await expect(page.getByLabel('Agent')).toHaveValue('false');

  await page.getByLabel('Search').fill('no-such-host-anywhere');
  await expect(page).toHaveURL(/q=no-such-host-anywhere/);
  await expect(page.getByText('No endpoints match these filters.')).toBeVisible();
  await page.goBack();
  await expect(page.getByLabel('Search')).toHaveValue('');
});

test('sorting newest first reverses the order', async ({ page }) => {
  await openConsole(page, '/orgs/demo/scopes');
  const names = page.getByRole('grid', { name: 'Scopes' }).locator('[role=row] [role=gridcell]:first-child');
  await expect(names.first()).not.toHaveText('Loading…');
  const ascending = await names.allInnerTexts();
  await page.getByRole('button', { name: 'Created' }).click();
  await expect(page).toHaveURL(/sort=-created_at/);
  await expect(names.first()).toHaveText(ascending[ascending.length - 1]!);
});

test('scrolling loads further pages, and the position is kept in the URL', async ({ page }) => {
  await openConsole(page, '/orgs/demo/vulnerability-findings');
  const grid = page.getByRole('grid', { name: 'Vulnerability findings' });
  await expect(grid.locator('[aria-rowindex="2"] [role=gridcell]').first()).not.toHaveText('Loading…');
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/app/orgs/demo/vulnerability-findings?')) requests.push(request.url());
  });
  // Rows have the list's height (two lines for findings).
  await grid.evaluate((element) => element.scrollTo(0, element.querySelector<HTMLElement>('.virtual-table__body [role=row]')!.offsetHeight * 12_345));
  const row = grid.locator('[aria-rowindex="12350"] [role=gridcell]').first();
  await expect(row).toHaveText(/^CVE-/);
  expect(requests.some((url) => url.includes('offset=12300'))).toBe(true);
  await expect(page).toHaveURL(/offset=123\d\d/);

  await page.reload();
  await expect(grid.locator('[aria-rowindex="12350"] [role=gridcell]').first()).toHaveText(/^CVE-/);
});

test('the keyboard moves through rows and Enter opens one', async ({ page }) => {
  await openConsole(page, '/orgs/demo/endpoints');
  const grid = page.getByRole('grid', { name: 'Endpoints' });
  await expect(grid.locator('[aria-rowindex="2"] [role=gridcell]').first()).not.toHaveText('Loading…');
  await grid.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  const active = grid.locator('[role=row][aria-selected=true]');
  await expect(active).toHaveAttribute('aria-rowindex', '3');
  // The hostname cell may end with the endpoint's criticality badge, on a line of its own.
  const hostname = (await active.locator('[role=gridcell]').first().innerText()).split('\n')[0]!.trim();
  await expect(page).toHaveURL(/row=1/);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: hostname })).toBeVisible();
  await page.goBack();
  await expect(grid.locator('[role=row][aria-selected=true]')).toHaveAttribute('aria-rowindex', '3');
});

test('Back from a row opened by a click returns to that row, whatever was selected before', async ({ page }) => {
  await openConsole(page, '/orgs/demo/endpoints');
  const grid = page.getByRole('grid', { name: 'Endpoints' });
  await expect(grid.locator('[role=row][aria-rowindex="2"] [role=gridcell]').first()).not.toHaveText('Loading…');
  // A row selected earlier is in the URL; the click comes at once, before the table's debounced write.
  await grid.focus();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(page).toHaveURL(/row=2/);
  const clicked = grid.locator('[role=row][aria-rowindex="9"]');
  const hostname = (await clicked.locator('[role=gridcell]').first().innerText()).split('\n')[0]!.trim();
  await clicked.click();
  await expect(page.getByRole('heading', { level: 1, name: hostname })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/row=7/);
  await expect(grid.locator('[role=row][aria-selected=true]')).toHaveAttribute('aria-rowindex', '9');
});

test('CVSS scores have one decimal, always: 10.0 and 9.0 beside 9.8', async ({ page }) => {
  await openConsole(page, '/orgs/demo/vulnerability-findings?sort=-cvss_score');
  const grid = page.getByRole('grid', { name: 'Vulnerability findings' });
  await expect(grid.getByRole('columnheader', { name: /^CVSS/ })).toBeVisible();
  const headers = await grid.getByRole('columnheader').allInnerTexts();
  // The CVSS score, the first line of its cell (EPSS under it).
  const scores = (await columnTexts(grid, headers.findIndex((header) => header.startsWith('CVSS')) + 1)).map((text) => text.split('\n')[0]!);
  expect(scores[0]).toBe('10.0');
  for (const score of scores) expect(score).toMatch(/^\d{1,2}\.\d$/);
});
