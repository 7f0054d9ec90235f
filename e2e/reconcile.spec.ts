import type { APIRequestContext } from '@playwright/test';
import type { SyncStatus } from '../contracts/console/sync.js';
import { type FakeRemote, startFakeRemote } from '../server/test/support/fake-remote.js';
import { sampleInventory } from '../server/test/support/sample-inventory.js';
import { expect, expectAccessible, openConsole, screenshot, server, test } from './support/console-page.js';

// A replica of the sync tests' fake remote (in this process), which the test re-seeds with as
// many findings, some of them no longer open, and older timestamps: what an incremental sync
// never sees. Connected through /app, disconnected at the end (the e2e server is shared).
let remote: FakeRemote;
const slug = 'reseeded';
const headers = () => ({ 'x-console-script-token': server.scriptToken, origin: server.baseUrl });

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async ({ request }) => {
  remote = await startFakeRemote({ inventory: sampleInventory({ endpoints: 30, targetsPerEndpoint: 3, findingsPerTarget: 3, scopes: 5 }) });
  const connected = await request.post(`${server.baseUrl}/app/organizations`, {
    headers: headers(),
    data: { slug, name: 'Re-seeded tenant', remoteUrl: remote.url, apiKey: remote.apiKey },
  });
  expect(connected.status()).toBe(201);
  await expect.poll(async () => (await syncStatus(request)).state.lastSuccessAt, { timeout: 60_000 }).not.toBeNull();
});

test.afterAll(async ({ request }) => {
  await request.delete(`${server.baseUrl}/app/orgs/${slug}`, { headers: headers() });
  await remote.close();
});

const syncStatus = async (request: APIRequestContext) =>
  (await (await request.get(`${server.baseUrl}/app/orgs/${slug}/sync`, { headers: headers() })).json()) as SyncStatus;

/** Waits until a sync that started after `before` (a last attempt) has ended; answers its status. */
async function nextSyncEnded(request: APIRequestContext, before: string | null): Promise<SyncStatus> {
  await expect.poll(async () => {
    const status = await syncStatus(request);
    return !status.running && status.state.lastAttemptAt !== before;
  }, { timeout: 60_000 }).toBe(true);
  return syncStatus(request);
}

test('Sync now after the remote was re-seeded with older timestamps: the totals differ, the replica is reconciled, and the view says when', async ({ page, request }) => {
  await openConsole(page, '/orgs/demo/organizations');
  const row = page.getByTestId(`organization-${slug}`);
  const reconcile = row.getByTestId(`reconcile-${slug}`);
  // The first, full, sync replaced the whole replica: it counts as reconciled and matched.
  await expect(reconcile).toContainText('Reconciled:');
  await expect(reconcile).not.toContainText('not yet');

  const { inventory } = remote.options;
  let flipped = 0;
  inventory.findings = inventory.findings.map((finding) =>
    finding.status === 'open' && flipped++ % 4 === 0
      ? { ...finding, status: 'remediated', remediated_at: '2020-01-01T00:00:00Z', updated_at: '2020-01-01T00:00:00Z' }
      : { ...finding, updated_at: '2020-01-01T00:00:00Z' },
  );
  const open = inventory.findings.filter((finding) => finding.status === 'open').length;

  const before = (await syncStatus(request)).state.lastAttemptAt;
  await row.getByRole('button', { name: `Sync now ${slug}` }).click();
  const { state } = await nextSyncEnded(request, before);
  expect(state).toMatchObject({ lastSuccessMode: 'reconcile', lastError: null, lastReconcileChanged: inventory.findings.length, countDifferences: [] });
  await expect(reconcile).toContainText(`(${inventory.findings.length} differences fixed)`);
  await expect(reconcile).toContainText('Matched its remote:');
  await expect(reconcile).not.toContainText('not yet');
  const replicaOpen = await request.get(`${server.baseUrl}/app/orgs/${slug}/vulnerability-findings?status=open&limit=1`, { headers: headers() });
  expect(((await replicaOpen.json()) as { total: number }).total).toBe(open);
  await screenshot(page, 'organizations-reconciled');
  await expectAccessible(page);
});

test('Reconcile now finds nothing different; the interval is saved; the dashboard of the replica shows when it matched', async ({ page, request }) => {
  await openConsole(page, '/orgs/demo/organizations');
  const row = page.getByTestId(`organization-${slug}`);
  const before = (await syncStatus(request)).state.lastAttemptAt;
  await row.getByRole('button', { name: `Reconcile now ${slug}` }).click();
  expect((await nextSyncEnded(request, before)).state).toMatchObject({ lastSuccessMode: 'reconcile', lastReconcileChanged: 0 });
  await expect(row.getByTestId(`reconcile-${slug}`)).toContainText('(no difference)');

  const interval = row.getByLabel(`Reconcile interval of ${slug} in hours`);
  await expect(interval).toHaveValue('24');
  await interval.fill('6');
  await row.getByRole('button', { name: `Save the reconcile interval of ${slug}` }).click();
  await expect.poll(async () => (await syncStatus(request)).state.reconcileIntervalHours).toBe(6);
  await expect(interval).toHaveValue('6');

  await page.goto(`${server.baseUrl}/orgs/${slug}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByTestId(`reconcile-${slug}`)).toContainText('(no difference)');
  await expect(page.getByTestId(`reconcile-${slug}`)).toContainText('Matched its remote:');
  await expectAccessible(page);
  await page.goto(`${server.baseUrl}/orgs/demo`);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByTestId('reconcile-demo')).toHaveCount(0);
});
