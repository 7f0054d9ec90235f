import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { demoKevCatalog } from '../server/demo/threat-intel.js';
import { intelChangePlacesListed } from '../contracts/console/threat-intel-changes.js';
import { sharedKevDir } from '../server/test/support/epss-files.js';
import { expect, expectAccessible, openConsole, screenshot, server, test } from './support/console-page.js';

/*
 * The Threat intelligence view in Chromium: the demo's generated files listed, where real files
 * come from with FIRST's attribution line, files imported through the page's file chooser (an
 * older CISA catalog kept as history, a gzip EPSS file), a refused file answered with the
 * server's sentence, the KEV comparison's counts linking to the findings they count, and a
 * newer catalog's new entry in the organization's changes with its endpoints.
 */
test('imports files picked in the page, lists them, says where files come from with FIRST’s attribution', async ({ page, problems }) => {
  await openConsole(page, '/orgs/demo/threat-intelligence');
  await expect(page.getByRole('heading', { level: 1, name: 'Threat intelligence' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Threat intelligence' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('See EPSS at https://www.first.org/epss')).toBeVisible();
  await expect(page.getByRole('link', { name: 'https://www.first.org/epss' })).toHaveAttribute('href', 'https://www.first.org/epss');
  // The demo's generated files, imported at its first start.
  const imports = page.getByRole('table', { name: 'Imports of intelligence files' });
  await expect(imports.getByRole('row').filter({ hasText: 'EPSS scores (FIRST)' }).filter({ hasText: 'demo' }).first()).toBeVisible();

  const chooser = page.getByLabel('choose files');
  const kev = fs.readFileSync(path.join(sharedKevDir, 'known_exploited_vulnerabilities.json'));
  const epss = zlib.gzipSync('#model_version:v2026.06.15,score_date:2024-01-02T00:00:00Z\ncve,epss,percentile\nCVE-2021-44228,0.94358,0.99957\nCVE-1999-0001,5e-05,0.00012\n');
  await chooser.setInputFiles([
    { name: 'known_exploited_vulnerabilities.json', mimeType: 'application/json', buffer: kev },
    { name: 'epss_scores-2024-01-02.csv.gz', mimeType: 'application/gzip', buffer: epss },
  ]);
  const outcomes = page.getByRole('list', { name: 'Imported files' });
  // Older than the demo's catalog and scores (dated the day the demo started): kept as history. A second run finds them imported before.
  await expect(outcomes.getByRole('listitem').filter({ hasText: 'known_exploited_vulnerabilities.json' })).toContainText(
    /KEV catalog \(CISA\) of .*, catalog 2025\.08\.25, 1,404 entries: (imported as history|imported before)/,
  );
  await expect(outcomes.getByRole('listitem').filter({ hasText: 'epss_scores-2024-01-02.csv.gz' })).toContainText(/EPSS scores \(FIRST\) of .*, model v2026\.06\.15, 2 scores: (imported as history|imported before)/);
  await expect(imports.getByRole('row').filter({ hasText: '2025.08.25' }).first()).toContainText('History');
  await expect(imports.getByRole('row').filter({ hasText: 'v2026.06.15' }).first()).toContainText('History');

  await chooser.setInputFiles({ name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from('#model_version:v1,score_date:2026-01-01T00:00:00Z\ncve,epss,percentile\nCVE-2021-44228,1.5,0.9\n') });
  await expect(outcomes.getByRole('alert')).toContainText('Nothing was imported: ');
  await expect(outcomes.getByRole('alert')).toContainText('Line 3 of the EPSS file: epss "1.5" is not a number from 0 to 1');
  expect(problems).toEqual([expect.stringContaining('status of 400')]);
  problems.length = 0;

  // The KEV comparison: each count links to the findings list filtered to what it counts.
  const comparison = page.locator('.intel-agreement');
  await expect(comparison).toContainText('The remote flags');
  await expectAccessible(page);
  await screenshot(page, 'threat-intelligence-view');
  await comparison.getByRole('link').first().click();
  await expect(page).toHaveURL(/vulnerability-findings\?kevNotListed=true/);
  await expect(page.getByLabel('Remote flag only, in no catalog')).toBeChecked();
});

test('a newer KEV catalog listing a CVE of the demo’s open findings shows it in the organization’s changes, with its endpoints', async ({ page, request }) => {
  const headers = { 'x-console-script-token': server.scriptToken };
  const open = await request.get(`${server.baseUrl}/app/orgs/demo/vulnerability-findings?status=open&isKev=false&limit=1`, { headers });
  const cveId = ((await open.json()) as { data: { cve_id: string }[] }).data[0]!.cve_id;
  // The demo's catalog of today (demo/threat-intel.ts), released a day later with one more entry: that CVE.
  const catalog = JSON.parse(demoKevCatalog(Date.now())) as { dateReleased: string; count: number; vulnerabilities: { cveID: string }[] };
  const listed = catalog.vulnerabilities.some((entry) => entry.cveID === cveId);
  expect(listed, `${cveId} is not in the demo's catalog yet`).toBe(false);
  const next = {
    ...catalog,
    catalogVersion: 'demo-next',
    dateReleased: new Date(Date.parse(catalog.dateReleased) + 86_400_000).toISOString(),
    count: catalog.count + 1,
    vulnerabilities: [...catalog.vulnerabilities, { ...catalog.vulnerabilities[0]!, cveID: cveId }],
  };
  await openConsole(page, '/orgs/demo/threat-intelligence');
  await page.getByLabel('choose files').setInputFiles({ name: 'kev-next.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(next)) });
  await expect(page.getByRole('list', { name: 'Imported files' })).toContainText(/catalog demo-next, .* entries: (imported, now current|imported before)/);
  const change = page.getByRole('list', { name: 'Import changes' }).getByRole('listitem').filter({ hasText: 'demo-next' });
  await expect(change).toContainText('Newly listed in KEV: 1 CVE of open findings.');
  const row = change.getByRole('row').filter({ hasText: cveId });
  // Its endpoints, as the findings list names them: the first by hostname, then "and N more" past the change's bound.
  const findings = await request.get(`${server.baseUrl}/app/orgs/demo/vulnerability-findings?status=open&cveId=${cveId}&limit=100`, { headers });
  const found = (await findings.json()) as { data: { endpoint_id: string; endpoint_hostname: string | null }[]; total: number };
  expect(found.total, 'the CVE has at most a page of open findings').toBeLessThanOrEqual(100);
  const endpoints = new Map(found.data.map((finding) => [finding.endpoint_id, finding.endpoint_hostname ?? finding.endpoint_id]));
  const hostnames = [...endpoints.values()].sort();
  for (const hostname of hostnames.slice(0, intelChangePlacesListed)) await expect(row.getByRole('link', { name: hostname, exact: true })).toBeVisible();
  const more = hostnames.length - intelChangePlacesListed;
  if (more > 0) await expect(row.getByRole('link', { name: `and ${more} more` }).first()).toBeVisible();
  await screenshot(page, 'threat-intelligence-changes');
});
