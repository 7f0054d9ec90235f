import { demoAgentSettings } from '../contracts/console/agent-settings.js';
import { codeRequirement, download, payloadsOf } from './support/agent-config-file.js';
import { expect, expectAccessible, listTotal, openConsole, screenshot, server, test } from './support/console-page.js';

test('the organization switcher opens the same view for another organization', async ({ page }) => {
  await openConsole(page, '/orgs/demo/endpoints?osFamily=linux');
  const switcher = page.getByLabel('Organization');
  await expect(switcher.locator('option')).toHaveText([/^Demo/i, /^Second$/]);
  const demoRow = await page.getByRole('grid', { name: 'Endpoints' }).locator('[aria-rowindex="2"] [role=gridcell]').first().innerText();
  await switcher.selectOption('second');
  await expect(page).toHaveURL(/\/orgs\/second\/endpoints$/);
  expect(await listTotal(page)).toBe(500);
  const secondRow = page.getByRole('grid', { name: 'Endpoints' }).locator('[aria-rowindex="2"] [role=gridcell]').first();
  await expect(secondRow).not.toHaveText('Loading…');
  expect(await secondRow.innerText()).not.toBe(demoRow);
  await expect(page.getByText('Demo', { exact: true })).toHaveCount(0);
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/orgs\/second$/);
});

test('API keys: create (shown once, with a curl example), list, revoke', async ({ page, request }) => {
  await openConsole(page, '/orgs/second/api-keys');
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(page.getByText(`${server.baseUrl}/v1`).first()).toBeVisible();
  await page.getByLabel('Label').fill('e2e script');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-api-key').innerText()).trim();
  expect(key).toMatch(/^rc_/);
  await expect(page.locator('.code-block')).toContainText(`curl -H "Authorization: Bearer ${key}" "${server.baseUrl}/v1/endpoints?limit=10"`);
  await expect(page.getByRole('button', { name: 'Copy key' })).toBeVisible();
  const row = page.getByRole('row', { name: /e2e script/ });
  await expect(row).toContainText(`rc_…${key.slice(-4)}`);
  await expect(row).toContainText('Active');
  await screenshot(page, 'api-keys');
  await expectAccessible(page);

  const works = await request.get(`${server.baseUrl}/v1/endpoints?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
  expect(works.status()).toBe(200);

  await row.getByRole('button', { name: /Revoke/ }).click();
  await row.getByRole('button', { name: /Confirm revoke/ }).click();
  await expect(row).toContainText('Revoked');
  const refused = await request.get(`${server.baseUrl}/v1/endpoints?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);
  await page.reload();
  await expect(page.getByTestId('new-api-key')).toHaveCount(0);
});

test("agent configuration: a signed file downloads for the demo organization, with the demo's settings", async ({ page }) => {
  await openConsole(page, '/orgs/demo/agent-config');
  await expect(page.getByRole('heading', { level: 1, name: 'Agent configuration' })).toBeVisible();
  await page.getByLabel('Platform').selectOption('windows');
  await expect(page.getByLabel('Profile').locator('option')).toHaveCount(1);
  await page.getByLabel('Platform').selectOption('macos');
  await page.getByLabel('Profile').selectOption('mdm-permissions');
  const file = await download(page);
  expect(file.name).toMatch(/\.mobileconfig$/);
  await expect(page.getByRole('status')).toContainText('Downloaded');
  // The demo's fictitious but well-formed Team ID, pinned by the full disk access grant.
  expect(codeRequirement(payloadsOf(file.bytes))).toContain(`certificate leaf[subject.OU] = "${demoAgentSettings.teamId}"`);
  await screenshot(page, 'agent-config');
  await expectAccessible(page);
});
