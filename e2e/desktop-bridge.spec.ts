import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { DesktopBridge } from '../contracts/desktop/desktop-bridge.js';
import { consoleNavigationScript } from '../app/main/show-console-path.js';
import { keyFileSealer } from '../server/secrets/key-file-sealer.js';
import { type ConsoleServer, startConsoleServer } from '../server/start-console-server.js';
import { expect, test } from './support/console-page.js';

// The console as the desktop window runs it: with `window.desktop` (contracts/desktop/desktop-bridge.ts)
// instead of a token in the URL and browser downloads. The bridge is played here as the preload
// and main process play it: saveFile fetches its source with the console token, as the main
// process does before it shows the save dialog, and answers as the dialog's outcome says.
// Where an Electron runtime exists, e2e-electron/ runs the same flows in the real app.
// The server is started here as the desktop app starts it (startConsoleServer, with the demo
// organization), for its run's console token: `x-console-token` takes nothing else.

let dataDir = '';
let desktop: ConsoleServer;
const server = {
  get baseUrl() {
    return desktop.server.url;
  },
};

test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-e2e-desktop-'));
  desktop = await startConsoleServer({ dataDir, port: 0, sealer: (dir) => keyFileSealer(path.join(dir, 'sealing.key')), command: 'e2e desktop bridge' });
});

test.afterAll(async () => {
  await desktop?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface BridgeCall {
  method: 'saveFile' | 'revealInFolder';
  argument: unknown;
  /** For saveFile: what the console's server answered for the source. */
  status?: number;
  bytes?: number;
}

declare global {
  interface Window {
    desktop?: DesktopBridge;
    bridgeCalls: BridgeCall[];
    /** What the next save ends in: the path picked, a cancelled dialog, or a file that could not be written. */
    saveDialogAnswer: { filePath: string } | 'cancel' | { writeError: string };
  }
}

async function openDesktopConsole(page: Page, viewPath: string): Promise<void> {
  await page.addInitScript(
    ({ consoleToken, apiBaseUrl }) => {
      window.bridgeCalls = [];
      window.saveDialogAnswer = 'cancel';
      window.desktop = {
        consoleToken,
        apiBaseUrl,
        appVersion: '0.1.0',
        async saveFile(request) {
          const response = await fetch(request.source.path, { headers: { 'x-console-token': consoleToken } });
          const body = await response.arrayBuffer();
          window.bridgeCalls.push({ method: 'saveFile', argument: request, status: response.status, bytes: body.byteLength });
          if (!response.ok) return { saved: false, reason: 'failed', message: (JSON.parse(new TextDecoder().decode(body)) as { error: string }).error };
          const answer = window.saveDialogAnswer;
          if (answer === 'cancel') return { saved: false, reason: 'cancelled' };
          if ('writeError' in answer) return { saved: false, reason: 'failed', message: answer.writeError };
          return { saved: true, path: answer.filePath };
        },
        async revealInFolder(path) {
          window.bridgeCalls.push({ method: 'revealInFolder', argument: path });
        },
      };
    },
    { consoleToken: desktop.consoleToken, apiBaseUrl: server.baseUrl },
  );
  // No #token= fragment: the token comes from the bridge alone.
  await page.goto(`${server.baseUrl}${viewPath}`);
}

const bridgeCalls = (page: Page) => page.evaluate(() => window.bridgeCalls);

test('takes its token from the bridge and saves an agent config through the save dialog', async ({ page }) => {
  await openDesktopConsole(page, '/orgs/demo/agent-config');
  await page.getByLabel('Profile').selectOption('mdm-permissions');
  await page.evaluate(() => (window.saveDialogAnswer = { filePath: '/home/admin/Desktop/demo.mobileconfig' }));
  await page.getByRole('button', { name: 'Save…' }).click();
  await expect(page.getByRole('status')).toContainText('Saved to /home/admin/Desktop/demo.mobileconfig');

  const [save] = await bridgeCalls(page);
  expect(save).toMatchObject({
    method: 'saveFile',
    argument: {
      suggestedName: 'remediation-agent-demo-macos-mdm-permissions.mobileconfig',
      filters: [{ name: 'Configuration profile', extensions: ['mobileconfig'] }],
      source: { path: '/app/orgs/demo/agent-config?platform=macos&profile=mdm-permissions' },
    },
    status: 200,
  });
  expect(save!.bytes).toBeGreaterThan(1000);

  await page.getByRole('button', { name: 'Show in folder' }).click();
  await expect.poll(async () => (await bridgeCalls(page)).at(-1)).toEqual({ method: 'revealInFolder', argument: '/home/admin/Desktop/demo.mobileconfig' });
});

test('a cancelled save says nothing; one that failed says why', async ({ page }) => {
  await openDesktopConsole(page, '/orgs/demo/agent-config');
  await page.getByRole('button', { name: 'Save…' }).click();
  await expect.poll(async () => (await bridgeCalls(page)).length).toBe(1);
  await expect(page.getByRole('button', { name: 'Save…' })).toBeEnabled();
  await expect(page.getByRole('status')).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);

  await page.evaluate(() => (window.saveDialogAnswer = { writeError: 'Could not write /media/usb/demo.zip: EACCES: permission denied' }));
  await page.getByRole('button', { name: 'Save…' }).click();
  await expect(page.getByRole('alert')).toHaveText('Could not write /media/usb/demo.zip: EACCES: permission denied');
  await expect(page.getByRole('status')).toHaveCount(0);
});

test('exports a list as CSV through the save dialog', async ({ page }) => {
  await openDesktopConsole(page, '/orgs/demo/scopes?status=active');
  await page.evaluate(() => (window.saveDialogAnswer = { filePath: '/home/admin/scopes.csv' }));
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await expect.poll(async () => (await bridgeCalls(page)).length).toBe(1);
  const [save] = await bridgeCalls(page);
  expect(save).toMatchObject({
    argument: { suggestedName: 'demo-scopes.csv', filters: [{ name: 'CSV', extensions: ['csv'] }], source: { path: expect.stringMatching(/^\/app\/orgs\/demo\/.*status=active/) } },
    status: 200,
  });
});

test("the desktop menu's navigation moves the console within its page, and Back returns", async ({ page }) => {
  await openDesktopConsole(page, '/orgs/demo/endpoints');
  await expect(page.getByRole('heading', { level: 1, name: 'Endpoints' })).toBeVisible();
  await page.evaluate(() => Object.assign(window, { samePage: true }));
  // What View → Scopes runs in the window (app/main/show-console-path.ts).
  await page.evaluate(consoleNavigationScript('/orgs/demo/scopes'));
  await expect(page.getByRole('heading', { level: 1, name: 'Scopes' })).toBeVisible();
  expect(page.url()).toBe(`${server.baseUrl}/orgs/demo/scopes`);
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Endpoints' })).toBeVisible();
  expect(await page.evaluate(() => 'samePage' in window)).toBe(true);
});
