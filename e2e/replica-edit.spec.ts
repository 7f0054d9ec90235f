import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import type { SyncStatus } from '../contracts/console/sync.js';
import { expect, expectAccessible, openConsole, screenshot, server, test } from './support/console-page.js';
import { consoleUrlOf, demoKeyOf, serve, stop } from './support/serve-process.js';

// The remote tenant is a second `serve` on its own data directory, with its generated demo
// organization and key. It is connected with the address its own console shows (with /v1),
// then stopped and started again on another port: the replica fails to sync, says what to do,
// and follows the remote once its URL is edited in the console, keeping its data and exceptions.
let remote: ChildProcess;
let remoteDir: string;
let remoteKey: string;
let firstOrigin: string;
const slug = 'moving';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

test.beforeAll(async () => {
  remoteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-e2e-moving-'));
  const started = await serve(remoteDir);
  remote = started.child;
  remoteKey = demoKeyOf(started.output);
  firstOrigin = consoleUrlOf(started.output).origin;
});

test.afterAll(async ({ request }) => {
  // The e2e server is shared: the replica goes, as other specs expect none.
  await request.delete(`${server.baseUrl}/app/orgs/${slug}`, { headers: headers() });
  await stop(remote);
  fs.rmSync(remoteDir, { recursive: true, force: true });
});

const headers = () => ({ 'x-console-script-token': server.scriptToken, origin: server.baseUrl });
const app = async (request: APIRequestContext, pathAndQuery: string) =>
  (await (await request.get(`${server.baseUrl}/app${pathAndQuery}`, { headers: headers() })).json()) as Record<string, unknown>;
const syncStatus = async (request: APIRequestContext) => (await app(request, `/orgs/${slug}/sync`)) as unknown as SyncStatus;

