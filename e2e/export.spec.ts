import fs from 'node:fs';
import { expect, listTotal, openConsole, test } from './support/console-page.js';
import { parseCsv } from '../server/test/support/csv.js';

test('CSV export downloads every row of the filtered list', async ({ page }) => {
  await openConsole(page, '/orgs/demo/vulnerability-findings?severity=high&status=open');
  const total = await listTotal(page);
  expect(total).toBeGreaterThan(100);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('demo-vulnerability-findings.csv');
  // No dialog in a browser: the page says what was downloaded.
  await expect(page.getByRole('status').filter({ hasText: 'Downloaded' })).toHaveText(
    `Downloaded demo-vulnerability-findings.csv (${total.toLocaleString('en-US')} rows) to the browser's downloads.`,
  );
  const [header, ...rows] = parseCsv(fs.readFileSync((await download.path())!, 'utf8'));
  expect(header).toEqual([
    'id', 'endpoint_id', 'remediation_target_id', 'cve_id', 'severity', 'cvss_score', 'is_kev', 'status', 'source',
    'title', 'description', 'solution', 'first_detected_at', 'remediated_at', 'created_at', 'updated_at',
    'endpoint_hostname', 'endpoint_os_family', 'endpoint_has_agent', 'target_product', 'target_version', 'age_days', 'due_at', 'overdue', 'exception.id', 'exception.reason', 'exception.expires_at',
    'epss', 'epss_percentile', 'epss_score_date', 'epss_model_version', 'epss_state', 'kev.date_added', 'kev.due_date', 'kev.ransomware', 'kev.required_action', 'kev.sources',
    'bod2604_outcome', 'ssvc_decision', 'fix_by', 'fix_by_path',
  ]);
  expect(rows).toHaveLength(total);
  expect(new Set(rows.map((row) => row[4]))).toEqual(new Set(['high']));
  expect(new Set(rows.map((row) => row[7]))).toEqual(new Set(['open']));
  expect(new Set(rows.map((row) => row[0])).size).toBe(total);
});

test('CSV export of endpoints spreads the operating system and the open findings over columns', async ({ page }) => {
  await openConsole(page, '/orgs/demo/endpoints?osFamily=macos');
  const total = await listTotal(page);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const [header, ...rows] = parseCsv(fs.readFileSync((await (await downloading).path())!, 'utf8'));
  expect(header).toContain('operating_system.family');
  expect(header).toEqual(expect.arrayContaining(['risk_score', 'open_findings.critical', 'open_kev_findings', 'highest_open_cvss']));
  expect(rows).toHaveLength(total);
  const family = header!.indexOf('operating_system.family');
  expect(new Set(rows.map((row) => row[family]))).toEqual(new Set(['macos']));
});
