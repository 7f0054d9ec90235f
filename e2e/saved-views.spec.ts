import { expect, expectAccessible, listTotal, openConsole, screenshot, test } from './support/console-page.js';

// On the second organization: a saved view changes no figure, but other specs read the demo's sidebar and views.
test('a filtered findings view is saved, kept across a reload, opened, renamed and deleted', async ({ page }) => {
  await openConsole(page, '/orgs/second/vulnerability-findings');
  const open = await listTotal(page);
  await page.getByRole('search').getByLabel('Severity').selectOption('critical');
  await expect(page).toHaveURL(/severity=critical/);
  await expect.poll(() => listTotal(page)).toBeLessThan(open);
  const critical = await listTotal(page);

  await page.getByRole('button', { name: 'Save view' }).click();
  const form = page.getByRole('form', { name: 'Save view' });
  await form.getByLabel('View name').fill('Critical, open');
  await screenshot(page, 'saved-view-save');
  await expectAccessible(page);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved as “Critical, open”.')).toBeVisible();

  // Kept by the server: a reload of the saved views lists it.
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Saved views' }).click();
  await page.reload();
  const row = page.getByRole('row', { name: /Critical, open/ });
  await expect(row).toContainText('Vulnerability findings');
  await expect(row).toContainText('severity: critical');
  await screenshot(page, 'saved-views');
  await expectAccessible(page);

  // Opened: the list with its filters, the same count.
  await row.getByRole('link', { name: 'Critical, open' }).click();
  await expect(page).toHaveURL(/\/orgs\/second\/vulnerability-findings\?severity=critical$/);
  await expect(page.getByRole('search').getByLabel('Severity')).toHaveValue('critical');
  await expect.poll(() => listTotal(page)).toBe(critical);

  await page.goBack();
  await page.getByRole('button', { name: /^Rename\s*Critical, open$/ }).click();
  const rename = page.getByRole('form', { name: 'Rename Critical, open' });
  await rename.getByLabel('New name of Critical, open').fill('Open critical findings');
  await rename.getByRole('button', { name: 'Save name' }).click();
  const renamed = page.getByRole('row', { name: /Open critical findings/ });
  await expect(renamed).toBeVisible();
  await page.reload();
  await expect(renamed).toContainText('severity: critical');

  await renamed.getByRole('button', { name: /^Delete/ }).click();
  await page.getByRole('button', { name: 'Confirm delete Open critical findings' }).click();
  await expect(page.getByRole('row', { name: /Open critical findings/ })).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('This organization has no saved views yet.')).toBeVisible();
});
