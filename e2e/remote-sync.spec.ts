import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type HoldingProxy, startHoldingProxy } from './support/holding-proxy.js';
import type { SyncStatus } from '../contracts/console/sync.js';
import { expect, expectAccessible, listTotal, openConsole, screenshot, server, test } from './support/console-page.js';
import { consoleUrlOf, demoKeyOf, serve, stop } from './support/serve-process.js';

// The remote tenant is a second `serve` on its own data directory, with its generated demo
// organization (500 endpoints) and key. The console reaches it through a proxy that holds the
// endpoint pages after the first until the test releases them: the sync then stands at
// "Endpoints: 100 of 500" for as long as the test looks at it.
let remote: ChildProcess;
let remoteDir: string;
let remoteKey: string;
let proxy: HoldingProxy;
const slug = 'remote-demo';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  remoteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-e2e-remote-'));
  const started = await serve(remoteDir);
  remote = started.child;
  remoteKey = demoKeyOf(started.output);
  proxy = await startHoldingProxy(consoleUrlOf(started.output).origin, (url) => url.pathname === '/v1/endpoints' && Number(url.searchParams.get('offset')) >= 100);
});

test.afterAll(async () => {
  await proxy.close();
  await stop(remote);
  fs.rmSync(remoteDir, { recursive: true, force: true });
});

/** Keeps the browser's report of the failed requests a test caused on purpose out of its problems. */
function forgiveRefusals(problems: string[], statuses: number[]): void {
  const expected = new RegExp(`status of (${statuses.join('|')})`);
  expect(problems.filter((problem) => !expected.test(problem))).toEqual([]);
  problems.length = 0;
}

