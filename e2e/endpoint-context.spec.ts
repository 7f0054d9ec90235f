import fs from 'node:fs';
import { expect, expectAccessible, figure, listTotal, openConsole, screenshot, test } from './support/console-page.js';

// On the second organization (seeded with the generated dataset, its tag rules included), with
// tags of the specs' own that they remove again, so that other specs' figures stay as they are.

test("tags and a criticality set on an endpoint's page are shown with where each tag comes from, and counted in Tags and rules", async ({ page }) => {
  await openConsole(page, '/orgs/second/endpoints?q=SRV-SQL');
  const grid = page.getByRole('grid', { name: 'Endpoints' });
  await grid.locator('[role=row][aria-rowindex="2"]').click();
  await expect(page).toHaveURL(/\/endpoints\/[0-9a-f-]{36}$/);
  const panel = page.getByRole('region', { name: 'Tags and criticality' });
  // The generated dataset's rules and hand-set tags: a SQL server is a server by a rule, under SOX by hand, critical.
  await expect(panel.getByRole('list', { name: 'Tags' })).toContainText(/server\s+from rule “server”/);
  await expect(panel.getByRole('list', { name: 'Tags' })).toContainText(/sox\s+set here/);
  await expect(panel).toContainText('Criticality: critical');

  await panel.getByRole('button', { name: 'Edit tags and criticality…' }).click();
  const tags = panel.getByLabel('Tags set on this endpoint');
  await tags.fill(`${await tags.inputValue()}, E2E-Edited`);
  await panel.getByLabel('Criticality').selectOption('low');
  await screenshot(page, 'endpoint-context-edit');
  await expectAccessible(page);
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByRole('list', { name: 'Tags' })).toContainText(/E2E-Edited\s+set here/);
  await expect(panel).toContainText('Criticality: low');
  await screenshot(page, 'endpoint-context-detail');

  // Kept on a reload (the server holds it), and counted in the tags view.
  await page.reload();
  await expect(panel.getByRole('list', { name: 'Tags' })).toContainText('E2E-Edited');
  await openConsole(page, '/orgs/second/tags');
  const row = page.getByRole('table', { name: 'Tags' }).getByRole('row', { name: /^E2E-Edited/ });
  await expect(row).toContainText(/E2E-Edited\s*1\s*1\s*0/);
  await screenshot(page, 'tags-view');
  await expectAccessible(page);

  // Back as it was: the tag taken off again, critical again.
  await page.goBack();
  await panel.getByRole('button', { name: 'Edit tags and criticality…' }).click();
  await tags.fill((await tags.inputValue()).split(', ').filter((tag) => tag !== 'E2E-Edited').join(', '));
  await panel.getByLabel('Criticality').selectOption('critical');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel).toContainText('Criticality: critical');
  await expect(panel.getByRole('list', { name: 'Tags' })).not.toContainText('E2E-Edited');
});

