import { columnTexts, expect, expectAccessible, listTotal, openConsole, screenshot, test } from './support/console-page.js';

test('a finding links to its endpoint, its target and the CVE at NVD; they link back', async ({ page }) => {
  await openConsole(page, '/orgs/demo/vulnerability-findings?severity=critical');
  const grid = page.getByRole('grid', { name: 'Vulnerability findings' });
  const firstRow = grid.locator('[role=row][aria-rowindex="2"]');
  await expect(firstRow.locator('[role=gridcell]').first()).toHaveText(/^CVE-/);
  const cve = (await firstRow.locator('[role=gridcell]').first().innerText()).trim();
  // Where the finding is: its host, and its target's product with its version (the fifth and sixth columns).
  const [host, productVersion] = (await firstRow.locator('[role=gridcell]').allInnerTexts()).slice(4, 6);
  expect(host).not.toBe('—');
  const target = productVersion !== '—' ? productVersion!.replaceAll(/\s+/g, ' ') : 'Open remediation target';
  await firstRow.click();
  await expect(page).toHaveURL(/\/orgs\/demo\/vulnerability-findings\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(cve);
  const nvd = page.getByRole('link', { name: new RegExp(`${cve} at NVD`) });
  await expect(nvd).toHaveAttribute('href', `https://nvd.nist.gov/vuln/detail/${cve}`);
  await expect(nvd).toHaveAttribute('target', '_blank');
  await expect(nvd).toHaveAttribute('rel', /noopener/);
  await expect(page.getByRole('link', { name: host, exact: true })).toHaveAttribute('href', /\/endpoints\/[0-9a-f-]{36}$/);
  await screenshot(page, 'detail-finding');
  await expectAccessible(page);

  await page.getByRole('link', { name: target, exact: true }).click();
  await expect(page).toHaveURL(/\/remediation-targets\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Findings of this target' })).toBeVisible();
  const targetFindings = page.getByRole('grid', { name: 'Findings of this target' });
  await expect(targetFindings.locator('[role=row][aria-rowindex="2"] [role=gridcell]').first()).toHaveText(/^CVE-/);
  await screenshot(page, 'detail-target');
  await expectAccessible(page);

  // The target's endpoint, named by its hostname: the finding's.
  await page.getByRole('link', { name: host, exact: true }).click();
  await expect(page).toHaveURL(/\/endpoints\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: host })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Exposure of the endpoint' })).toContainText('Risk score');
  for (const name of ['Remediation targets on this endpoint', 'Findings on this endpoint']) {
    const grid = page.getByRole('grid', { name });
    await expect(grid.locator('[role=row][aria-rowindex="2"] [role=gridcell]').first()).not.toHaveText('Loading…');
  }
  expect(new Set(await columnTexts(page.getByRole('grid', { name: 'Findings on this endpoint' }), 5))).toEqual(new Set([host]));
  await screenshot(page, 'detail-endpoint');
  await expectAccessible(page);

  await page.getByRole('grid', { name: 'Findings on this endpoint' }).locator('[role=row][aria-rowindex="2"]').click();
  await expect(page).toHaveURL(/\/vulnerability-findings\/[0-9a-f-]{36}$/);
  await page.getByRole('link', { name: host, exact: true }).click();
  // The endpoint's findings as the findings view shows them, which it says; its list counts the same.
  const related = page.getByRole('region', { name: 'Findings on this endpoint' });
  await expect(related.getByText('Open findings, riskiest first (KEV, then CVSS); other statuses in the list.')).toBeVisible();
  const relatedStatus = related.locator('.virtual-table__status');
  await expect(relatedStatus).toContainText('row');
  const relatedCount = Number((await relatedStatus.innerText()).split(' ')[0]!.replaceAll(/[^\d]/g, ''));
  await page.getByRole('link', { name: 'Open as a list with filters' }).last().click();
  await expect(page).toHaveURL(/\/vulnerability-findings\?endpointId=[0-9a-f-]{36}$/);
  expect(await listTotal(page)).toBe(relatedCount);
  // The filter names the endpoint by its hostname; the URL keeps its id.
  await expect(page.getByRole('combobox', { name: 'Endpoint' })).toHaveValue(host!);
});

test('an unknown id says so, with a way back', async ({ page, problems }) => {
  await openConsole(page, '/orgs/demo/endpoints/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('alert')).toContainText('not found');
  await expect(page.getByRole('link', { name: '← Endpoints' })).toBeVisible();
  problems.length = 0;
});
