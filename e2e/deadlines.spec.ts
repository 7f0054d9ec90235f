import type { Page } from '@playwright/test';
import { columnTexts, expect, expectAccessible, figure, listTotal, openConsole, screenshot, server, test } from './support/console-page.js';

// The findings table's columns, in order (renderer/src/views/list-definitions.tsx).
/** The columns of a list of open findings (it has no status column: each would say "Open"). */
const findingColumn = { severity: 2, age: 7, due: 8 };

/** The "Open and overdue" figure of the remediation performance view. */
async function overdueFigure(page: Page): Promise<number> {
  const value = page.getByRole('list', { name: 'Summary' }).locator('.figure').filter({ hasText: 'Open and overdue' }).locator('.figure__value');
  await expect(value).not.toHaveText('');
  return figure(await value.innerText());
}

/** Sets the deadlines form's fields (empty for none) and saves them. */
async function saveDeadlines(page: Page, days: Partial<Record<'Critical' | 'High' | 'Medium' | 'Low' | 'Info' | 'KEV (when sooner)', string>>) {
  const form = page.getByRole('form', { name: 'Deadlines' });
  for (const [label, value] of Object.entries(days)) await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByRole('button', { name: 'Save deadlines' }).click();
}

test.afterAll(async ({ request }) => {
  // Leave the demo with its default deadlines for the other specs.
  await request.put(`${server.baseUrl}/app/orgs/demo/sla-policy`, {
    headers: { 'x-console-script-token': server.scriptToken },
    data: { critical: 15, high: 30, medium: 90, low: 180, info: null, kev: 14 },
  });
});

