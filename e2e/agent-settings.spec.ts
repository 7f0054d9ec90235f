import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { unzipSync } from 'fflate';
import { parse as parseYaml } from 'yaml';
import { demoAgentSettings } from '../contracts/console/agent-settings.js';
import { codeRequirement, download, managedSettings, payloadsOf } from './support/agent-config-file.js';
import { expect, expectAccessible, openConsole, screenshot, server, test } from './support/console-page.js';
import { consoleUrlOf, demoKeyOf, serve, stop } from './support/serve-process.js';

// The "second" organization of the global setup is a local one made with the CLI: it has an
// enrollment secret but no agent settings, so no file until an admin sets them in the view.
const serverUrl = 'https://agents.second-e2e.example';
const teamId = 'Q7M3K9D2XP';
const consoleHeaders = () => ({ 'x-console-script-token': server.scriptToken });

/** Clears the second organization's settings through the console's API, so that a retried test starts as the first run did. */
async function clearSecondSettings(request: APIRequestContext): Promise<void> {
  const answer = await request.put(`${server.baseUrl}/app/orgs/second/agent-settings`, {
    headers: consoleHeaders(),
    data: { serverUrl: null, teamId: null, bundleId: null },
  });
  expect(answer.status()).toBe(200);
}

/** The second organization's settings as the server holds them. */
async function secondSettings(request: APIRequestContext): Promise<{ serverUrl: string | null; teamId: string | null }> {
  const answer = await request.get(`${server.baseUrl}/app/orgs/second/agent-settings`, { headers: consoleHeaders() });
  return (await answer.json()) as { serverUrl: string | null; teamId: string | null };
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

  // The preview follows the saved settings; the download is offered. The macOS ZIP pins no Team
  // ID (only the MDM profiles do), so its preview shows none.
  const preview = page.locator('.agent-file .field-list');
  await expect(preview).toContainText(serverUrl);
  await expect(preview).not.toContainText(teamId);
  await expect(missing).toHaveCount(0);
  await expect(downloadButton).toBeEnabled();

  // macOS, the full MDM profile: the secret is inside, and the view says to handle the file as one.
  await page.getByLabel('Profile').selectOption('mdm-full');
  const secretWarning = page.getByRole('note', { name: 'This file is a secret' });
  await expect(secretWarning).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: 'user-approved MDM' })).toBeVisible();
  await expect(preview).toContainText('Inside the file');
  await expect(preview).toContainText(teamId);
  await screenshot(page, 'agent-settings-mdm-full');
  await expectAccessible(page);
  const full = await download(page);
  expect(full.name).toMatch(/\.mobileconfig$/);
  const fullPayloads = payloadsOf(full.bytes);
  expect(managedSettings(fullPayloads)?.ServerURL).toBe(serverUrl);
  expect(codeRequirement(fullPayloads)).toContain(`"${teamId}"`);
  expect(full.bytes.toString('latin1')).not.toContain('127.0.0.1');

  // The permissions-only profile: no secret, no warning, and no server URL, which it does not carry.
  await page.getByLabel('Profile').selectOption('mdm-permissions');
  await expect(preview).toContainText('Not inside');
  await expect(secretWarning).toHaveCount(0);
  await expect(preview).toContainText(/Server URL\s*Not in this file/);
  await expect(preview).not.toContainText(serverUrl);
  await expect(preview).toContainText(teamId);
  await screenshot(page, 'agent-settings-mdm-permissions');
  const permissions = await download(page);
  const permissionPayloads = payloadsOf(permissions.bytes);
  expect(managedSettings(permissionPayloads)).toBeUndefined();
  expect(permissions.bytes.toString('latin1')).not.toContain(serverUrl);
  expect(codeRequirement(permissionPayloads)).toContain(`"${teamId}"`);

  // Windows: a ZIP that names neither a Team ID nor a bundle id, and a preview that shows neither.
  await page.getByLabel('Platform').selectOption('windows');
  await expect(preview).toContainText('RemediationConsoleAgent.reg');
  await expect(preview).toContainText(serverUrl);
  await expect(preview).not.toContainText('Team ID');
  await expect(preview).not.toContainText(teamId);
  await expect(preview).not.toContainText('Bundle identifier');
  const windows = await download(page);
  const agentJson = JSON.parse(Buffer.from(unzipSync(new Uint8Array(windows.bytes))['agent.json']!).toString('utf8')) as Record<string, unknown>;
  expect(agentJson.ServerURL).toBe(serverUrl);
  expect(JSON.stringify(agentJson)).not.toContain(teamId);

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
  await expect(settings.getByLabel('Server URL')).toHaveValue(demoAgentSettings.serverUrl);
  await expect(page.locator('.agent-file .field-list')).toContainText(demoAgentSettings.serverUrl);
  await expect(page.getByRole('button', { name: 'Download' })).toBeEnabled();
  await screenshot(page, 'agent-settings-demo');
  await expectAccessible(page);
});

test.describe('a replica', () => {
  // The remote tenant is a second `serve` with its own demo organization; the replica of it is
  // disconnected afterwards, so that the other specs find the two organizations of the setup.
  const slug = 'agent-remote';
  let remote: ChildProcess;
  let remoteDir: string;

  test.beforeAll(async ({ request }) => {
    remoteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-e2e-agent-remote-'));
    const started = await serve(remoteDir);
    remote = started.child;
    const connected = await request.post(`${server.baseUrl}/app/organizations`, {
      headers: consoleHeaders(),
      data: { slug, name: 'Agent remote', remoteUrl: consoleUrlOf(started.output).origin, apiKey: demoKeyOf(started.output) },
    });
    expect(connected.status()).toBe(201);
  });

  test.afterAll(async ({ request }) => {
    expect((await request.delete(`${server.baseUrl}/app/orgs/${slug}`, { headers: consoleHeaders() })).status()).toBe(204);
    await stop(remote);
    fs.rmSync(remoteDir, { recursive: true, force: true });
  });

  test("has no settings here: the view says the file is its remote tenant's, names no id of the replica's, and passes that file on", async ({ page, request }) => {
    const organizations = await request.get(`${server.baseUrl}/app/organizations`, { headers: consoleHeaders() });
    const localId = ((await organizations.json()) as { data: { slug: string; id: string }[] }).data.find((o) => o.slug === slug)!.id;
    await openConsole(page, `/orgs/${slug}/agent-config`);
    await page.getByLabel('Profile').selectOption('mdm-full');
    const replicaNote = page.getByRole('note').filter({ hasText: 'This organization is a replica' });
    await expect(replicaNote).toContainText("the remote's own settings");
    await expect(replicaNote).toContainText("The organization id and slug the file records are the remote tenant's, not this replica's");
    await expect(page.getByRole('note', { name: 'This file is a secret' })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Agent settings' })).toHaveCount(0);
    await expect(page.locator('.agent-config')).not.toContainText(localId);
    await screenshot(page, 'agent-settings-replica');
    await expectAccessible(page);
    // The remote's demo organization has the demo's settings: they are what the replica's file carries, with the remote's id.
    const file = await download(page);
    const settings = managedSettings(payloadsOf(file.bytes));
    expect(settings?.ServerURL).toBe(demoAgentSettings.serverUrl);
    expect(settings?.OrganizationID).not.toBe(localId);
  });
});
