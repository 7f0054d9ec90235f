import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { _electron as electron, type ElectronApplication, expect, type Page, test } from '@playwright/test';
import { findElectronRuntime } from '../app/electron-runtime.mjs';
import type { DesktopBridge } from '../contracts/desktop/desktop-bridge.js';

const executablePath = findElectronRuntime();
const hasElectron = executablePath !== undefined;
const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

declare global {
  interface Window {
    desktop?: DesktopBridge;
  }
}

test.describe('the desktop app', () => {
  test.skip(
    !hasElectron,
    'No Electron runtime on this machine: its binary is not installed and cannot be downloaded here, so the desktop app cannot launch. ' +
      'The console itself is covered by e2e/ against the headless server; the main process by `npx vitest run app/`.',
  );

  let app: ElectronApplication;
  let page: Page;
  let dataDir: string;

  test.beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'remediation-console-electron-'));
    app = await electron.launch({
      executablePath,
      args: [repositoryRoot],
      env: { ...process.env, REMEDIATION_CONSOLE_DATA_DIR: dataDir },
    });
    page = await app.firstWindow();
  });

  test.afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('opens the console on its loopback server, in a locked-down window', async () => {
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/orgs\/demo/);
    // No Node in the page: neither its globals nor the preload's (context isolation).
    const nodeGlobals = await page.evaluate(() => ['require', 'process', 'module', 'Buffer'].filter((name) => name in window));
    expect(nodeGlobals).toEqual([]);
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });

  test('exposes only the desktop bridge', async () => {
    const bridge = await page.evaluate(() => ({ keys: Object.keys(window.desktop ?? {}).sort(), apiBaseUrl: window.desktop?.apiBaseUrl }));
    expect(bridge.keys).toEqual(['apiBaseUrl', 'appVersion', 'consoleToken', 'revealInFolder', 'saveFile', 'saveReportPdf']);
    expect(page.url().startsWith(bridge.apiBaseUrl ?? '-')).toBe(true);
    const api = JSON.parse(fs.readFileSync(path.join(dataDir, 'api.json'), 'utf8')) as { url: string };
    expect(api.url).toBe(bridge.apiBaseUrl);
  });

  test('browses the views from the menu', async () => {
    const views: [id: string, pathname: string][] = [
      ['view-endpoints', '/orgs/demo/endpoints'],
      ['view-vulnerability-findings', '/orgs/demo/vulnerability-findings'],
      ['view-dashboard', '/orgs/demo'],
    ];
    for (const [id, pathname] of views) {
      await app.evaluate(({ Menu }, menuId) => Menu.getApplicationMenu()?.getMenuItemById(menuId)?.click(), id);
      await expect(page).toHaveURL(new RegExp(`${pathname.replace(/\//g, '\\/')}$`));
      await expect(page.locator('main')).not.toBeEmpty();
    }
  });

  test('refuses to navigate away from the console', async () => {
    const before = page.url();
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    await page.waitForTimeout(500);
    expect(page.url()).toBe(before);
  });

  test('opens no new window: http(s) links go to the system browser, other schemes nowhere', async () => {
    await app.evaluate(({ shell }) => {
      const opened: string[] = [];
      Object.assign(globalThis, { openedExternally: opened });
      shell.openExternal = (async (url: string) => {
        opened.push(url);
      }) as typeof shell.openExternal;
    });
    // The refused one first: once the second is handed over, the first has been decided.
    await page.evaluate(() => {
      window.open('file:///etc/passwd', '_blank');
      window.open('https://nvd.nist.gov/vuln/detail/CVE-2021-44228', '_blank');
    });
    await expect
      .poll(() => app.evaluate(() => (globalThis as unknown as { openedExternally: string[] }).openedExternally))
      .toEqual(['https://nvd.nist.gov/vuln/detail/CVE-2021-44228']);
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });

  // Exact bytes are asserted by the unit tests (app/main/ipc); a config is generated afresh on every
  // request (its own id and time), so here the file is checked to be a whole, signed config.
  test('saves an agent config from its view through the native save dialog', async () => {
    const target = path.join(dataDir, 'agent-config.zip');
    await app.evaluate(({ dialog }, filePath) => {
      dialog.showSaveDialog = (async () => ({ canceled: false, filePath })) as typeof dialog.showSaveDialog;
    }, target);
    await app.evaluate(({ Menu }) => Menu.getApplicationMenu()?.getMenuItemById('view-agent-config')?.click());
    await expect(page).toHaveURL(/\/orgs\/demo\/agent-config$/);
    await page.getByRole('button', { name: 'Save…' }).click();
    await expect(page.getByRole('status')).toContainText(`Saved to ${target}`);
    const entries = Object.keys(unzipSync(fs.readFileSync(target)));
    expect(entries.some((name) => name.endsWith('.plist'))).toBe(true);
    expect(entries.some((name) => name.endsWith('.p7s'))).toBe(true);
  });

  // The printed page is the unit tests' (app/main/ipc/handle-save-report-pdf.test.ts, with the
  // network blocked); here Electron really prints: a whole PDF of A4 pages, and the print window gone.
  test('saves a report as PDF through printToPDF and the native save dialog', async () => {
    const target = path.join(dataDir, 'report.pdf');
    await app.evaluate(({ dialog }, filePath) => {
      dialog.showSaveDialog = (async () => ({ canceled: false, filePath })) as typeof dialog.showSaveDialog;
    }, target);
    await app.evaluate(({ Menu }) => Menu.getApplicationMenu()?.getMenuItemById('view-reports')?.click());
    await expect(page).toHaveURL(/\/orgs\/demo\/reports$/);
    await expect(page.getByRole('button', { name: 'Print' })).toHaveCount(0);
    await page.getByLabel('Filter').fill('severity=critical');
    await page.getByRole('button', { name: 'Make report' }).click();
    const row = page.getByRole('row').filter({ hasText: 'severity=critical' }).first();
    await row.getByRole('button', { name: 'Save as PDF' }).click();
    await expect(row.getByRole('status')).toContainText(`Saved to ${target}`, { timeout: 30_000 });
    const pdf = fs.readFileSync(target);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // Every page is A4, 595.3 × 841.9 points (within a point of Skia's rounding).
    const pages = [...pdf.toString('latin1').matchAll(/\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/g)].map(([, width, height]) => [Number(width), Number(height)]);
    expect(pages.length).toBeGreaterThan(0);
    for (const [width, height] of pages) {
      expect(Math.abs(width! - 595.3)).toBeLessThan(1);
      expect(Math.abs(height! - 841.9)).toBeLessThan(1);
    }
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });

  test('shows the replicas\' sync in its Sync menu', async () => {
    const syncMenu = await app.evaluate(({ Menu }) =>
      Menu.getApplicationMenu()
        ?.items.find((item) => item.label === '&Sync')
        ?.submenu?.items.map((item) => ({ label: item.label, enabled: item.enabled })),
    );
    expect(syncMenu?.[0]).toEqual({ label: 'No Remote Tenants Connected', enabled: false });
  });
});