test('the dashboard card leads to the remediation performance, whose overdue findings are those the findings list filters', async ({ page }) => {
  await openConsole(page, '/orgs/demo');
  const card = page.getByRole('region', { name: 'Remediation deadlines' });
  const cardOverdue = card.locator('.figure').filter({ hasText: 'Open and overdue' }).locator('.figure__value');
  await expect(cardOverdue).toHaveText(/^\d[\d,]*$/);
  await expect(card.locator('.figure').filter({ hasText: 'Remediated in time' }).locator('.figure__value')).toHaveText(/^\d+\.\d %$/);
  const onCard = figure(await cardOverdue.innerText());
  await screenshot(page, 'dashboard-deadline-card');
  await card.getByRole('link', { name: /Open and overdue/ }).click();
  await expect(page).toHaveURL(/\/orgs\/demo\/remediation-performance$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Remediation performance' })).toBeVisible();
  const overdue = await overdueFigure(page);
  expect(overdue).toBe(onCard);
  // The demo (dated from the day it was created) has findings past their due date and findings within it.
  const open = figure((await page.getByRole('list', { name: 'Summary' }).locator('.figure__label').first().innerText()).replace(/^.*of /, ''));
  expect(overdue).toBeGreaterThan(0);
  expect(overdue).toBeLessThan(open);
  await expect(page.getByRole('table', { name: 'By severity' }).getByRole('row')).toHaveCount(6);
  await expect(page.locator('.chart-card', { hasText: 'Remediated per month' }).locator('.recharts-bar-rectangle').first()).toBeVisible();
  await screenshot(page, 'remediation-performance');
  await page.locator('.chart-card', { hasText: 'Open findings by age (days)' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'remediation-performance-charts');
  await page.mouse.move(0, 0);
  await expectAccessible(page);

  // The figure links to the findings list, overdue only: as many (at the same minute), each marked overdue.
  await page.getByRole('list', { name: 'Summary' }).getByRole('link', { name: /Open and overdue/ }).click();
  await expect(page).toHaveURL(/vulnerability-findings\?overdue=true$/);
  await expect(page.getByRole('checkbox', { name: 'Overdue only' })).toBeChecked();
  // Counted at the list's own minute: a finding or two more may have fallen due since the figure's.
  const listed = await listTotal(page);
  expect(listed - overdue).toBeGreaterThanOrEqual(0);
  expect(listed - overdue).toBeLessThanOrEqual(2);
  const grid = page.getByRole('grid', { name: 'Vulnerability findings' });
  await expect(page.getByLabel('Status')).toHaveValue('open');
  await expect(grid.getByRole('columnheader', { name: 'Status' })).toHaveCount(0);
  await expect(grid.locator('.due--overdue').first()).toBeVisible();
  expect(await grid.locator('[role=row] .due:not(.due--overdue)').count()).toBe(0);

  // Sorted by due date, the longest overdue first.
  await grid.getByRole('columnheader', { name: 'Due' }).getByRole('button').click();
  await expect(page).toHaveURL(/sort=due_at/);
  const dues = (await columnTexts(grid, findingColumn.due)).map((text) => Date.parse(text.replace(' (overdue)', '')));
  expect(dues).toEqual([...dues].sort((a, b) => a - b));
  expect(await columnTexts(grid, findingColumn.age)).toEqual(expect.arrayContaining([expect.stringMatching(/^\d+ d$/)]));
  await screenshot(page, 'findings-overdue-by-due-date');
  await expectAccessible(page);

  // The box unchecked, every finding is listed again.
  await page.getByRole('checkbox', { name: 'Overdue only' }).uncheck();
  await expect(page).not.toHaveURL(/overdue=/);
  expect(await listTotal(page)).toBeGreaterThan(overdue);
});

test('a deadline set in the console changes which findings are overdue, and bad days are refused beside their field', async ({ page, problems }) => {
  await openConsole(page, '/orgs/demo/remediation-performance');
  const before = await overdueFigure(page);

  // Days that are not days: the rule beside each field, in the form's terms (empty, not null), nothing saved.
  const form = page.getByRole('form', { name: 'Deadlines' });
  await expect(form).toContainText('These are the default deadlines: none have been saved for this organization yet.');
  await saveDeadlines(page, { High: '0', Medium: 'soon' });
  const rule = 'Type a whole number of days from 1 to 3650, or leave it empty for no deadline.';
  await expect(form.getByLabel('High', { exact: true })).toHaveAccessibleDescription(rule);
  await expect(form.getByLabel('Medium', { exact: true })).toHaveAccessibleDescription(rule);
  await expect(form.getByLabel('Medium', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByRole('alert')).toHaveText('Correct the fields marked above: nothing was saved.');
  await screenshot(page, 'deadlines-refused');
  expect(await overdueFigure(page)).toBe(before);
  // The browser reports the refusal the test caused.
  expect(problems).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  problems.length = 0;

  // A year for critical and high findings, no KEV deadline: fewer are overdue.
  await saveDeadlines(page, { Critical: '365', High: '365', Medium: '90', 'KEV (when sooner)': '' });
  await expect(form.getByRole('status')).toHaveText(/^Saved/);
  await expect.poll(() => overdueFigure(page)).toBeLessThan(before);
  const after = await overdueFigure(page);
  await expect(page.getByRole('table', { name: 'By severity' }).getByRole('row', { name: /critical/ }).getByRole('cell').nth(1)).toHaveText('365 days');
  await screenshot(page, 'deadlines-saved');
  await expectAccessible(page);

  // The list counts at its own minute: a finding or two more may have fallen due since the figure's.
  await page.getByRole('list', { name: 'Summary' }).getByRole('link', { name: /Open and overdue/ }).click();
  const listed = await listTotal(page);
  expect(listed - after).toBeGreaterThanOrEqual(0);
  expect(listed - after).toBeLessThanOrEqual(2);

  // The critical ones under a year's deadline, due a year after their detection.
  await openConsole(page, '/orgs/demo/vulnerability-findings?severity=critical&status=open&sort=due_at');
  const grid = page.getByRole('grid', { name: 'Vulnerability findings' });
  const firstDue = Date.parse((await columnTexts(grid, findingColumn.due))[0]!.replace(' (overdue)', ''));
  const firstAge = figure((await columnTexts(grid, findingColumn.age))[0]!);
  expect(Math.abs(Date.now() - firstDue - (firstAge - 365) * 86_400_000)).toBeLessThan(2 * 86_400_000);

  // Back to the defaults: the first figure again, or a finding or two more, whose deadline passed
  // while the test ran (the demo's open findings fall due at any time of day).
  await openConsole(page, '/orgs/demo/remediation-performance');
  await page.getByRole('button', { name: 'Reset to defaults' }).click();
  await expect.poll(async () => (await overdueFigure(page)) - before).toBeGreaterThanOrEqual(0);
  expect((await overdueFigure(page)) - before).toBeLessThanOrEqual(2);
  await expect(page.getByRole('button', { name: 'Reset to defaults' })).toBeDisabled();
});

test('one overdue finding under an exception is said in the singular', async ({ page, request }) => {
  const headers = { 'x-console-script-token': server.scriptToken, origin: server.baseUrl };
  const app = `${server.baseUrl}/app/orgs/second`;
  const overdue = (await (await request.get(`${app}/vulnerability-findings?overdue=true&limit=1`, { headers })).json()) as { data: { id: string }[] };
  const made = await request.post(`${app}/exceptions`, {
    headers,
    data: { scope: { kind: 'finding', finding_id: overdue.data[0]!.id }, reason: 'risk_accepted', expires_at: new Date(Date.now() + 86_400_000).toISOString() },
  });
  expect(made.status()).toBe(201);
  const { id } = (await made.json()) as { id: string };
  try {
    await openConsole(page, '/orgs/second/remediation-performance');
    await expect(page.getByText('Past the due date under an exception, and not counted as overdue: 1 more open finding.')).toBeVisible();
  } finally {
    await request.post(`${app}/exceptions/${id}/revoke`, { headers });
  }
});
