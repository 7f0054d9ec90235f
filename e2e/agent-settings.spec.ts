import fs from 'node:fs';
import type { APIRequestContext, Download, Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { parse as parsePlist } from 'plist';
import { parse as parseYaml } from 'yaml';
import { expect, expectAccessible, openConsole, screenshot, server, test } from './support/console-page.js';

// The "second" organization of the global setup is a local one made with the CLI: it has an
// enrollment secret but no agent settings, so no file until an admin sets them in the view.
const serverUrl = 'https://agents.second-e2e.example';
const teamId = 'Q7M3K9D2XP';

/** Clears the second organization's settings through the console's API, so that a retried test starts as the first run did. */
async function clearSecondSettings(request: APIRequestContext): Promise<void> {
  const answer = await request.put(`${server.baseUrl}/app/orgs/second/agent-settings`, {
    headers: { 'x-console-token': server.token },
    data: { serverUrl: null, teamId: null, bundleId: null },
  });
  expect(answer.status()).toBe(200);
}

/** The second organization's settings as the server holds them. */
async function secondSettings(request: APIRequestContext): Promise<{ serverUrl: string | null; teamId: string | null }> {
  const answer = await request.get(`${server.baseUrl}/app/orgs/second/agent-settings`, { headers: { 'x-console-token': server.token } });
  return (await answer.json()) as { serverUrl: string | null; teamId: string | null };
}

/** Clicks Download and answers the bytes of the file the browser saved. */
async function download(page: Page): Promise<{ name: string; bytes: Buffer }> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  const file: Download = await downloading;
  return { name: file.suggestedFilename(), bytes: fs.readFileSync(await file.path()) };
}

type Payload = { PayloadType: string } & Record<string, unknown>;

/** The payloads of the XML plist a signed .mobileconfig carries attached inside its DER CMS envelope. */
function payloadsOf(bytes: Buffer): Payload[] {
  const text = bytes.toString('latin1');
  const start = text.indexOf('<?xml');
  const end = text.indexOf('</plist>') + '</plist>'.length;
  expect(start, 'an XML plist inside the signed profile').toBeGreaterThanOrEqual(0);
  return (parsePlist(bytes.subarray(start, end).toString('utf8')) as unknown as { PayloadContent: Payload[] }).PayloadContent;
}

/** The agent's managed preferences in a profile's settings payload (absent from mdm-permissions). */
function managedSettings(payloads: Payload[]): Record<string, unknown> | undefined {
  const payload = payloads.find((p) => p.PayloadType === 'com.apple.ManagedClient.preferences');
  const domains = payload?.PayloadContent as Record<string, { Forced: { mcx_preference_settings: Record<string, unknown> }[] }> | undefined;
  return domains?.['com.remediationconsole.agent']?.Forced[0]?.mcx_preference_settings;
}

/** The code requirement of the full disk access grant: where the Team ID is pinned. */
function codeRequirement(payloads: Payload[]): string | undefined {
  const payload = payloads.find((p) => p.PayloadType === 'com.apple.TCC.configuration-profile-policy');
  return (payload?.Services as { SystemPolicyAllFiles: { CodeRequirement: string }[] } | undefined)?.SystemPolicyAllFiles[0]?.CodeRequirement;
}

