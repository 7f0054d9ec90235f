import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dataDirectoryFiles } from '../../server/store/data-directory.js';
import { app, BrowserWindow, dialog, ipcMain, Menu, resetFakeElectron, session } from '../test/fake-electron.js';
import { consoleNavigationScript } from './show-console-path.js';
import { type DesktopApp, startDesktopApp } from './start-desktop-app.js';

vi.mock('electron', () => import('../test/fake-electron.js'));

const preload = '/built/preload.cjs';

async function quitAndWait(): Promise<void> {
  app.quit();
  await vi.waitFor(() => expect(app.exited).toBe(true));
}

describe('startDesktopApp', () => {
  let dataDir: string;
  let desktop: DesktopApp;
  let window: BrowserWindow;
  let origin: string;

  beforeAll(async () => {
    resetFakeElectron();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desktop-app-'));
    desktop = (await startDesktopApp({ dataDir, preload, port: 0 }))!;
    window = BrowserWindow.instances[0]!;
    origin = new URL(desktop.consoleServer.server.url).origin;
  });
  afterAll(async () => {
    if (!app.exited) await quitAndWait();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves on 127.0.0.1 from the data directory, which is also Chromium’s', () => {
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(app.paths.get('userData')).toBe(dataDir);
    expect(app.name).toBe('Remediation Console');
    expect(app.enableSandbox).toHaveBeenCalled();
    expect(JSON.parse(fs.readFileSync(dataDirectoryFiles(dataDir).apiAddress, 'utf8'))).toMatchObject({ url: origin });
  });

  it('opens one window on the console, with the preload', () => {
    expect(BrowserWindow.instances).toHaveLength(1);
    expect(window.webContents.loadURL).toHaveBeenCalledWith(`${origin}/`);
    expect(window.options).toMatchObject({ webPreferences: { preload, sandbox: true, contextIsolation: true } });
  });

  it('secures the session and guards the window', () => {
    expect(session.defaultSession.permissionCheckHandler?.({}, 'media', origin, { isMainFrame: true })).toBe(false);
    expect(session.defaultSession.webRequest.headersReceived).toBeDefined();
    expect(window.webContents.navigate('will-navigate', 'https://example.com/')).toBe(true);
    expect(window.webContents.windowOpenHandler?.({ url: `${origin}/` })).toEqual({ action: 'deny' });
  });

  it('hands the console its token over the bridge', async () => {
    const bootstrap = ipcMain.sendSync('desktop:bootstrap', window.webContents.ipcEvent()) as { consoleToken: string; apiBaseUrl: string };
    expect(bootstrap).toEqual({ consoleToken: desktop.consoleServer.server.consoleToken, apiBaseUrl: origin, appVersion: '0.1.0-test' });
    const response = await fetch(`${origin}/app/organizations`, { headers: { 'x-console-token': bootstrap.consoleToken } });
    expect(response.status).toBe(200);
  });

  it('saves exactly the bytes its own server answers', async () => {
    const target = path.join(dataDir, 'saved-organizations.json');
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    const result = await ipcMain.invoke('desktop:save-file', window.webContents.ipcEvent(), {
      suggestedName: 'organizations.json',
      source: { path: '/app/organizations' },
    });
    expect(result).toEqual({ saved: true, path: target });
    const response = await fetch(`${origin}/app/organizations`, { headers: { 'x-console-token': desktop.consoleServer.server.consoleToken } });
    expect(fs.readFileSync(target).equals(Buffer.from(await response.arrayBuffer()))).toBe(true);
  });

  it("shows the console's views from the menu, within the console's page", async () => {
    const template = Menu.buildFromTemplate.mock.calls[0]?.[0] as Electron.MenuItemConstructorOptions[];
    const view = template.find((item) => item.label === '&View')?.submenu as Electron.MenuItemConstructorOptions[];
    const show = (label: string) => view.find((item) => item.label === label)?.click?.({} as never, undefined, {} as never);
    const loads = window.webContents.loadURL.mock.calls.length;
    show('Scopes');
    await vi.waitFor(() => expect(window.webContents.executeJavaScript).toHaveBeenLastCalledWith(consoleNavigationScript('/')));
    window.webContents.mainFrame.url = `${origin}/orgs/demo/endpoints`;
    show('Vulnerability Findings');
    await vi.waitFor(() =>
      expect(window.webContents.executeJavaScript).toHaveBeenLastCalledWith(consoleNavigationScript('/orgs/demo/vulnerability-findings')),
    );
    expect(window.webContents.loadURL).toHaveBeenCalledTimes(loads);
  });

  it('has a Sync menu that follows the replicas, and View → Organizations', async () => {
    const template = Menu.buildFromTemplate.mock.calls.at(-1)?.[0] as Electron.MenuItemConstructorOptions[];
    const sync = template.find((item) => item.label === '&Sync')?.submenu as Electron.MenuItemConstructorOptions[];
    expect(sync[0]).toMatchObject({ label: 'No Remote Tenants Connected', enabled: false });
    window.webContents.mainFrame.url = `${origin}/orgs/demo`;
    sync.find((item) => item.id === 'sync-organizations')?.click?.({} as never, undefined, {} as never);
    await vi.waitFor(() => expect(window.webContents.executeJavaScript).toHaveBeenLastCalledWith(consoleNavigationScript('/orgs/demo/organizations')));
  });

  it('focuses its window when a second instance starts', () => {
    window.minimized = true;
    app.emit('second-instance');
    expect(window.isMinimized()).toBe(false);
    expect(window.focus).toHaveBeenCalled();
    expect(BrowserWindow.instances).toHaveLength(1);
  });

  it('on quit, stops the server and writes the store before Electron exits', async () => {
    window.close();
    await quitAndWait();
    expect(fs.existsSync(dataDirectoryFiles(dataDir).database)).toBe(true);
    expect(fs.existsSync(dataDirectoryFiles(dataDir).lock)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'desktop-settings.json'))).toBe(true);
    await expect(fetch(`${origin}/health`)).rejects.toThrow();
  });
});

