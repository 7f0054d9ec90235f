import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dataDirectoryFiles } from '../../server/store/engine/data-directory.js';
import { lockDataDirectory } from '../../server/store/engine/data-directory-lock.js';
import { Store } from '../../server/store/store.js';
import { type FakeRemote, startFakeRemote } from '../../server/test/support/fake-remote.js';
import { smallInventory } from '../../server/test/support/fixtures.js';
import type { SyncChangesList } from '../../contracts/console/sync-changes.js';
import { app, BrowserWindow, dialog, ipcMain, Menu, Notification, resetFakeElectron, safeStorage, session } from '../test/fake-electron.js';
import { readDesktopSettings } from './desktop-settings.js';
import { consoleNavigationScript } from './show-console-path.js';
import { type DesktopApp, startDesktopApp } from './start-desktop-app.js';

vi.mock('electron', () => import('../test/fake-electron.js'));

const preload = '/built/preload.cjs';

type Item = Electron.MenuItemConstructorOptions;
const click = (item: Item | undefined) => item?.click?.({} as never, undefined, {} as never);
/** The Sync menu of the application menu built `back` builds ago (the last by default). */
const syncMenu = (back = 1) => (Menu.buildFromTemplate.mock.calls.at(-back)?.[0] as Item[]).find((item) => item.label === '&Sync')?.submenu as Item[];

/** Quitting stops the server's thread, which writes the store first: seconds on a busy machine, as built-app.test.ts allows. */
const quitTimeout = { timeout: 30_000 };

async function quitAndWait(): Promise<void> {
  app.quit();
  await vi.waitFor(() => expect(app.exited).toBe(true), quitTimeout);
}

