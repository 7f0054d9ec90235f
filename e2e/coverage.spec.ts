import { expect, expectAccessible, openConsole, screenshot, server, test } from './support/console-page.js';

test('a scope shows its filters and the findings it covers', async ({ page }) => {
  await openConsole(page, '/orgs/demo/scopes?status=active');
  await page.getByRole('grid', { name: 'Scopes' }).locator('[role=row][aria-rowindex="2"]').click();
  await expect(page).toHaveURL(/\/scopes\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Coverage' })).toBeVisible();
  const figures = page.getByRole('list', { name: 'Counts' });
  await expect(figures).toContainText('Covered findings');
  const covered = Number((await figures.locator('.figure__value').first().innerText()).replaceAll(',', ''));
  if (covered > 0) {
    const grid = page.getByRole('grid', { name: 'Covered findings' });
    await expect(grid.locator('[role=row][aria-rowindex="2"] [role=gridcell]').first()).toHaveText(/^CVE-/);
    // The status is the seventh column, after the finding's host, product and version; filtered to one status, it goes.
    await expect(grid.locator('[role=row][aria-rowindex="2"] [role=gridcell]').nth(6)).toHaveText(/^(open|remediated)$/i);
    await page.getByLabel('Status').selectOption('open');
    await expect(page).toHaveURL(/status=open/);
    await expect(grid.getByRole('columnheader', { name: 'Status' })).toHaveCount(0);
  } else {
    await expect(page.getByText('This scope covers no findings.')).toBeVisible();
  }
  await screenshot(page, 'scope-coverage');
  await expectAccessible(page);
});

test('a scope with endpoint tags is evaluated against the endpoints\' tags', async ({ page }) => {
  // The demo's endpoints carry tags (set and by rules): a scope's tags are matched, never left out.
  await openConsole(page, '/orgs/demo/scopes');
  const grid = page.getByRole('grid', { name: 'Scopes' });
  await expect(grid.locator('[role=row][aria-rowindex="2"] [role=gridcell]').first()).not.toHaveText('Loading…');
  const count = await grid.locator('[role=row][aria-rowindex]:not([aria-rowindex="1"])').count();
  for (let index = 0; index < count; index++) {
    await grid.locator(`[role=row][aria-rowindex="${index + 2}"]`).click();
    const tags = page.getByText('Endpoint tags').locator('xpath=following-sibling::dd');
    await expect(tags).toBeVisible();
    if ((await tags.innerText()) !== '—') {
      await expect(page.getByRole('list', { name: 'Counts' })).toContainText('Covered findings');
      await expect(page.getByRole('note').filter({ hasText: 'endpoint_filter.tags' })).toHaveCount(0);
      await screenshot(page, 'scope-coverage-tags');
      return;
    }
    await page.goBack();
  }
  throw new Error('No demo scope has endpoint tags, though the demo scopes use every filter field');
});

test('coverage gaps lists open critical, high or KEV findings no active scope covers', async ({ page }) => {
  await openConsole(page, '/orgs/demo/coverage-gaps');
  await expect(page.getByRole('heading', { level: 1, name: 'Coverage gaps' })).toBeVisible();
  await expect(page.getByText(/such findings are not covered by any of the \d+ active scopes/)).toBeVisible();
  // The demo's endpoints carry tags: no scope's tag criterion is left out of the gaps.
  await expect(page.getByRole('note').getByRole('listitem').filter({ hasText: 'endpoint_filter.tags' })).toHaveCount(0);
  const uncovered = Number((await page.getByRole('list', { name: 'Counts' }).locator('.figure__value').first().innerText()).replaceAll(',', ''));
  if (uncovered > 0) {
    const grid = page.getByRole('grid', { name: 'Uncovered findings' });
    const first = grid.locator('[role=row][aria-rowindex="2"]');
    await expect(first.locator('[role=gridcell]').first()).toHaveText(/^CVE-/);
    // Gaps are open findings: no status column says so on every row.
    await expect(grid.getByRole('columnheader', { name: 'Status' })).toHaveCount(0);
    await expect(grid.getByRole('columnheader', { name: 'Host' })).toBeVisible();
    await expect(first).toContainText(/critical|high|KEV/);
  }
  await screenshot(page, 'coverage-gaps');
  await expectAccessible(page);
});

test("a scope's endpoints are named by hostname, each a link to its page", async ({ page, request }) => {
  const headers = { 'x-console-script-token': server.scriptToken };
  type Scopes = { data: { id: string; endpoint_filter: { endpoint_ids?: string[] } }[] };
  const scopes = (await (await request.get(`${server.baseUrl}/app/orgs/demo/scopes?limit=100`, { headers })).json()) as Scopes;
  const scope = scopes.data.find((each) => each.endpoint_filter.endpoint_ids?.length);
  if (!scope) throw new Error('No demo scope names endpoints by id, though the demo scopes use every filter field');
  const ids = scope.endpoint_filter.endpoint_ids!;
  await openConsole(page, `/orgs/demo/scopes/${scope.id}`);
  const endpoints = page.getByRole('list', { name: 'Endpoints of the filter' }).getByRole('link');
  await expect(endpoints).toHaveCount(Math.min(ids.length, 25));
  await expect(endpoints.first()).not.toHaveText('Open endpoint');
  const first = await endpoints.first().innerText();
  expect(first).not.toMatch(/^[0-9a-f-]{36}$/);
  await expect(endpoints.first()).toHaveAttribute('href', `/orgs/demo/endpoints/${ids[0]}`);
  await endpoints.first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(first);
});
