import fs from 'node:fs';
import { expect, expectAccessible, openConsole, test } from './support/console-page.js';
import { parseCsv } from '../server/test/support/csv.js';

test("the remediation plan exports its steps for Jira, reads their status back, filters by it, keeps an owner and exports one step", async ({ page }) => {
  await openConsole(page, '/orgs/demo/remediation-plan');
  const steps = page.getByRole('table', { name: 'Steps' });
  await expect(steps.getByRole('columnheader', { name: 'Ticket' })).toBeVisible();
  const rows = steps.locator('tbody tr');
  await expect(rows.first().getByRole('cell').nth(9)).toHaveText('not yet ticketed');

  // The whole plan for Jira, in the browser's downloads.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export for Jira' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('demo-work-packages.jira.csv');
  const [header, ...lines] = parseCsv(fs.readFileSync((await download.path())!, 'utf8'));
  expect(header!.slice(0, 6)).toEqual(['Summary', 'Description', 'Issue Type', 'Priority', 'Due date', 'External ID']);
  expect(lines).toHaveLength(await rows.count());

  // Jira's export after the import: the first step done, the second in progress.
  const status = [
    'Issue key,Summary,Status,Resolution,Resolved,Custom field (External ID)',
    `OPS-11,"${lines[0]![0]}",Done,Done,02/Dec/26 10:15 AM,${lines[0]![5]}`,
    `OPS-12,"${lines[1]![0]}",In Progress,,,${lines[1]![5]}`,
  ].join('\r\n');
  await page.getByLabel('Import ticket status').setInputFiles({ name: 'jira-export.csv', mimeType: 'text/csv', buffer: Buffer.from(status) });
  await expect(page.getByRole('status').filter({ hasText: 'Jira export' })).toHaveText('Jira export of 2 rows: 2 matched a step, 2 changed.');
  await expect(rows.first().getByRole('cell').nth(8)).toHaveText('OPS-11');
  await expect(rows.first().getByRole('cell').nth(9)).toHaveText(/^done on /);
  await expect(rows.nth(1).getByRole('cell').nth(9)).toHaveText('in progress');

  // The filter by status, kept in the URL.
  await page.getByLabel('Steps with the ticket status').selectOption('done');
  await expect(page).toHaveURL(/status=done/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole('cell').nth(8)).toHaveText('OPS-11');
  await page.getByLabel('Steps with the ticket status').selectOption('not-ticketed');
  await expect(rows).toHaveCount(lines.length - 2);
  await page.getByLabel('Steps with the ticket status').selectOption('');

  // An owner, kept across a reload.
  const owner = rows.first().getByRole('textbox');
  await owner.fill('Server team');
  await owner.press('Enter');
  const savedOwner = () => page.evaluate(async () => ((await (await fetch('/app/orgs/demo/work-packages')).json()) as { data: { owner: string }[] }).data[0]!.owner);
  await expect.poll(savedOwner).toBe('Server team');
  await page.reload();
  await expect(rows.first().getByRole('textbox')).toHaveValue('Server team');

  // One step alone, for Jira.
  const one = page.waitForEvent('download');
  await rows.nth(1).getByRole('button', { name: 'Export this step' }).click();
  const [, ...stepLines] = parseCsv(fs.readFileSync((await (await one).path())!, 'utf8'));
  expect(stepLines.map((line) => line[5])).toEqual([lines[1]![5]]);
  await expectAccessible(page);
});