test('a tag rule tags the endpoint it matches, which says so, and the endpoints list tags what its filter selects', async ({ page }) => {
  // The rule: every endpoint whose hostname is the first Windows server's.
  await openConsole(page, '/orgs/second/endpoints?q=SRV-FS');
  const grid = page.getByRole('grid', { name: 'Endpoints' });
  const hostname = (await grid.locator('[role=row][aria-rowindex="2"] .hostname-cell__name').innerText()).trim();
  await openConsole(page, '/orgs/second/tags');
  await page.getByRole('button', { name: 'New rule…' }).click();
  const form = page.getByRole('form', { name: 'New tag rule' });
  await form.getByLabel('Tag').fill('e2e-rule');
  await form.getByLabel('Value of condition 1').fill(hostname.toLowerCase());
  await form.getByLabel('Note').fill('One file server, by name');
  await screenshot(page, 'tag-rule-new');
  await form.getByRole('button', { name: 'Make the rule' }).click();
  const rules = page.getByRole('table', { name: 'Tag rules' });
  const ruleRow = rules.getByRole('row', { name: /^e2e-rule/ });
  await expect(ruleRow).toContainText(`Hostname matches ${hostname.toLowerCase()}`);
  await expect(ruleRow.getByRole('cell').nth(3)).toHaveText('1');

  await openConsole(page, `/orgs/second/endpoints?q=${encodeURIComponent(hostname)}`);
  await grid.locator('[role=row][aria-rowindex="2"]').click();
  const tags = page.getByRole('region', { name: 'Tags and criticality' }).getByRole('list', { name: 'Tags' });
  await expect(tags).toContainText(/e2e-rule\s+from rule “e2e-rule” \(One file server, by name\)/);
  await screenshot(page, 'endpoint-context-rule-tag');
  await tags.getByRole('link', { name: /from rule “e2e-rule”/ }).click();
  await expect(page).toHaveURL(/\/orgs\/second\/tags\?rule=/);
  await expect(page.locator('tr.is-selected')).toContainText('e2e-rule');
  await page.getByRole('button', { name: 'Delete the rule tagging e2e-rule' }).click();
  await expect(rules.getByRole('row', { name: /^e2e-rule/ })).toHaveCount(0);

  // In bulk: every macOS endpoint of the list's filter, all pages.
  await openConsole(page, '/orgs/second/endpoints?osFamily=macos');
  const total = await listTotal(page);
  await page.getByRole('button', { name: /^Tag these [\d,]+ endpoints…$/ }).click();
  const bulk = page.getByRole('form', { name: 'Tag the endpoints the filters select' });
  await bulk.getByLabel('Add tags').fill('e2e-mac');
  await screenshot(page, 'endpoints-bulk-tag');
  await bulk.getByRole('button', { name: /^Apply to / }).click();
  await expect(bulk.getByRole('status')).toHaveText(`${total.toLocaleString('en-US')} endpoints selected, ${total.toLocaleString('en-US')} changed.`);
  await openConsole(page, '/orgs/second/tags');
  const tagRow = page.getByRole('table', { name: 'Tags' }).getByRole('row', { name: /^e2e-mac/ });
  await expect(tagRow.getByRole('cell').nth(1)).toHaveText(total.toLocaleString('en-US'));
  expect(figure(await tagRow.getByRole('cell').nth(2).innerText())).toBe(total);

  await openConsole(page, '/orgs/second/endpoints?osFamily=macos');
  await page.getByRole('button', { name: /^Tag these [\d,]+ endpoints…$/ }).click();
  await bulk.getByLabel('Remove tags').fill('e2e-mac');
  await bulk.getByRole('button', { name: /^Apply to / }).click();
  await expect(bulk.getByRole('status')).toContainText(`${total.toLocaleString('en-US')} changed`);
});

test("a rule's glob past its bounds is refused beside its condition, and nothing is saved until it is corrected", async ({ page, problems }) => {
  await openConsole(page, '/orgs/second/tags');
  await page.getByRole('button', { name: 'New rule…' }).click();
  const form = page.getByRole('form', { name: 'New tag rule' });
  await form.getByLabel('Tag').fill('e2e-bounded');
  const value = form.getByLabel('Value of condition 1');
  await value.fill('*a'.repeat(17));
  await form.getByRole('button', { name: 'Make the rule' }).click();
  await expect(value).toHaveAttribute('aria-invalid', 'true');
  await expect(value).toHaveAccessibleDescription('must hold at most 16 "*" (it holds 17)');
  await expect(form.getByRole('alert')).toHaveText('Not saved: correct the fields marked above.');
  await screenshot(page, 'tag-rule-glob-refused');
  const rules = page.getByRole('table', { name: 'Tag rules' });
  await expect(rules.getByRole('row', { name: /^e2e-bounded/ })).toHaveCount(0);
  expect(problems).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  problems.length = 0;

  // Every field of the form is marked as this one is, the tag and an IP condition's CIDR too: no raw path of the body.
  const tag = form.getByLabel('Tag');
  await tag.fill('e2e;bounded');
  await value.fill('*-e2e-*');
  await form.getByRole('button', { name: 'Make the rule' }).click();
  await expect(tag).toHaveAttribute('aria-invalid', 'true');
  await expect(tag).toHaveAccessibleDescription('must not contain ";", "," or control characters');
  await expect(form.getByRole('alert')).toHaveText('Not saved: correct the fields marked above.');
  await tag.fill('e2e-bounded');
  await form.getByLabel('Condition 1', { exact: true }).selectOption('ip');
  await value.fill('10.0.0.0/33');
  await form.getByRole('button', { name: 'Make the rule' }).click();
  await expect(value).toHaveAttribute('aria-invalid', 'true');
  await expect(tag).not.toHaveAttribute('aria-invalid');
  await expect(value).toHaveAccessibleDescription(/.+/);
  await expect(form).not.toContainText('Invalid body field');
  await expect(form.getByRole('alert')).toHaveText('Not saved: correct the fields marked above.');
  problems.length = 0;

  await tag.fill('e2e-bounded');
  await form.getByLabel('Condition 1', { exact: true }).selectOption('hostname');
  await value.fill('*-e2e-*');
  await form.getByRole('button', { name: 'Make the rule' }).click();
  await expect(rules.getByRole('row', { name: /^e2e-bounded/ })).toContainText('Hostname matches *-e2e-*');
  await page.getByRole('button', { name: 'Delete the rule tagging e2e-bounded' }).click();
  await expect(rules.getByRole('row', { name: /^e2e-bounded/ })).toHaveCount(0);
});