describe('startDesktopApp', () => {
  let dataDir: string;
  let desktop: DesktopApp;
  let window: BrowserWindow;
  let origin: string;
  let remote: FakeRemote;

  beforeAll(async () => {
    resetFakeElectron();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desktop-app-'));
    remote = await startFakeRemote({ inventory: smallInventory(7) });
    desktop = (await startDesktopApp({ dataDir, preload, port: 0 }))!;
    window = BrowserWindow.instances[0]!;
    origin = new URL(desktop.consoleServer.server.url).origin;
  });
  afterAll(async () => {
    if (!app.exited) await quitAndWait();
    await remote.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the server in a thread of its own, and seals its secrets here with safeStorage', () => {
    expect(desktop.consoleServer.server.threadId).not.toBe(threadId);
    // The demo organization's enrollment secret and signing key, created by the server's thread
    // at first start: safeStorage exists only in this one.
    expect(safeStorage.encryptString).toHaveBeenCalledTimes(2);
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
    const sync = syncMenu();
    expect(sync[0]).toMatchObject({ label: 'No Remote Tenants Connected', enabled: false });
    window.webContents.mainFrame.url = `${origin}/orgs/demo`;
    click(sync.find((item) => item.id === 'sync-organizations'));
    await vi.waitFor(() => expect(window.webContents.executeJavaScript).toHaveBeenLastCalledWith(consoleNavigationScript('/orgs/demo/organizations')));
  });

  it("connects a replica with its key sealed here, and follows its syncs in the Sync menu over the server's channel", async () => {
    const connected = await fetch(`${origin}/app/organizations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-console-token': desktop.consoleServer.server.consoleToken },
      body: JSON.stringify({ slug: 'remote', name: 'Remote', remoteUrl: remote.url, apiKey: remote.apiKey }),
    });
    expect(connected.status).toBe(201);
    expect(safeStorage.encryptString).toHaveBeenLastCalledWith(Buffer.from(remote.apiKey).toString('base64'));
    const state = (back = 1) => (syncMenu(back).find((item) => item.id === 'sync-remote')?.submenu as Item[] | undefined)?.[0]?.label;
    // Connecting starts a sync, which the remote answers only with the key the server's thread
    // had unsealed here.
    await vi.waitFor(() => expect(state()).toMatch(/^Synced /), { timeout: 30_000 });
    expect(safeStorage.decryptString).toHaveBeenCalled();
    expect(desktop.consoleServer.replicas()).toEqual([expect.objectContaining({ slug: 'remote', name: 'Remote' })]);

    const built = Menu.buildFromTemplate.mock.calls.length;
    const requests = remote.requests.length;
    click((syncMenu().find((item) => item.id === 'sync-remote')?.submenu as Item[]).find((item) => item.id === 'sync-remote-full'));
    await vi.waitFor(() => {
      const since = Menu.buildFromTemplate.mock.calls.length - built;
      expect(since).toBeGreaterThan(1);
      expect(state()).toMatch(/^Synced /);
      expect(Array.from({ length: since }, (_, index) => state(index + 1))).toContain('Syncing…');
    }, { timeout: 30_000 });
    expect(remote.requests.length).toBeGreaterThan(requests);
    expect(desktop.consoleServer.replicas()[0]?.status.state.lastSuccessMode).toBe('full');
  });

  it("shows one notification per sync that brings findings newly open critical or KEV, which opens that sync's changes; the Sync menu turns them off", async () => {
    const { findings } = remote.options.inventory;
    /** Makes `count` open findings of the remote that are neither critical nor KEV known-exploited. */
    const makeKev = (count: number) => {
      const now = new Date().toISOString();
      for (let i = 0, made = 0; i < findings.length && made < count; i++) {
        const finding = findings[i]!;
        if (finding.status !== 'open' || finding.severity === 'critical' || finding.is_kev) continue;
        findings[i] = { ...finding, is_kev: true, updated_at: now };
        made++;
      }
    };
    /** Syncs the replica from the Sync menu and waits until the server's thread reports it synced. */
    const syncNow = async () => {
      const before = desktop.consoleServer.replicas()[0]!.status.state.lastSuccessAt;
      click((syncMenu().find((item) => item.id === 'sync-remote')?.submenu as Item[]).find((item) => item.id === 'sync-remote-now'));
      await vi.waitFor(() => {
        const { status } = desktop.consoleServer.replicas()[0]!;
        expect(status.running).toBe(false);
        expect(status.state.lastSuccessAt).not.toBe(before);
      }, { timeout: 30_000 });
    };
    const latestChanges = async () => {
      const response = await fetch(`${origin}/app/orgs/remote/sync-changes`, { headers: { 'x-console-token': desktop.consoleServer.server.consoleToken } });
      return ((await response.json()) as SyncChangesList).data[0]!;
    };
    // The replica's first sync and the full one listed no finding as newly open: nothing was shown.
    expect(Notification.instances).toEqual([]);

    makeKev(2);
    await syncNow();
    await vi.waitFor(() => expect(Notification.instances).toHaveLength(1));
    const [notification] = Notification.instances;
    expect(notification!.options).toEqual({
      title: '2 new critical or KEV findings in Remote',
      body: "The sync of Remote (remote) found findings newly open: 0 critical, 2 in CISA's KEV catalog. Click to see what the sync changed.",
    });
    expect(notification!.show).toHaveBeenCalledOnce();
    const changes = await latestChanges();
    expect(changes.newlyOpen).toMatchObject({ total: 2, kev: 2 });

    window.minimized = true;
    window.focus.mockClear();
    window.webContents.mainFrame.url = `${origin}/orgs/demo`;
    notification!.click();
    expect(window.isMinimized()).toBe(false);
    expect(window.focus).toHaveBeenCalled();
    await vi.waitFor(() => expect(window.webContents.executeJavaScript).toHaveBeenLastCalledWith(consoleNavigationScript(`/orgs/remote/changes?sync=${changes.id}`)));

    // Turned off in the Sync menu: remembered, and the next such sync shows nothing.
    click(syncMenu().find((item) => item.id === 'sync-notify'));
    expect(readDesktopSettings(dataDir).notifyOfNewFindings).toBe(false);
    expect(syncMenu().find((item) => item.id === 'sync-notify')).toMatchObject({ checked: false });
    makeKev(1);
    await syncNow();
    expect((await latestChanges()).newlyOpen.total).toBe(1);
    expect(Notification.instances).toHaveLength(1);
    click(syncMenu().find((item) => item.id === 'sync-notify'));
    expect(readDesktopSettings(dataDir).notifyOfNewFindings).toBe(true);
  });

  it('focuses its window when a second instance starts', () => {
    window.minimized = true;
    app.emit('second-instance');
    expect(window.isMinimized()).toBe(false);
    expect(window.focus).toHaveBeenCalled();
    expect(BrowserWindow.instances).toHaveLength(1);
  });

  it("on quit, stops the server's thread, which writes the store, before Electron exits", async () => {
    window.close();
    await quitAndWait();
    expect(fs.existsSync(dataDirectoryFiles(dataDir).lock)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'desktop-settings.json'))).toBe(true);
    await expect(fetch(`${origin}/health`)).rejects.toThrow();
    const store = await Store.open({ dataDir, command: 'test' });
    try {
      const replica = store.organizations.bySlug('remote')!;
      // The last sync is the notification test's incremental one; its changes were kept with it.
      expect(store.sync.get(replica.rowId)).toMatchObject({ lastSuccessMode: 'incremental', lastError: null });
      expect(store.syncChanges.list(replica.rowId)[0]?.newlyOpen.total).toBe(1);
    } finally {
      store.close();
    }
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
    const held = await lockDataDirectory(dataDir, 'remediation-console serve');
    try {
      await expect(startDesktopApp({ dataDir, preload, port: 0 })).resolves.toBeUndefined();
      expect(dialog.showErrorBox).toHaveBeenCalledWith(
        'Remediation Console cannot open its data',
        expect.stringContaining(`process ${process.pid} (remediation-console serve`),
      );
      expect(app.quit).toHaveBeenCalled();
      expect(BrowserWindow.instances).toHaveLength(0);
    } finally {
      held.release();
    }
  });
});

describe('startDesktopApp when its server fails', () => {
  let dataDir: string;
  beforeEach(() => {
    resetFakeElectron();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desktop-app-'));
    return () => fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("tells the user in an error dialog when the server's thread fails, and quits", async () => {
    const desktop = (await startDesktopApp({ dataDir, preload, port: 0 }))!;
    // What the server's handle reports when its thread crashes (start-console-server-worker.test.ts).
    desktop.consoleServer.emit('failed', new Error('Out of memory'));
    expect(dialog.showErrorBox).toHaveBeenCalledWith('Remediation Console stopped', 'The console server failed: Out of memory');
    await vi.waitFor(() => expect(app.exited).toBe(true), quitTimeout);
    expect(fs.existsSync(dataDirectoryFiles(dataDir).lock)).toBe(false);
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
