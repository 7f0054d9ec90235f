import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { columnTexts, expect, listTotal, test } from './support/console-page.js';
import { cli, consoleUrlOf, demoKeyOf, root, serve, stop } from './support/serve-process.js';

// The console session of DESIGN section 4, on a `serve` of this file's own, restarted midway:
// a browser opens the printed link once and then opens any bookmarked view, in any tab, across
// a restart; the link does nothing for another browser, which gets its own from `console-url`.
let dataDir = '';
let child: ChildProcess | undefined;
let link: URL;
let demoKey = '';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-e2e-session-'));
  const started = await serve(dataDir);
  child = started.child;
  link = consoleUrlOf(started.output);
  demoKey = demoKeyOf(started.output);
});

test.afterAll(async () => {
  if (child) await stop(child);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const bookmark = '/orgs/demo/endpoints?osFamily=linux';

/** The number of Linux endpoints /v1 answers with the demo's key: what the bookmarked view must count. */
async function linuxEndpoints(origin: string): Promise<number> {
  const response = await fetch(`${origin}/v1/endpoints?osFamily=linux&limit=1`, { headers: { Authorization: `Bearer ${demoKey}` } });
  return ((await response.json()) as { total: number }).total;
}

/** Expects the bookmarked view: the Linux endpoints, as many as /v1 has, each with a Linux system. */
async function expectLinuxEndpoints(page: Page, origin: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Endpoints' })).toBeVisible();
  await expect(page.getByLabel('OS family')).toHaveValue('linux');
  expect(await listTotal(page)).toBe(await linuxEndpoints(origin));
  for (const system of await columnTexts(page.getByRole('grid', { name: 'Endpoints' }), 3)) {
    expect(system).toMatch(/^(Ubuntu|Debian GNU\/Linux|Red Hat Enterprise Linux) /);
  }
}

/** A browser of its own: no cookie of the test's other pages. */
async function otherBrowser(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test('the link opens a session once; a second tab opens a bookmark, and so does the browser after serve restarts', async ({ page, browser }) => {
  await page.goto(link.href);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect(page.url()).not.toContain('token');

  const [cookie, ...others] = await page.context().cookies();
  expect(others).toEqual([]);
  expect(cookie).toMatchObject({ name: expect.stringMatching(/^rc_session_/), httpOnly: true, sameSite: 'Strict', path: '/', secure: false });
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
  expect(await page.evaluate(() => document.cookie)).toBe('');

  const secondTab = await page.context().newPage();
  await secondTab.goto(`${link.origin}${bookmark}`);
  await expectLinuxEndpoints(secondTab, link.origin);
  await secondTab.reload();
  await expectLinuxEndpoints(secondTab, link.origin);

  // The same link in another browser: used up.
  const stranger = await otherBrowser(browser);
  await stranger.goto(link.href);
  await expect(stranger.getByRole('alert')).toContainText('This console link was already used');
  await expect(stranger.getByText(/one-time link/)).toContainText('remediation-console console-url');
  expect(stranger.url()).not.toContain('token');

  // Restarted on the same port, so that the bookmark is the very same URL.
  await stop(child!);
  child = undefined;
  const restarted = await serve(dataDir, Number(link.port));
  child = restarted.child;
  const origin = consoleUrlOf(restarted.output).origin;
  const afterRestart = await page.context().newPage();
  await afterRestart.goto(`${origin}${bookmark}`);
  await expectLinuxEndpoints(afterRestart, origin);

  // The other browser gets a link of its own while serve runs.
  const onDemand = execFileSync(process.execPath, [cli, 'console-url', '--data-dir', dataDir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  expect(new URL(onDemand).origin).toBe(origin);
  await stranger.goto(onDemand.replace(/\/#/, `${bookmark.replace(/\?.*/, '')}#`));
  await expect(stranger.getByRole('heading', { level: 1, name: 'Endpoints' })).toBeVisible();
  expect(stranger.url()).toBe(`${origin}/orgs/demo/endpoints`);

  // Signing out ends that browser's session: its cookie is dropped, and a reload of the bookmark says how to open one again.
  await stranger.getByRole('button', { name: 'Sign out' }).click();
  await expect(stranger.getByText('This browser has no console session.')).toBeVisible();
  expect(await stranger.context().cookies()).toEqual([]);
  await stranger.goto(`${origin}${bookmark}`);
  await expect(stranger.getByText('This browser has no console session.')).toBeVisible();
  await expect(stranger.getByRole('heading', { level: 1, name: 'Endpoints' })).toHaveCount(0);
  // The first browser keeps its own.
  await afterRestart.reload();
  await expectLinuxEndpoints(afterRestart, origin);
  await stranger.context().close();
});
