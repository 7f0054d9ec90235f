import type { APIRequestContext, Page } from '@playwright/test';
import type { SyncChangesList } from '../contracts/console/sync-changes.js';
import type { SyncStatus } from '../contracts/console/sync.js';
import type { VulnerabilityFinding } from '../contracts/vulnerability-finding.js';
import { type FakeRemote, startFakeRemote } from '../server/test/support/fake-remote.js';
import { sampleInventory } from '../server/test/support/sample-inventory.js';
import { expect, expectAccessible, openConsole, screenshot, server, test } from './support/console-page.js';

// A replica of a remote whose changes the test makes: the fake remote of the sync tests, in
// this process, connected to the e2e server through /app and disconnected at the end.
let remote: FakeRemote;
const slug = 'changing';
const headers = () => ({ 'x-console-script-token': server.scriptToken });

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async ({ request }) => {
  remote = await startFakeRemote({ inventory: sampleInventory({ endpoints: 30, targetsPerEndpoint: 3, findingsPerTarget: 3, scopes: 5 }) });
  const connected = await request.post(`${server.baseUrl}/app/organizations`, {
    headers: headers(),
    data: { slug, name: 'Changing tenant', remoteUrl: remote.url, apiKey: remote.apiKey },
  });
  expect(connected.status()).toBe(201);
  await syncEnded(request);
});

test.afterAll(async ({ request }) => {
  await request.delete(`${server.baseUrl}/app/orgs/${slug}`, { headers: headers() });
  await remote.close();
});

/** Waits until the replica's sync has ended, without error. */
async function syncEnded(request: APIRequestContext): Promise<void> {
  await expect
    .poll(async () => {
      const status = (await (await request.get(`${server.baseUrl}/app/orgs/${slug}/sync`, { headers: headers() })).json()) as SyncStatus;
      return !status.running && status.state.lastSuccessAt !== null;
    }, { timeout: 60_000 })
    .toBe(true);
}

/** The remote's next day: `kev` open findings become KEV, one open finding is remediated, an endpoint is renamed. */
function changeRemote(kev: number): void {
  const now = new Date().toISOString();
  const { inventory } = remote.options;
  const change = (pick: (finding: VulnerabilityFinding) => boolean, update: Partial<VulnerabilityFinding>, count: number) => {
    for (let i = 0, made = 0; i < inventory.findings.length && made < count; i++) {
      if (inventory.findings[i]!.updated_at === now || !pick(inventory.findings[i]!)) continue;
      inventory.findings[i] = { ...inventory.findings[i]!, ...update, updated_at: now };
      made++;
    }
  };
  change((f) => f.status === 'open' && f.severity !== 'critical' && !f.is_kev, { is_kev: true }, kev);
  change((f) => f.status === 'open', { status: 'remediated', remediated_at: now }, 1);
  inventory.endpoints[3] = { ...inventory.endpoints[3]!, hostname: `renamed-${inventory.endpoints[3]!.hostname}`, updated_at: now };
}

async function latestChanges(page: Page) {
  const answer = await page.request.get(`${server.baseUrl}/app/orgs/${slug}/sync-changes`, { headers: headers() });
  return ((await answer.json()) as SyncChangesList).data[0]!;
}

