import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { columnTexts, expect, expectAccessible, listTotal, screenshot, test } from './support/console-page.js';
import { cli, consoleUrlOf, demoKeyOf, namedConsoleUrlOf, root, serve, stop } from './support/serve-process.js';

// The console session of DESIGN section 4, on a `serve` of this file's own, restarted midway:
// a browser opens the printed link once and then opens any bookmarked view, in any tab, across
// a restart; the link does nothing for another browser, which gets its own from `console-url`.
// The link names the data directory's host under `.localhost`, which Chromium resolves to
// loopback by itself (no host-resolver flag: playwright.config.ts passes none); Node does not,
// so requests from here go to the 127.0.0.1 address `serve` also prints (`loopback`).
let dataDir = '';
let child: ChildProcess | undefined;
let link: URL;
let loopback = '';
let demoKey = '';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-e2e-session-'));
  const started = await serve(dataDir);
  child = started.child;
  link = namedConsoleUrlOf(started.output);
  loopback = consoleUrlOf(started.output).origin;
  demoKey = demoKeyOf(started.output);
});

test.afterAll(async () => {
  if (child) await stop(child);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const bookmark = '/orgs/demo/endpoints?osFamily=linux';

/** The number of Linux endpoints /v1 answers with the demo's key: what the bookmarked view must count. */
async function linuxEndpoints(): Promise<number> {
  const response = await fetch(`${loopback}/v1/endpoints?osFamily=linux&limit=1`, { headers: { Authorization: `Bearer ${demoKey}` } });
  return ((await response.json()) as { total: number }).total;
}

/** Expects the bookmarked view: the Linux endpoints, as many as /v1 has, each with a Linux system. */
async function expectLinuxEndpoints(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Endpoints' })).toBeVisible();
  await expect(page.getByLabel('OS family')).toHaveValue('linux');
  expect(await listTotal(page)).toBe(await linuxEndpoints());
  for (const system of await columnTexts(page.getByRole('grid', { name: 'Endpoints' }), 2)) {
    expect(system).toMatch(/^(Ubuntu|Debian GNU\/Linux|Red Hat Enterprise Linux) /);
  }
}

/**
 * Expects a page without a session to say how to get a new link in a command its reader can
 * paste, whether the product is installed or a checkout (which has no `remediation-console`).
 */
async function expectNewLinkHint(page: Page): Promise<void> {
  const hint = page.getByText(/one-time link/);
  await expect(hint.locator('code').filter({ hasText: /^remediation-console console-url$/ })).toBeVisible();
  await expect(hint.locator('code').filter({ hasText: /^npm run cli -- console-url$/ })).toBeVisible();
  await expect(hint).toContainText('from a checkout of the project, in its folder');
}

/** A browser of its own: no cookie of the test's other pages. */
async function otherBrowser(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test('the link opens a session once; a second tab opens a bookmark, and so does the browser after serve restarts', async ({ page, browser }) => {
  await page.goto(link.href);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect(page.url()).not.toContain('token');

  expect(link.hostname).toMatch(/^rc-[0-9a-f]{12}\.localhost$/);
  const [cookie, ...others] = await page.context().cookies();
  expect(others).toEqual([]);
  // Host-only: kept for the console's own name (no Domain attribute, so no leading dot).
  expect(cookie).toMatchObject({ name: expect.stringMatching(/^rc_session_/), domain: link.hostname, httpOnly: true, sameSite: 'Strict', path: '/', secure: false });
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
  expect(await page.evaluate(() => document.cookie)).toBe('');

  const secondTab = await page.context().newPage();
  await secondTab.goto(`${link.origin}${bookmark}`);
  await expectLinuxEndpoints(secondTab);
  await secondTab.reload();
  await expectLinuxEndpoints(secondTab);

  // The same link in another browser: used up.
  const stranger = await otherBrowser(browser);
  await stranger.goto(link.href);
  await expect(stranger.getByRole('alert')).toContainText('This console link was already used');
  await expect(stranger.getByRole('alert')).toContainText('"remediation-console console-url" (from a checkout, in its folder: "npm run cli -- console-url")');
  await expectNewLinkHint(stranger);
  expect(stranger.url()).not.toContain('token');

  // Restarted on the same port, so that the bookmark is the very same URL.
  await stop(child!);
  child = undefined;
  const restarted = await serve(dataDir, Number(link.port));
  child = restarted.child;
  const origin = namedConsoleUrlOf(restarted.output).origin;
  expect(origin).toBe(link.origin);
  loopback = consoleUrlOf(restarted.output).origin;
  const afterRestart = await page.context().newPage();
  await afterRestart.goto(`${origin}${bookmark}`);
  await expectLinuxEndpoints(afterRestart);

  // The other browser gets a link of its own while serve runs.
  const onDemand = execFileSync(process.execPath, [cli, 'console-url', '--data-dir', dataDir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  expect(new URL(onDemand).origin).toBe(origin);
  await stranger.goto(onDemand.replace(/\/#/, `${bookmark.replace(/\?.*/, '')}#`));
  await expect(stranger.getByRole('heading', { level: 1, name: 'Endpoints' })).toBeVisible();
  expect(stranger.url()).toBe(`${origin}/orgs/demo/endpoints`);

  // Signing out ends that browser's session everywhere: its cookie is dropped, a copy of it is
  // refused, and a reload of the bookmark says how to open one again.
  const [copied] = await stranger.context().cookies();
  expect(await organizationsWith(copied!)).toBe(200);
  await stranger.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(stranger.getByText('This browser has no console session.')).toBeVisible();
  await expectNewLinkHint(stranger);
  await screenshot(stranger, 'signed-out');
  expect(await stranger.context().cookies()).toEqual([]);
  expect(await organizationsWith(copied!)).toBe(401);
  await stranger.goto(`${origin}${bookmark}`);
  await expect(stranger.getByText('This browser has no console session.')).toBeVisible();
  await expect(stranger.getByRole('heading', { level: 1, name: 'Endpoints' })).toHaveCount(0);
  // The first browser keeps its own.
  await afterRestart.reload();
  await expectLinuxEndpoints(afterRestart);
  await stranger.context().close();
});

/** What /app answers a request carrying `cookie` (as a copy of it would be sent from anywhere). */
async function organizationsWith(cookie: { name: string; value: string }): Promise<number> {
  return (await fetch(`${loopback}/app/organizations`, { headers: { cookie: `${cookie.name}=${cookie.value}` } })).status;
}

/** A new console link from `console-url`, while serve runs: under the console's name, and its 127.0.0.1 form. */
function newLink(): { named: string; loopback: string } {
  const run = execFileSync(process.execPath, [cli, 'console-url', '--data-dir', dataDir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const named = run.trim();
  return { named, loopback: named.replace(/^http:\/\/[^/]+/, loopback) };
}

/** A plain HTTP server on another port of 127.0.0.1 that records the Cookie header of each request, as another local service would see it. */
async function otherLocalService(): Promise<{ port: number; cookies: (string | undefined)[]; close: () => Promise<void> }> {
  const cookies: (string | undefined)[] = [];
  const other = http.createServer((req, res) => {
    cookies.push(req.headers.cookie);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>another service</title><p>another service</p>');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  return {
    port: (other.address() as AddressInfo).port,
    cookies,
    close: () => new Promise<void>((resolve) => other.close(() => resolve())),
  };
}

test("the session's cookie is not sent to another port of 127.0.0.1 or localhost; a session opened at 127.0.0.1 is, as the docs warn", async ({ page, browser }) => {
  const other = await otherLocalService();
  try {
    const named = newLink().named;
    await page.goto(named);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const [cookie] = await page.context().cookies();
    expect(cookie!.domain).toBe(link.hostname);
    for (const host of ['127.0.0.1', 'localhost']) {
      await page.goto(`http://${host}:${other.port}/`);
      await expect(page.getByText('another service')).toBeVisible();
    }
    expect(other.cookies.length).toBeGreaterThanOrEqual(2); // the pages, and the favicons Chromium asks for
    for (const sent of other.cookies) expect(sent ?? '').not.toContain(cookie!.name);

    // The fallback: the same kind of link at 127.0.0.1 gives a cookie that every port of 127.0.0.1 receives.
    const fallback = await (await browser.newContext()).newPage();
    await fallback.goto(newLink().loopback);
    await expect(fallback.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await fallback.goto(`http://127.0.0.1:${other.port}/`);
    expect(other.cookies.at(-1)).toContain(`${cookie!.name}=`);
    await fallback.context().close();
  } finally {
    await other.close();
  }
});

test('the Sessions view lists the sessions, this one marked, and signs out all the others', async ({ page, browser }) => {
  await page.goto(newLink().named);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const elsewhere = await otherBrowser(browser);
  await elsewhere.goto(newLink().named);
  await expect(elsewhere.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  await page.getByRole('link', { name: 'Sessions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Sessions and script tokens' });
  const current = table.locator('tr[aria-current="true"]');
  await expect(current).toHaveCount(1);
  await expect(current).toContainText('This browser');
  await expect(current).toContainText('Chrome');
  const rows = table.locator('tbody tr');
  expect(await rows.count()).toBeGreaterThanOrEqual(2);
  await expectAccessible(page);
  await screenshot(page, 'sessions');

  await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
  await expect(page.getByRole('status')).toContainText(/Signed out \d+ sessions?\./);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('aria-current', 'true');

  await elsewhere.reload();
  await expect(elsewhere.getByText('This browser has no console session.')).toBeVisible();
  // This browser keeps its session.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  await elsewhere.context().close();
});
