import fs from 'node:fs';
import type { WorkPackageList } from '../contracts/console/work-packages.js';
import { type FakeRemote, startFakeRemote } from '../server/test/support/fake-remote.js';
import { sampleInventory } from '../server/test/support/sample-inventory.js';
import { expect, expectAccessible, openConsole, server, test } from './support/console-page.js';
import { parseCsv } from '../server/test/support/csv.js';

test("the remediation plan exports its steps for Jira, reads their status back, filters by it, keeps an owner and exports one step", async ({ page }) => {
  await openConsole(page, '/orgs/demo/remediation-plan');
  const steps = page.getByRole('table', { name: 'Steps' });
  await expect(steps.getByRole('columnheader', { name: 'Ticket' })).toBeVisible();
  const rows = steps.locator('tbody tr');
  // The columns by their headers: other figures come and go beside them.
  const headers = (await steps.getByRole('columnheader').allTextContents()).map((text) => text.trim());
  const ticket = headers.indexOf('Ticket');
  const statusColumn = headers.indexOf('Status');
  expect([ticket, statusColumn]).not.toContain(-1);
  await expect(rows.first().getByRole('cell').nth(statusColumn)).toHaveText('not yet ticketed');

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
  await expect(page.getByRole('status').filter({ hasText: 'Jira export' })).toHaveText(
    'Jira export of 2 rows: 2 matched a step, 2 changed. Statuses: “Done” done by the default workflows (1 row); “In Progress” in progress by the default workflows (1 row).',
  );
  await expect(rows.first().getByRole('cell').nth(ticket)).toHaveText('OPS-11');
  await expect(rows.first().getByRole('cell').nth(statusColumn)).toHaveText(/^done on /);
  await expect(rows.nth(1).getByRole('cell').nth(statusColumn)).toHaveText('in progress');

  // The filter by status, kept in the URL.
  await page.getByLabel('Steps with the ticket status').selectOption('done');
  await expect(page).toHaveURL(/status=done/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole('cell').nth(ticket)).toHaveText('OPS-11');
  await page.getByLabel('Steps with the ticket status').selectOption('not-ticketed');
  await expect(rows).toHaveCount(lines.length - 2);
  await page.getByLabel('Steps with the ticket status').selectOption('');
  // The whole plan again before its first step is typed into: until it has rendered, the first
  // row is the first step not yet ticketed.
  await expect(rows).toHaveCount(lines.length);
  await expect(rows.first().getByRole('cell').nth(ticket)).toHaveText('OPS-11');

  // An owner and a note, kept across a reload.
  const owner = rows.first().getByRole('textbox', { name: /^Owner of / });
  await owner.fill('Server team');
  await owner.press('Enter');
  const saved = () => page.evaluate(async () => ((await (await fetch('/app/orgs/demo/work-packages')).json()) as { data: { owner: string; note: string }[] }).data[0]!);
  await expect.poll(async () => (await saved()).owner).toBe('Server team');
  const note = rows.first().getByRole('textbox', { name: /^Note on / });
  await note.fill('After the Tuesday window');
  await owner.focus();
  await expect.poll(async () => (await saved()).note).toBe('After the Tuesday window');
  await page.reload();
  await expect(rows.first().getByRole('textbox', { name: /^Owner of / })).toHaveValue('Server team');
  await expect(rows.first().getByRole('textbox', { name: /^Note on / })).toHaveValue('After the Tuesday window');

  // One step alone, for Jira.
  const one = page.waitForEvent('download');
  await rows.nth(1).getByRole('button', { name: 'Export this step' }).click();
  const [, ...stepLines] = parseCsv(fs.readFileSync((await (await one).path())!, 'utf8'));
  expect(stepLines.map((line) => line[5])).toEqual([lines[1]![5]]);
  await expectAccessible(page);
});

test('a step closed as done whose findings a sync still finds open is on the dashboard, in the Changes view and under its filter', async ({ page }) => {
  test.setTimeout(120_000);
  // A replica of a remote that fixes nothing: the step marked done stays vulnerable at the next sync.
  const remote: FakeRemote = await startFakeRemote({ inventory: sampleInventory({ endpoints: 20, targetsPerEndpoint: 3, findingsPerTarget: 3, scopes: 2 }) });
  const headers = { 'x-console-script-token': server.scriptToken };
  const slug = 'ticketed';
  try {
    expect((await page.request.post(`${server.baseUrl}/app/organizations`, { headers, data: { slug, name: 'Ticketed tenant', remoteUrl: remote.url, apiKey: remote.apiKey } })).status()).toBe(201);
    const steps = async (query = '') => ((await (await page.request.get(`${server.baseUrl}/app/orgs/${slug}/work-packages${query}`, { headers })).json()) as WorkPackageList).data;
    await expect.poll(async () => (await steps()).length, { timeout: 60_000 }).toBeGreaterThan(0);
    const [first] = await steps();
    const status = `Issue key,Status,Resolution,Resolved,Custom field (External ID)\r\nOPS-77,Done,Done,02/Dec/26 10:15 AM,${first!.external_id}\r\n`;
    const imported = await page.request.post(`${server.baseUrl}/app/orgs/${slug}/work-packages/status-import`, { headers: { ...headers, 'content-type': 'text/csv' }, data: status });
    expect(imported.status()).toBe(200);
    expect((await page.request.post(`${server.baseUrl}/app/orgs/${slug}/sync`, { headers })).status()).toBe(202);
    await expect.poll(async () => (await steps('?status=still-vulnerable')).length, { timeout: 60_000 }).toBe(1);
    const sentence = `Closed in Jira as OPS-77 on 2026-12-02, still vulnerable on ${first!.endpoints.length} endpoint${first!.endpoints.length === 1 ? '' : 's'}.`;

    await openConsole(page, `/orgs/${slug}`);
    const card = page.getByRole('region', { name: 'Done but still vulnerable' });
    await expect(card).toContainText(sentence);
    await expect(card).toContainText(first!.endpoints[0]!.hostname!);
    await card.getByRole('link', { name: 'These steps in the remediation plan' }).click();
    await expect(page).toHaveURL(/remediation-plan\?status=still-vulnerable/);
    await expect(page.getByRole('table', { name: 'Steps' }).locator('tbody tr')).toHaveCount(1);
    await expect(page.getByRole('table', { name: 'Steps' }).locator('tbody tr').first()).toContainText('still vulnerable on');

    await openConsole(page, `/orgs/${slug}/changes`);
    await expect(page.getByRole('region', { name: 'Done in the ticket system, still vulnerable after a sync' })).toContainText(sentence);
    await expectAccessible(page);
  } finally {
    await page.request.delete(`${server.baseUrl}/app/orgs/${slug}`, { headers });
    await remote.close();
  }
});