test("lists a replica's first sync in its Changes view, reached from the Organizations view; a local organization has none", async ({ page }) => {
  await openConsole(page, '/orgs/demo/organizations');
  await expect(page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Changes' })).toHaveCount(0);
  await screenshot(page, 'organizations-changes-link');
  await page.getByTestId(`organization-${slug}`).getByRole('link', { name: `Changes of ${slug}` }).click();
  await expect(page).toHaveURL(new RegExp(`/orgs/${slug}/changes$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Changes' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Changes' })).toHaveAttribute('aria-current', 'page');
  const syncs = page.getByRole('list', { name: 'Syncs' }).getByRole('listitem');
  await expect(syncs).toHaveCount(1);
  await expect(syncs.first()).toContainText('Full sync');
  await expect(syncs.first()).toContainText('First sync');
  await expect(syncs.first().getByRole('row', { name: /^Endpoints/ })).toHaveText(/Endpoints\s*30\s*0\s*0/);
  await expect(syncs.first()).toContainText('no finding is listed as newly open');
  await expectAccessible(page);

  await openConsole(page, '/orgs/demo/changes');
  await expect(page.getByText('“Demo Organization (generated data)” is a local organization')).toBeVisible();
});

test('shows a banner when a sync brings new critical or KEV findings, which opens that sync in the Changes view', async ({ page }) => {
  await openConsole(page, '/orgs/demo');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  changeRemote(2);
  await page.request.post(`${server.baseUrl}/app/orgs/${slug}/sync`, { headers: headers() });
  await syncEnded(page.request);
  const changes = await latestChanges(page);
  expect(changes).toMatchObject({ mode: 'incremental', newlyOpen: { total: 2, kev: 2 }, remediated: { total: 1 } });

  // The console sees the sync at its next poll (once a minute while idle): a reload asks at once.
  await page.reload();
  const banner = page.getByTestId(`sync-alert-${slug}`);
  await expect(banner).toContainText('2 new critical or KEV findings in Changing tenant');
  await expect(banner).toContainText("(0 critical, 2 in CISA's KEV catalog)");
  await screenshot(page, 'sync-alert-banner');
  await expectAccessible(page);

  await banner.getByRole('link', { name: 'See what the sync changed' }).click();
  await expect(page).toHaveURL(new RegExp(`/orgs/${slug}/changes\\?sync=${changes.id}$`));
  await expect(banner).toHaveCount(0);
  const selected = page.locator(`#sync-${changes.id}`);
  await expect(selected).toHaveClass(/sync-change--selected/);
  await expect(selected).toContainText('Incremental sync');
  await expect(selected.getByRole('row', { name: /^Vulnerability findings/ })).toHaveText(/Vulnerability findings\s*0\s*3\s*0/);
  await expect(selected.getByRole('heading', { name: /^Newly open critical or KEV: 2/ })).toContainText('0 critical, 2 KEV');
  await expect(selected.getByRole('heading', { name: 'Remediated: 1' })).toBeVisible();
  // The first sync is there too, closed.
  await expect(page.getByRole('list', { name: 'Syncs' }).getByRole('listitem')).toHaveCount(2);
  await screenshot(page, 'sync-changes');
  await expectAccessible(page);

  const finding = changes.newlyOpen.findings[0]!;
  await selected.getByRole('link', { name: finding.cve_id }).first().click();
  await expect(page).toHaveURL(new RegExp(`/orgs/${slug}/vulnerability-findings/${finding.id}$`));
  await page.goBack();
  await selected.getByRole('link', { name: finding.endpoint_hostname! }).first().click();
  await expect(page).toHaveURL(new RegExp(`/orgs/${slug}/endpoints/${finding.endpoint_id}$`));
});

test('remembers a dismissed banner across reloads', async ({ page }) => {
  changeRemote(1);
  await page.request.post(`${server.baseUrl}/app/orgs/${slug}/sync`, { headers: headers() });
  await syncEnded(page.request);
  await openConsole(page, '/orgs/demo/endpoints');
  const banner = page.getByTestId(`sync-alert-${slug}`);
  await expect(banner).toContainText('1 new critical or KEV finding in Changing tenant');
  // Above a list view, which takes the rest of the window's height.
  await expect(page.locator('.virtual-table__status').first()).toContainText('rows');
  await screenshot(page, 'sync-alert-banner-list');
  await banner.getByRole('button', { name: 'Dismiss the news of Changing tenant' }).click();
  await expect(banner).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Endpoints' })).toBeVisible();
  await expect(banner).toHaveCount(0);
});
