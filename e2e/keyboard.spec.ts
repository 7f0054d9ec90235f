import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, openConsole, screenshot, test } from './support/console-page.js';

const selected = (grid: Locator) => grid.locator('[role=row][aria-selected=true]');

/** Whether the selected row of a grid is wholly in sight: below its sticky header, above its bottom edge. */
async function expectSelectionInSight(grid: Locator) {
  const row = (await selected(grid).boundingBox())!;
  const box = (await grid.boundingBox())!;
  const head = (await grid.locator('.virtual-table__head').boundingBox())!;
  expect(row.y).toBeGreaterThanOrEqual(head.y + head.height - 1);
  expect(row.y + row.height).toBeLessThanOrEqual(box.y + box.height + 1);
}

async function loaded(grid: Locator) {
  await expect(grid.locator('[role=row][aria-rowindex="2"] [role=gridcell]').first()).not.toHaveText('Loading…');
}

const path = (page: Page) => new URL(page.url()).pathname + new URL(page.url()).search;

test('keyboard only: / searches, ↓ goes to the rows, j, k and the arrows move, Enter opens, Escape comes back', async ({ page }) => {
  await openConsole(page, '/orgs/demo/endpoints');
  const grid = page.getByRole('grid', { name: 'Endpoints' });
  await loaded(grid);
  const search = page.getByRole('searchbox', { name: 'Search' });
  await expect(search).toHaveAttribute('aria-keyshortcuts', '/');

  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  await page.keyboard.type('wks');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/q=wks/);
  await loaded(grid);
  await page.keyboard.press('ArrowDown');
  await expect(grid).toBeFocused();

  // j and k move as ↓ and ↑ do.
  await page.keyboard.press('j');
  await expect(selected(grid)).toHaveAttribute('aria-rowindex', '2');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await expect(selected(grid)).toHaveAttribute('aria-rowindex', '3');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(selected(grid)).toHaveAttribute('aria-rowindex', '2');
  await expect(page.locator('.virtual-table__status')).toContainText('row 1 selected');

  // Past the bottom edge and back, the selected row stays in sight.
  for (let step = 0; step < 30; step++) await page.keyboard.press('j');
  await expect(selected(grid)).toHaveAttribute('aria-rowindex', '32');
  await expectSelectionInSight(grid);
  await screenshot(page, 'keyboard-selection');
  for (let step = 0; step < 25; step++) await page.keyboard.press('k');
  await expect(selected(grid)).toHaveAttribute('aria-rowindex', '7');
  await expectSelectionInSight(grid);
  await expectAccessible(page);

  // Enter opens the selected row; Escape goes back to the list as it was.
  await expect(page).toHaveURL(/row=5/);
  const list = path(page);
  // The hostname, without its criticality and the IP address under it.
  const hostname = await selected(grid).locator('.hostname-cell__name').innerText();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: hostname })).toBeVisible();
  // On a detail page `/` finds no search box, and Escape leaves it.
  await page.keyboard.press('/');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { level: 1, name: 'Endpoints' })).toBeVisible();
  expect(path(page)).toBe(list);
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('wks');
  await expect(selected(grid)).toHaveAttribute('aria-rowindex', '7');
});

test('/ and j are typed into fields, not taken as shortcuts', async ({ page }) => {
  await openConsole(page, '/orgs/demo/vulnerability-findings');
  const grid = page.getByRole('grid', { name: 'Vulnerability findings' });
  await loaded(grid);
  const cve = page.getByRole('searchbox', { name: 'CVE' });
  await cve.focus();
  await page.keyboard.type('j/k');
  await expect(cve).toHaveValue('j/k');
  await expect(page.getByRole('searchbox', { name: 'Search' })).not.toBeFocused();
  await expect(selected(grid)).toHaveCount(0);
});

