import { expect, expectAccessible, figure, listTotal, openConsole, screenshot, server, test } from './support/console-page.js';

const headers = { 'x-console-script-token': server.scriptToken };

test.afterAll(async ({ request }) => {
  // Leave the demo with its default policy and the perimeter's tags for the other specs.
  await request.put(`${server.baseUrl}/app/orgs/demo/fix-by-settings`, { headers, data: { deadline_policy: 'severity-days', exposure_tags: ['internet-facing'], unknown_as: 'shorter-timeline' } });
});

test('an analyst chooses BOD 26-04 for the demo and reads, for a finding, when it is due and why; un-exposing its host changes it at once', async ({ page, request }) => {
  await openConsole(page, '/orgs/demo/remediation-performance');
  const form = page.getByRole('form', { name: 'Deadline policy' });
  await form.getByLabel('Deadlines follow').selectOption('bod-26-04');
  await form.getByRole('button', { name: 'Save deadline policy' }).click();
  await expect(page.getByText('Saved: due dates and outcomes follow the new policy.')).toBeVisible();
  const counts = page.getByRole('region', { name: 'Fix-by dates' });
  const summary = await (await request.get(`${server.baseUrl}/app/orgs/demo/fix-by-summary`, { headers })).json();
  await expect(counts.locator('.figure').filter({ hasText: 'due in 60 days' }).locator('.figure__value')).toHaveText(String(summary.due_within.days_60));
  expect(figure(await counts.locator('.figure').filter({ hasText: 'can wait for the next upgrade' }).locator('.figure__value').innerText())).toBe(summary.on_upgrade);
  await screenshot(page, 'fix-by-policy');

  // A finding on an exposed host, from the API: its page shows the same path, outcome and date, and its due date is the end of that day.
  const exposed = await (await request.get(`${server.baseUrl}/app/orgs/demo/endpoints?tag=internet-facing&sort=-risk_score&limit=1`, { headers })).json();
  const listed = await (await request.get(`${server.baseUrl}/app/orgs/demo/vulnerability-findings?status=open&endpointId=${exposed.data[0].id}&bod2604Outcome=3%20days&limit=1`, { headers })).json();
  const [finding] = listed.data;
  expect(finding.fix_by_path[1]).toMatchObject({ value: 'yes', assumed: false });
  await openConsole(page, `/orgs/demo/vulnerability-findings/${finding.id}`);
  const path = page.getByRole('list', { name: 'BOD 26-04 path' });
  await expect(path.getByRole('listitem').nth(1)).toHaveText(`Publicly exposed: yes (${finding.fix_by_path[1].source}${finding.fix_by_path[1].since ? `, since ${finding.fix_by_path[1].since}` : ''})`);
  await expect(path.getByRole('listitem').nth(4)).toHaveText(`3 days, by ${finding.fix_by}`);
  await expectAccessible(page);
  await screenshot(page, 'fix-by-path');

  // The what-if: the host is no longer exposed (a tag set by hand can be lifted; here the rule's tag is no longer an exposure tag).
  await request.put(`${server.baseUrl}/app/orgs/demo/fix-by-settings`, { headers, data: { deadline_policy: 'bod-26-04', exposure_tags: ['dmz-only'], unknown_as: 'shorter-timeline' } });
  await page.reload();
  await expect(path.getByRole('listitem').nth(1)).toHaveText('Publicly exposed: no (no tag dmz-only)');
  const after = await (await request.get(`${server.baseUrl}/app/orgs/demo/vulnerability-findings/${finding.id}`, { headers })).json();
  await expect(path.getByRole('listitem').nth(4)).toHaveText(`${after.bod2604_outcome}${after.fix_by ? `, by ${after.fix_by}` : ': no date'}`);
  const changes = await (await request.get(`${server.baseUrl}/app/orgs/demo/fix-by-changes`, { headers })).json();
  expect(changes.data[0].cause).toBe('fix-by settings: policy bod-26-04, exposure tags dmz-only, unknown as shorter-timeline');
  expect(changes.data[0].findings_changed).toBeGreaterThan(0);
});

test("the endpoints list by the SSVC decision of their open findings: a select of the contract's decisions, its endpoints the API's, kept by a reload", async ({ page, request }) => {
  const list = async (query: string) => (await (await request.get(`${server.baseUrl}/app/orgs/demo/endpoints?${query}&limit=1`, { headers })).json()).total as number;
  await openConsole(page, '/orgs/demo/endpoints');
  const decision = page.getByLabel('With a finding of SSVC decision');
  await expect(decision.locator('option')).toHaveText(['Any', 'track', 'track*', 'attend', 'act']);
  await decision.selectOption('attend');
  await expect(page).toHaveURL(/ssvcDecision=attend/);
  const attend = await list('ssvcDecision=attend');
  expect(attend).toBeGreaterThan(0);
  await expect.poll(() => listTotal(page)).toBe(attend);
  await page.reload();
  await expect(page.getByLabel('With a finding of SSVC decision')).toHaveValue('attend');
  await expect.poll(() => listTotal(page)).toBe(attend);
});