test("the tags field says they are separated by commas or semicolons, takes both, and marks a tag it refuses", async ({ page, problems }) => {
  await openConsole(page, '/orgs/second/endpoints?q=SRV-SQL');
  await page.getByRole('grid', { name: 'Endpoints' }).locator('[role=row][aria-rowindex="2"]').click();
  const panel = page.getByRole('region', { name: 'Tags and criticality' });
  await panel.getByRole('button', { name: 'Edit tags and criticality…' }).click();
  const tags = panel.getByLabel('Tags set on this endpoint');
  const before = await tags.inputValue();
  await expect(tags).toHaveAccessibleDescription(/^Separated by commas or semicolons;/);

  const long = `e2e-${'x'.repeat(61)}`;
  await tags.fill(`${before}; e2e-semi, ${long}`);
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(tags).toHaveAttribute('aria-invalid', 'true');
  await expect(tags).toHaveAccessibleDescription(new RegExp(`“${long}” must be at most 64 characters`));
  await expect(panel.getByRole('alert')).toHaveText('Not saved: correct the fields marked above.');
  await expect(panel).not.toContainText('Invalid body field');
  expect(problems).toEqual([expect.stringContaining('status of 400')]);
  problems.length = 0;

  await tags.fill(`${before}; e2e-semi`);
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByRole('list', { name: 'Tags' })).toContainText(/e2e-semi\s+set here/);
  await panel.getByRole('button', { name: 'Edit tags and criticality…' }).click();
  await tags.fill(before);
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByRole('list', { name: 'Tags' })).not.toContainText('e2e-semi');
});

test('Tags and rules exports what is set by hand as CSV, and imports a file back, refusing a bad line by its number', async ({ page, problems }) => {
  await openConsole(page, '/orgs/second/tags');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV…' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('second-endpoint-context.csv');
  await expect(page.getByRole('status')).toHaveText("Downloaded second-endpoint-context.csv to the browser's downloads.");
  const text = fs.readFileSync((await download.path())!, 'utf8');
  const lines = text.trimEnd().split('\r\n');
  expect(lines[0]).toBe('id,hostname,tags,criticality');
  // The generated dataset sets tags and criticality by hand on some endpoints: each is a line.
  expect(lines.length).toBeGreaterThan(1);

  const chooser = page.getByLabel('Import CSV…');
  const bad = `${lines.slice(0, 2).join('\r\n')}\r\n00000000-0000-4000-8000-000000000000,,x,urgent\r\n`;
  await chooser.setInputFiles({ name: 'context.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
  await expect(page.getByRole('alert')).toContainText('line 3');
  expect(problems).toEqual([expect.stringContaining('status of 400')]);
  problems.length = 0;

  // The file as exported changes nothing.
  await chooser.setInputFiles({ name: 'context.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await expect(page.getByRole('status').filter({ hasText: 'Imported' })).toContainText(`Imported ${(lines.length - 1).toLocaleString('en-US')} lines: 0 of`);
  await screenshot(page, 'tags-view-imported');
});