test('Escape goes back to the table an item was opened from: a detail page\'s related list, the coverage gaps; else to its list', async ({ page }) => {
  await openConsole(page, '/orgs/demo/endpoints');
  const endpoints = page.getByRole('grid', { name: 'Endpoints' });
  await loaded(endpoints);
  await endpoints.focus();
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/endpoints\/[0-9a-f-]{36}$/);
  const endpoint = path(page);

  // A detail page's related list takes the same keys.
  const findings = page.getByRole('grid', { name: 'Findings on this endpoint' });
  await loaded(findings);
  await findings.focus();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(selected(findings)).toHaveAttribute('aria-rowindex', '3');
  const cve = await selected(findings).locator('[role=gridcell]').first().innerText();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(cve);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { level: 2, name: 'Findings on this endpoint' })).toBeVisible();
  expect(path(page)).toBe(endpoint);
  // And from the endpoint to the list it was opened from.
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/orgs\/demo\/endpoints(\?row=0)?$/);

  // The coverage gaps.
  await openConsole(page, '/orgs/demo/coverage-gaps');
  const gaps = page.getByRole('grid', { name: 'Uncovered findings' });
  await loaded(gaps);
  await gaps.focus();
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/vulnerability-findings\/[0-9a-f-]{36}$/);
  // The finding's page shown, as an analyst sees it before pressing a key: its Escape is the
  // page's own, taken once the page is there.
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/CVE-\d{4}-\d+/);
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/coverage-gaps/);

  // A detail page opened by its URL goes to its collection's list.
  await openConsole(page, endpoint);
  await expect(page.getByRole('heading', { level: 2, name: 'Findings on this endpoint' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/orgs\/demo\/endpoints$/);
});

test('/ reaches the search from a sortable column header too, whose own keys stay its own', async ({ page }) => {
  await openConsole(page, '/orgs/demo/endpoints');
  const grid = page.getByRole('grid', { name: 'Endpoints' });
  await loaded(grid);
  await grid.getByRole('button', { name: 'Hostname' }).focus();
  await page.keyboard.press('j');
  await expect(grid.locator('[aria-selected=true]')).toHaveCount(0);
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Search' })).toBeFocused();
});

test('j and the arrows move the rows of a page just opened, before anything has the focus', async ({ page }) => {
  await openConsole(page, '/orgs/demo/remediation-targets');
  const grid = page.getByRole('grid', { name: 'Remediation targets' });
  await loaded(grid);
  await expect(grid).not.toBeFocused();
  await page.keyboard.press('j');
  await expect(grid).toBeFocused();
  await expect(selected(grid)).toHaveAttribute('aria-rowindex', '2');
  await page.keyboard.press('ArrowDown');
  await expect(selected(grid)).toHaveAttribute('aria-rowindex', '3');
});

test('↓ pressed before a search has answered still leaves the focus on the rows, once the new rows show', async ({ page }) => {
  await openConsole(page, '/orgs/demo/endpoints');
  const grid = page.getByRole('grid', { name: 'Endpoints' });
  await loaded(grid);
  // The search's rows come late: ↓ reaches the table of the old search, which the new one replaces.
  let answered = false;
  await page.route(/\/app\/orgs\/demo\/endpoints\?.*q=wks/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    answered = true;
    await route.continue();
  });
  await page.keyboard.press('/');
  await page.keyboard.type('wks');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowDown');
  expect(answered).toBe(false);
  await expect(page).toHaveURL(/q=wks/);
  await loaded(grid);
  await expect(grid).toBeFocused();
  await page.keyboard.press('j');
  await expect(selected(grid)).toHaveAttribute('aria-rowindex', '2');
});

test('Escape pressed right after Enter opened a row, before the item\'s page is shown, comes back to the list', async ({ page }) => {
  await openConsole(page, '/orgs/demo/endpoints');
  const grid = page.getByRole('grid', { name: 'Endpoints' });
  await loaded(grid);
  const visited: string[] = [];
  page.on('framenavigated', (frame) => void (frame === page.mainFrame() && visited.push(new URL(frame.url()).pathname)));
  // A slow laptop: the item's page takes a while to render, and the keys come meanwhile.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 10 });
  for (let row = 1; row <= 2; row++) {
    await grid.focus();
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(new RegExp(`/orgs/demo/endpoints\\?row=${row - 1}$`));
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await loaded(grid);
  // Each Enter did open its item: the Escape came back from it.
  expect(visited.filter((visitedPath) => /\/endpoints\/[0-9a-f-]{36}$/.test(visitedPath))).toHaveLength(2);
});