test('a replica follows its remote to a new port: the failed sync says what to do, Edit changes the URL, the data stays', async ({ page, request, problems }) => {
  await openConsole(page, '/orgs/demo/organizations');
  const connect = page.getByRole('form', { name: 'Connect a remote tenant' });
  // The address the remote's console shows, /v1 and all.
  await connect.getByLabel('Remote URL').fill(`${firstOrigin}/v1`);
  await connect.getByLabel('Remote API key').fill(remoteKey);
  await connect.getByLabel('Slug').fill(slug);
  await connect.getByLabel('Name (optional)').fill('Moving remote');
  await connect.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText(`Connected “Moving remote” (${slug}); its first sync`)).toBeVisible();
  const row = page.getByTestId(`organization-${slug}`);
  await expect(row).toContainText(firstOrigin);
  await expect(row).not.toContainText(`${firstOrigin}/v1`);
  await expect.poll(async () => (await syncStatus(request)).state.lastSuccessAt, { timeout: 180_000 }).not.toBeNull();
  // The notice follows the sync: it no longer says the sync has started once it has ended.
  await expect(page.getByText(`Connected “Moving remote” (${slug}); its first sync is done.`)).toBeVisible();

  // Local context of the replica: an exception on one of its findings.
  const findings = (await app(request, `/orgs/${slug}/vulnerability-findings?limit=1`)) as { total: number; data: { id: string }[] };
  const exception = await request.post(`${server.baseUrl}/app/orgs/${slug}/exceptions`, {
    headers: headers(),
    data: { scope: { kind: 'finding', finding_id: findings.data[0]!.id }, reason: 'false_positive', note: 'kept across the move', expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString() },
  });
  expect(exception.status()).toBe(201);
  const { lastSuccessAt } = (await syncStatus(request)).state;

  // The remote moves: stopped, then started on another port with the same data and key.
  await stop(remote);
  const restarted = await serve(remoteDir);
  remote = restarted.child;
  const newOrigin = consoleUrlOf(restarted.output).origin;
  expect(newOrigin).not.toBe(firstOrigin);

  await row.getByRole('button', { name: `Sync now ${slug}` }).click();
  await expect(row.getByTestId(`sync-state-${slug}`)).toHaveText('failed', { timeout: 30_000 });
  const error = row.getByTestId(`sync-error-${slug}`);
  await expect(error).toContainText(`The remote tenant could not be reached at ${firstOrigin} (connection refused: nothing listens there).`);
  await expect(error).toContainText(`Edit in the Organizations view, or "remediation-console orgs update --slug ${slug} --remote URL".`);
  await expect(error).toContainText('No sync has succeeded since');
  await expect(error).toContainText('Detail: GET /v1/scopes, 2 attempts.');
  await expect(error).not.toContainText('updatedSince');
  await screenshot(page, 'organizations-replica-moved');
  await expectAccessible(page);

  await row.getByRole('button', { name: `Edit ${slug}` }).click();
  const edit = page.getByRole('form', { name: `Edit Moving remote ${slug}` });
  await expect(edit.getByLabel('Remote URL')).toHaveValue(firstOrigin);
  await expect(edit.getByLabel('New remote API key (optional)')).toHaveValue('');
  await expect(edit.getByLabel('Name', { exact: true })).toHaveValue('Moving remote');

  // The same address typed with /v1/ keeps the stored key; a new address asks for its own.
  await edit.getByLabel('Remote URL').fill(`${firstOrigin}/v1/`);
  await expect(edit.getByLabel('New remote API key (optional)')).toBeVisible();
  await edit.getByLabel('Remote URL').fill(`${newOrigin}/v1/`);
  const key = edit.getByLabel('New remote API key (required)');
  const hint = 'A new address needs its key: the stored key is never sent to another address.';
  await expect(key).toHaveAccessibleDescription(hint);
  await expect(key).toHaveAttribute('aria-required', 'true');
  await screenshot(page, 'organizations-replica-new-address-needs-key');

  // Left empty, the key is asked for beside its field, and nothing is asked of the new address.
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(key).toHaveAccessibleDescription(`${hint} a new address needs its key: the stored key is never sent to another address`);
  await expect(row).toContainText(firstOrigin);

  // A wrong key is checked against the new address, and nothing is saved.
  await key.fill('rc_wrong');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByRole('alert')).toHaveText(
    `The remote tenant at ${newOrigin} refused the API key (401 Unauthorized). Check the key: it must be an API key of this remote tenant.`,
  );
  await expect(row).toContainText(firstOrigin);
  // A field's issue shows beside it.
  await edit.getByLabel('Remote URL').fill('ftp://example.com');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByLabel('Remote URL')).toHaveAccessibleDescription('must be an http or https URL without credentials, query or fragment');
  await expectAccessible(page);
  problems.splice(0, problems.length, ...problems.filter((problem) => !/status of (400|422|502)/.test(problem)));

  // The new address with the remote's key: saved, and a sync starts.
  await edit.getByLabel('Remote URL').fill(`${newOrigin}/v1/`);
  await key.fill(remoteKey);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Saved “Moving remote” (${slug}); its data stays, and its next sync uses the new settings.`)).toBeVisible();
  await expect(edit).toHaveCount(0);
  await expect(row.locator('.organizations-table__remote')).toHaveText(newOrigin);
  await expect(row.getByTestId(`sync-state-${slug}`)).toHaveText('idle', { timeout: 120_000 });
  await expect(row.getByTestId(`sync-error-${slug}`)).toHaveText('—');
  const state = (await syncStatus(request)).state;
  expect(state.lastError).toBeNull();
  expect(state.lastSuccessAt! > lastSuccessAt!).toBe(true);

  // The same replica: its data and its exception stayed.
  expect(((await app(request, `/orgs/${slug}/vulnerability-findings?limit=1`)) as { total: number }).total).toBe(findings.total);
  const exceptions = (await app(request, `/orgs/${slug}/exceptions`)) as { data: { note: string }[] };
  expect(exceptions.data.map((e) => e.note)).toEqual(['kept across the move']);
});