test('connects a remote tenant: inline errors, then the first sync with its progress, then the synced rows', async ({ page, problems }) => {
  await openConsole(page, '/orgs/demo/organizations');
  await expect(page.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
  await expect(page.getByTestId('no-replicas')).toBeVisible();
  await expect(page.getByTestId('organization-demo')).toContainText('local (demo)');

  const form = page.getByRole('form', { name: 'Connect a remote tenant' });
  await form.getByLabel('Remote URL').fill('ftp://example.com');
  await form.getByLabel('Remote API key').fill(remoteKey);
  await form.getByLabel('Slug').fill('Bad Slug');
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(form.getByLabel('Slug')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Slug')).toHaveAccessibleDescription('must be 1 to 40 lowercase letters, digits and inner hyphens');
  await expect(form.getByLabel('Remote URL')).toHaveAccessibleDescription('must be an http or https URL without credentials, query or fragment');
  await expect(form.getByLabel('Remote API key')).not.toHaveAttribute('aria-invalid');
  await expectAccessible(page);

  await form.getByLabel('Remote URL').fill(proxy.url);
  await form.getByLabel('Slug').fill(slug);
  await form.getByLabel('Remote API key').fill('rc_wrong');
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    `The remote tenant at ${proxy.url} refused the API key (401 Unauthorized). Check the key: it must be an API key of this remote tenant.`,
  );
  await expect(page.getByTestId(`organization-${slug}`)).toHaveCount(0);
  forgiveRefusals(problems, [422, 502]);

  await form.getByLabel('Remote API key').fill(remoteKey);
  await form.getByLabel('Name (optional)').fill('Remote demo');
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Connected “Remote demo” (remote-demo); its first sync has started.')).toBeVisible();
  await expect(form.getByLabel('Remote API key')).toHaveValue('');

  const row = page.getByTestId(`organization-${slug}`);
  await expect(row.getByTestId(`sync-state-${slug}`)).toContainText('running');
  await expect(row.getByTestId(`sync-progress-${slug}`)).toHaveText('Endpoints: 100 of 500');
  const bar = row.getByRole('progressbar', { name: `Sync progress of ${slug}` });
  await expect(bar).toHaveAttribute('value', '100');
  await expect(bar).toHaveAttribute('max', '500');
  await expect(row.getByRole('button', { name: `Sync now ${slug}` })).toBeDisabled();
  await expect(page.getByTestId('sync-indicator')).toHaveText(`Syncing ${slug}…`);
  expect(proxy.held()).toBeGreaterThan(0);
  await screenshot(page, 'organizations-syncing');
  await expectAccessible(page);

  // The replica's endpoints while its first sync is held: none yet; then, released, the list
  // fills without a reload when the sync ends.
  await page.getByLabel('Organization', { exact: true }).selectOption(slug);
  await expect(page).toHaveURL(new RegExp(`/orgs/${slug}/organizations$`));
  await page.getByRole('link', { name: 'Endpoints' }).click();
  await expect(page.getByText('No endpoints match these filters.')).toBeVisible();
  proxy.release();
  await expect(page.locator('.virtual-table__status').first()).toHaveText(/^500 rows/, { timeout: 120_000 });
  expect(await listTotal(page)).toBe(500);
  await expect(page.getByTestId('sync-indicator')).toHaveText('Replicas synced');

  await page.getByRole('link', { name: 'Organizations' }).click();
  await expect(row.getByTestId(`sync-state-${slug}`)).toHaveText('idle');
  await expect(row.getByTestId(`sync-error-${slug}`)).toHaveText('—');
  await expect(row).not.toContainText('Never');
});

test('runs an incremental sync with Sync now and a full one with Full sync', async ({ page, request }) => {
  const status = async () =>
    (await (await request.get(`${server.baseUrl}/app/orgs/${slug}/sync`, { headers: { 'x-console-script-token': server.scriptToken } })).json()) as SyncStatus;
  /** Clicks the button, then waits for the sync it started to end; answers the mode it ran in. */
  const syncModeOf = async (button: string) => {
    const before = (await status()).state.lastAttemptAt;
    await page.getByRole('button', { name: `${button} ${slug}` }).click();
    await expect.poll(async () => {
      const now = await status();
      return !now.running && now.state.lastAttemptAt !== before;
    }, { timeout: 60_000 }).toBe(true);
    const { state } = await status();
    expect(state.lastError).toBeNull();
    return state.lastSuccessMode;
  };

  await openConsole(page, '/orgs/demo/organizations');
  expect(await syncModeOf('Sync now')).toBe('incremental');
  expect(await syncModeOf('Full sync')).toBe('full');
  await expect(page.getByTestId(`sync-state-${slug}`)).toHaveText('idle');
});

test("shows a failed sync's reason when the remote is stopped, then disconnects the replica", async ({ page }) => {
  await proxy.close();
  await stop(remote);
  await openConsole(page, `/orgs/demo/organizations`);
  const row = page.getByTestId(`organization-${slug}`);
  await row.getByRole('button', { name: `Sync now ${slug}` }).click();
  // A refused connection is retried once, shortly, before the sync gives up.
  await expect(row.getByTestId(`sync-state-${slug}`)).toContainText('failed', { timeout: 90_000 });
  await expect(row.getByTestId(`sync-error-${slug}`)).toContainText(`The remote tenant could not be reached at ${proxy.url}`);
  await expect(page.getByTestId('sync-indicator')).toHaveText(`Sync failed: ${slug}`);
  await screenshot(page, 'organizations-sync-failed');
  await expectAccessible(page);

  // Paused, a failing replica is left alone (no sync at start or on the schedule) until resumed;
  // it can be disconnected all the same.
  await row.getByRole('button', { name: `Pause syncs ${slug}` }).click();
  await expect(row.getByTestId(`sync-paused-${slug}`)).toHaveText('Syncs paused: none runs at start or on the schedule');
  await row.getByRole('button', { name: `Resume syncs ${slug}` }).click();
  await expect(row.getByTestId(`sync-paused-${slug}`)).toHaveCount(0);
  await row.getByRole('button', { name: `Pause syncs ${slug}` }).click();
  await expect(row.getByRole('button', { name: `Resume syncs ${slug}` })).toBeVisible();
  await expectAccessible(page);

  await row.getByRole('button', { name: `Disconnect ${slug}` }).click();
  const confirm = row.getByRole('button', { name: `Confirm disconnect ${slug}` });
  await expect(confirm).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('no-replicas')).toBeVisible();
  await expect(page.getByLabel('Organization', { exact: true }).locator('option')).toHaveText([/^Demo/i, /^Second$/]);
});