test('the second organization: settings set in the view, a bad Team ID refused beside its field, then files that carry them', async ({ page, request, problems }) => {
  await clearSecondSettings(request);
  await openConsole(page, '/orgs/second/agent-config');
  const settings = page.getByRole('form', { name: 'Agent settings' });
  await expect(settings.getByLabel('Server URL')).toHaveValue('');

  // Nothing set yet: the view says what to set, links to it, and offers no download.
  const missing = page.getByRole('note').filter({ hasText: 'Before this file can be made' });
  await expect(missing).toContainText('set the server URL');
  const downloadButton = page.getByRole('button', { name: 'Download' });
  await expect(downloadButton).toBeDisabled();
  await expect(downloadButton).toHaveAccessibleDescription(/Before this file can be made, set the server URL/);
  await missing.getByRole('link', { name: 'the server URL' }).click();
  await expect(page).toHaveURL(/#agent-settings-serverUrl$/);
  await expect(settings.getByLabel('Server URL')).toBeInViewport();

  // A bad Team ID: its message beside its field, the other fields untouched, nothing saved.
  await settings.getByLabel('Server URL').fill(serverUrl);
  await settings.getByLabel('Team ID').fill('abcde12345x');
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(settings.getByRole('alert')).toHaveText('Correct the fields marked above: nothing was saved.');
  const teamIdField = settings.getByLabel('Team ID');
  await expect(teamIdField).toHaveAttribute('aria-invalid', 'true');
  const teamIdError = settings.locator('#agent-settings-teamId-error');
  await expect(teamIdError).toBeVisible();
  const message = (await teamIdError.innerText()).trim();
  expect(message).not.toBe('');
  expect(await teamIdField.getAttribute('aria-describedby')).toContain('agent-settings-teamId-error');
  await expect(teamIdField).toHaveAccessibleDescription(new RegExp(`^${message.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  await expect(settings.getByLabel('Server URL')).not.toHaveAttribute('aria-invalid');
  expect(await secondSettings(request)).toMatchObject({ serverUrl: null, teamId: null });
  // The refused save, which the browser reports.
  expect(problems).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  problems.length = 0;
  await screenshot(page, 'agent-settings-error');
  await expectAccessible(page);

  // A plain-http URL is taken, with the server's warning.
  await settings.getByLabel('Server URL').fill('http://agents.second-e2e.example');
  await teamIdField.fill(teamId);
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(settings.getByRole('status')).toContainText('Saved');
  await expect(settings.getByRole('note', { name: 'Warnings about these settings' })).toContainText(/http/i);

  await settings.getByLabel('Server URL').fill(serverUrl);
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(settings.getByRole('note', { name: 'Warnings about these settings' })).toHaveCount(0);
  expect(await secondSettings(request)).toMatchObject({ serverUrl, teamId });

  // The preview follows the saved settings; the download is offered.
  const preview = page.locator('.agent-file .field-list');
  await expect(preview).toContainText(serverUrl);
  await expect(preview).toContainText(teamId);
  await expect(missing).toHaveCount(0);
  await expect(downloadButton).toBeEnabled();

  // macOS, the full MDM profile: the secret is inside, and the view says to handle the file as one.
  await page.getByLabel('Profile').selectOption('mdm-full');
  const secretWarning = page.getByRole('note', { name: 'This file is a secret' });
  await expect(secretWarning).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: 'user-approved MDM' })).toBeVisible();
  await expect(preview).toContainText('Inside the file');
  await screenshot(page, 'agent-settings-mdm-full');
  await expectAccessible(page);
  const full = await download(page);
  expect(full.name).toMatch(/\.mobileconfig$/);
  const fullPayloads = payloadsOf(full.bytes);
  expect(managedSettings(fullPayloads)?.ServerURL).toBe(serverUrl);
  expect(codeRequirement(fullPayloads)).toContain(`"${teamId}"`);
  expect(full.bytes.toString('latin1')).not.toContain('127.0.0.1');

  // The permissions-only profile: no secret, no warning.
  await page.getByLabel('Profile').selectOption('mdm-permissions');
  await expect(preview).toContainText('Not inside');
  await expect(secretWarning).toHaveCount(0);
  const permissions = await download(page);
  const permissionPayloads = payloadsOf(permissions.bytes);
  expect(managedSettings(permissionPayloads)).toBeUndefined();
  expect(codeRequirement(permissionPayloads)).toContain(`"${teamId}"`);

  // Linux: a ZIP whose agent.yaml names the server URL, and the secret's warning again.
  await page.getByLabel('Platform').selectOption('linux');
  await expect(preview).toContainText('agent.yaml');
  await expect(secretWarning).toBeVisible();
  const zip = await download(page);
  expect(zip.name).toMatch(/\.zip$/);
  const yaml = parseYaml(Buffer.from(unzipSync(new Uint8Array(zip.bytes))['agent.yaml']!).toString('utf8')) as { server_url?: string };
  expect(yaml.server_url).toBe(serverUrl);
});

test("the demo organization's settings are marked as the demo's fictitious ones", async ({ page }) => {
  await openConsole(page, '/orgs/demo/agent-config');
  const settings = page.getByRole('form', { name: 'Agent settings' });
  await expect(settings.getByRole('note').filter({ hasText: "demo organization's fictitious settings" })).toBeVisible();
  await expect(settings.getByLabel('Server URL')).toHaveValue('https://agents.demo.example');
  await expect(page.locator('.agent-file .field-list')).toContainText('https://agents.demo.example');
  await expect(page.getByRole('button', { name: 'Download' })).toBeEnabled();
  await screenshot(page, 'agent-settings-demo');
  await expectAccessible(page);
});
