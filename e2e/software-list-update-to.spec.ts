import { expect, expectAccessible, openConsole, screenshot, server, test } from './support/console-page.js';

/** /app as the console calls it, with the session's token. */
async function app(path: string): Promise<any> {
  const response = await fetch(`${server.baseUrl}/app${path}`, { headers: { 'x-console-script-token': server.scriptToken } });
  expect(response.status).toBe(200);
  return response.json();
}

test('the software list says for each product which version to update to, a link to it, or that none seen is clean', async ({ page }) => {
  // The demo's riskiest products, as the list's first page gives them.
  const { data: products } = await app('/orgs/demo/software?limit=100');
  const clean = products.find((p: any) => p.product === 'Chrome');
  expect(clean?.update_to.verdict, 'Google Chrome: its newest version seen is clean').toBe('update_to');
  const notClean = products.find((p: any) => p.update_to.verdict === 'none_clean');
  expect(notClean, 'a demo product with no clean version').toBeDefined();

  await openConsole(page, '/orgs/demo/software');
  const grid = page.getByRole('grid', { name: 'Software' });
  await expect(grid.getByRole('columnheader', { name: 'Update to' })).toHaveAttribute('title', /newest version seen in the fleet/);
  const rowOf = (product: string) => grid.getByRole('row').filter({ has: page.getByRole('gridcell', { name: product, exact: true }) });

  // No clean version: said so, the sentence its tooltip.
  const warned = rowOf(notClean.product).getByText('None clean', { exact: true });
  await expect(warned).toBeVisible();
  await expect(warned).toHaveAttribute('title', notClean.update_to.sentence);
  await expect(warned).toHaveAttribute('title', /^No version seen in the fleet is clean: the newest, /);
  await screenshot(page, 'software-list-update-to');
  await expectAccessible(page);

  // A clean one: its version, a link to its installs (the row itself would open the product).
  await page.getByLabel('Search').fill('chrome');
  await expect(page).toHaveURL(/q=chrome/);
  const link = rowOf('Chrome').getByRole('link', { name: clean.update_to.version, exact: true });
  await expect(link).toHaveText(/^\d+\.\d+\.\d+\.\d+$/);
  await expect(link).toHaveAttribute('title', clean.update_to.sentence);
  await expect(link).toHaveAttribute('title', /^Update to \S+ \(run by \d+ endpoints?, no open critical or KEV finding\)\.$/);
  // At 1,280 pixels a Chrome build fits its cell whole (a longer version is cut short, whole in the tooltip).
  expect(await link.locator('xpath=ancestor::*[@role="gridcell"][1]').evaluate((cell) => cell.scrollWidth <= cell.clientWidth)).toBe(true);
  // Nothing to compare (ChromeOS: every target of it resolved): a dash, the sentence its tooltip.
  const none = products.find((p: any) => p.product === 'ChromeOS');
  expect(none?.update_to.verdict).toBe('no_version');
  await expect(rowOf('ChromeOS').getByTitle(none.update_to.sentence)).toHaveText('—');
  await screenshot(page, 'software-list-update-to-chrome');
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/orgs/demo/software/${clean.id}/versions/${clean.update_to.version_id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(clean.update_to.version);
});
