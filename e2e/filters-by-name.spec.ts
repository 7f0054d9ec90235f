import { columnTexts, expect, expectAccessible, listTotal, openConsole, screenshot, test } from './support/console-page.js';

// The findings table's host and product columns (renderer/src/views/list-definitions.tsx).
/** The findings table's columns: the version follows the product in its column. */
const column = { host: 5, product: 6 };
const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

test('the findings are filtered by a host chosen by name; the URL carries its id, and brings the name back', async ({ page }) => {
  await openConsole(page, '/orgs/demo/vulnerability-findings');
  const grid = page.getByRole('grid', { name: 'Vulnerability findings' });
  const all = await listTotal(page);
  const host = (await columnTexts(grid, column.host)).find((text) => text !== '—')!;

  const field = page.getByRole('combobox', { name: 'Endpoint' });
  await expect(field).toHaveAttribute('aria-expanded', 'false');
  await field.click();
  await field.pressSequentially(host.slice(0, -1).toLowerCase());
  const suggestions = page.getByRole('listbox', { name: 'Endpoint suggestions' });
  const option = suggestions.getByRole('option').filter({ has: page.locator('.combobox__label').getByText(host, { exact: true }) });
  await expect(option).toBeVisible();
  await expect(field).toHaveAttribute('aria-expanded', 'true');
  await expect(field).toHaveAttribute('aria-controls', (await suggestions.getAttribute('id'))!);
  await screenshot(page, 'filter-endpoint-suggestions');
  await expectAccessible(page);

  await option.click();
  await expect(page).toHaveURL(new RegExp(`endpointId=${uuid}(&|$)`));
  await expect(field).toHaveValue(host);
  await expect(field).toHaveAttribute('aria-expanded', 'false');
  await expect.poll(() => listTotal(page)).toBeLessThan(all);
  expect(new Set(await columnTexts(grid, column.host))).toEqual(new Set([host]));

  // Opened from its URL, the filter names the host again.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Endpoint' })).toHaveValue(host);
  expect(new Set(await columnTexts(grid, column.host))).toEqual(new Set([host]));
  await screenshot(page, 'filter-endpoint-chosen');
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Clear endpoint' }).click();
  await expect(page).not.toHaveURL(/endpointId=/);
  await expect(page.getByRole('combobox', { name: 'Endpoint' })).toHaveValue('');
  await expect.poll(() => listTotal(page)).toBe(all);
});

test('a remediation target is chosen with the keyboard among the chosen endpoint\'s, told apart by product, version and endpoint', async ({ page }) => {
  await openConsole(page, '/orgs/demo/vulnerability-findings?status=open');
  const grid = page.getByRole('grid', { name: 'Vulnerability findings' });
  const firstRow = grid.locator('[role=row][aria-rowindex="2"]');
  await expect(firstRow.locator('[role=gridcell]').first()).toHaveText(/^CVE-/);
  const host = await firstRow.locator('[role=gridcell]').nth(column.host - 1).innerText();
  // The product, its version after it in smaller type.
  const place = firstRow.locator('[role=gridcell]').nth(column.product - 1);
  const version = await place.locator('.minor-text').innerText();
  const product = (await place.innerText()).replace(version, '').trim();
  expect(product).not.toBe('—');

  // The finding's host, chosen with the keyboard: ↓ marks the first suggestion, Enter chooses it.
  const endpoint = page.getByRole('combobox', { name: 'Endpoint' });
  await endpoint.focus();
  await page.keyboard.type(host!);
  const hostOption = page.getByRole('listbox', { name: 'Endpoint suggestions' }).getByRole('option').first();
  await expect(hostOption.locator('.combobox__label')).toHaveText(host!);
  await page.keyboard.press('ArrowDown');
  await expect(endpoint).toHaveAttribute('aria-activedescendant', (await hostOption.getAttribute('id'))!);
  await expect(hostOption).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`endpointId=${uuid}`));
  await expect(endpoint).toHaveValue(host!);

  // Its targets of the finding's product are suggested, each with its version and its endpoint.
  const field = page.getByRole('combobox', { name: 'Remediation target' });
  await field.focus();
  await page.keyboard.type(product!);
  const options = page.getByRole('listbox', { name: 'Remediation target suggestions' }).getByRole('option');
  await expect(options.first()).toContainText(product!);
  await expect(options.locator('.combobox__detail', { hasText: /^on … / })).toHaveCount(0);
  for (const detail of await options.locator('.combobox__detail').allInnerTexts()) expect(detail).toMatch(new RegExp(`^on ${host} · `));
  const labels = await options.locator('.combobox__label').allInnerTexts();
  const index = labels.findIndex((label) => label.includes(product!) && (version === '—' || label.endsWith(` ${version}`)));
  expect(index).toBeGreaterThanOrEqual(0);

  // Escape closes the suggestions, ↓ opens them again, then moves to the finding's target; Enter chooses it.
  await page.keyboard.press('Escape');
  await expect(field).toHaveAttribute('aria-expanded', 'false');
  await expect(field).not.toHaveAttribute('aria-activedescendant');
  await page.keyboard.press('ArrowDown');
  await expect(field).toHaveAttribute('aria-expanded', 'true');
  for (let step = 0; step <= index; step++) await page.keyboard.press('ArrowDown');
  await expect(options.nth(index)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`remediationTargetId=${uuid}(&|$)`));
  await expect(page).toHaveURL(/status=open/);
  await expect(field).toHaveValue(`${labels[index]} — ${host}`);
  for (const text of await columnTexts(grid, column.product)) expect(text.startsWith(`${product} `)).toBe(true);
  expect(new Set(await columnTexts(grid, column.host))).toEqual(new Set([host]));
  await screenshot(page, 'filter-target-chosen');

  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Remediation target' })).toHaveValue(`${labels[index]} — ${host}`);
  await expectAccessible(page);
});

test('the remediation targets are filtered by an endpoint chosen by name', async ({ page }) => {
  await openConsole(page, '/orgs/demo/remediation-targets');
  const all = await listTotal(page);
  const field = page.getByRole('combobox', { name: 'Endpoint' });
  await field.fill('srv-');
  const option = page.getByRole('listbox', { name: 'Endpoint suggestions' }).getByRole('option').first();
  await expect(option.locator('.combobox__label')).toHaveText(/srv-/i);
  const host = await option.locator('.combobox__label').innerText();
  await option.click();
  await expect(page).toHaveURL(new RegExp(`endpointId=${uuid}`));
  await expect(field).toHaveValue(host);
  await expect.poll(() => listTotal(page)).toBeLessThan(all);

  // The same targets as the endpoint's own page lists.
  const targets = await listTotal(page);
  await page.getByRole('link', { name: 'Endpoints' }).click();
  await page.getByLabel('Search').fill(host);
  // The hostname's cell may carry the endpoint's criticality after it (a badge).
  const hostCell = page.getByRole('gridcell', { name: new RegExp(`^${host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( |$)`) });
  await page.getByRole('grid', { name: 'Endpoints' }).locator('[role=row]', { has: hostCell }).click();
  await expect(page.getByRole('heading', { level: 1, name: host })).toBeVisible();
  const related = page.getByRole('grid', { name: 'Remediation targets on this endpoint' });
  await expect(related).toHaveAttribute('aria-rowcount', String(targets + 1));
});