describe('startDesktopApp when it cannot start', () => {
  let dataDir: string;
  beforeEach(() => {
    resetFakeElectron();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desktop-app-'));
    return () => fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('quits at once as a second instance, touching no data', async () => {
    app.requestSingleInstanceLock.mockReturnValue(false);
    await expect(startDesktopApp({ dataDir, preload, port: 0 })).resolves.toBeUndefined();
    expect(app.quit).toHaveBeenCalled();
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('names the process holding the data directory in an error dialog, then quits', async () => {
    const holder: ChildProcess = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const lock = { pid: holder.pid, command: 'remediation-console serve', startedAt: new Date().toISOString() };
      fs.writeFileSync(dataDirectoryFiles(dataDir).lock, JSON.stringify(lock));
      await expect(startDesktopApp({ dataDir, preload, port: 0 })).resolves.toBeUndefined();
      expect(dialog.showErrorBox).toHaveBeenCalledWith(
        'Remediation Console cannot open its data',
        expect.stringContaining(`process ${holder.pid} (remediation-console serve`),
      );
      expect(app.quit).toHaveBeenCalled();
      expect(BrowserWindow.instances).toHaveLength(0);
    } finally {
      holder.kill();
    }
  });
});

describe('startDesktopApp on the port of its settings', () => {
  let dataDir: string;
  let occupier: net.Server | undefined;
  beforeEach(() => {
    resetFakeElectron();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desktop-app-'));
    return async () => {
      if (!app.exited) await quitAndWait();
      occupier?.close();
      occupier = undefined;
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
  });

  async function freePort(): Promise<number> {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  it('serves on the port desktop-settings.json names', async () => {
    const port = await freePort();
    fs.writeFileSync(path.join(dataDir, 'desktop-settings.json'), JSON.stringify({ port }));
    const desktop = await startDesktopApp({ dataDir, preload });
    expect(desktop?.consoleServer.server.url).toBe(`http://127.0.0.1:${port}`);
  });

  it('falls back to a free port when that one is taken', async () => {
    const port = await freePort();
    occupier = net.createServer();
    await new Promise<void>((resolve) => occupier!.listen(port, '127.0.0.1', resolve));
    fs.writeFileSync(path.join(dataDir, 'desktop-settings.json'), JSON.stringify({ port }));
    const desktop = await startDesktopApp({ dataDir, preload });
    expect(desktop?.consoleServer.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(desktop?.consoleServer.server.port).not.toBe(port);
  });
});
