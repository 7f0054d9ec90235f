import { expect, expectAccessible, openConsole, screenshot, server, test } from './support/console-page.js';

/** /app as the console calls it, with the session's token. */
async function app(path: string): Promise<any> {
  const response = await fetch(`${server.baseUrl}/app${path}`, { headers: { 'x-console-script-token': server.scriptToken } });
  expect(response.status).toBe(200);
  return response.json();
}

test('a product says which version to update to, and a finding of it says so beside its solution', async ({ page }) => {
  // Google Chrome in the demo: its newest version seen, 141.0.7390.122, fixes every catalogued Chrome CVE.
  await openConsole(page, '/orgs/demo/software?q=chrome');
  const grid = page.getByRole('grid', { name: 'Software' });
  await grid.getByRole('gridcell', { name: 'Chrome', exact: true }).click();
  await expect(page).toHaveURL(/\/orgs\/demo\/software\/[A-Za-z0-9_-]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Google Chrome');
  const productId = decodeURIComponent(page.url().split('/').at(-1)!);
  const { update_to: update } = await app(`/orgs/demo/software/${productId}`);

  const line = page.getByTestId('update-to');
  await expect(line).toContainText(/^Update to \d+\.\d+\.\d+\.\d+ \(run by \d+ endpoints?, no open critical or KEV finding\)\./);
  await expect(line.locator('.update-to__sentence')).toHaveText(update.sentence);
  const count = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;
  await expect(line.locator('.update-to__figures')).toHaveText(
    `${count(update.installs, 'install')} on ${count(update.endpoints, 'endpoint')} · ${count(update.open_findings, 'open finding')}`,
  );
  // Compared as versions: no version the table shows is newer, though some are longer as text.
  const versions = page.getByRole('grid', { name: 'Versions' });
  await expect(versions.getByRole('gridcell', { name: update.version, exact: true })).toBeVisible();
  await screenshot(page, 'software-update-to');
  await expectAccessible(page);

  // Its installs: the version's page.
  await line.getByRole('link', { name: 'Its installs' }).click();
  await expect(page).toHaveURL(/\/versions\/[A-Za-z0-9_-]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(update.version);

  // A finding of Chrome (the CVE's findings on Edge name Edge's product): the advisory's fixed version in its solution, the fleet's newest beside it.
  const v1 = async (path: string) => (await fetch(`${server.baseUrl}/v1/${path}`, { headers: { Authorization: `Bearer ${server.demoApiKey}` } })).json();
  let finding: { id: string } | undefined;
  for (const candidate of (await v1('vulnerability-findings?cveId=CVE-2024-4947&limit=100')).data) {
    if ((await v1(`remediation-targets/${candidate.remediation_target_id}`)).product === 'Chrome') {
      finding = candidate;
      break;
    }
  }
  expect(finding, 'a demo finding of CVE-2024-4947 on Chrome').toBeDefined();
  await page.goto(`${server.baseUrl}/orgs/demo/vulnerability-findings/${finding!.id}`);
  await expect(page.getByText('Update Google Chrome to 125.0.6422.76 or later', { exact: false })).toBeVisible();
  const beside = page.getByTestId('update-to');
  await expect(beside.locator('.update-to__sentence')).toHaveText(update.sentence);
  await expect(page.getByRole('link', { name: 'Google Chrome in the software view' })).toHaveAttribute('href', `/orgs/demo/software/${productId}`);
  await screenshot(page, 'finding-update-to');
  await expectAccessible(page);
});

test('a product whose newest version has open critical or KEV findings says no version seen is clean', async ({ page }) => {
  // Products of the demo until one whose newest version is not clean (the answer of the product's page).
  const { data: products } = await app('/orgs/demo/software?limit=100');
  let found: { id: string; sentence: string } | undefined;
  for (const product of products) {
    const { update_to: update } = await app(`/orgs/demo/software/${product.id}`);
    if (update.verdict === 'none_clean') {
      found = { id: product.id, sentence: update.sentence };
      break;
    }
  }
  expect(found, 'a demo product with no clean version').toBeDefined();
  await openConsole(page, `/orgs/demo/software/${encodeURIComponent(found!.id)}`);
  const line = page.getByTestId('update-to');
  await expect(line.locator('.update-to__sentence')).toHaveText(found!.sentence);
  await expect(line).toContainText(/^No version seen in the fleet is clean: the newest, .+ \(run by \d+ endpoints?\), has \d+ open (critical|KEV) findings?/);
  await screenshot(page, 'software-none-clean');
});
