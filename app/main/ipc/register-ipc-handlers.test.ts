import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ByteServer, reportPath, startByteServer } from '../../test/byte-server.js';
import { app, BrowserWindow, dialog, FakeFrame, type FakeWebContents, ipcMain, resetFakeElectron, shell } from '../../test/fake-electron.js';
import { registerIpcHandlers } from './register-ipc-handlers.js';

vi.mock('electron', () => import('../../test/fake-electron.js'));

const origin = 'http://127.0.0.1:7300';

describe('IPC handlers', () => {
  let byteServer: ByteServer;
  let window: BrowserWindow;
  let folder: string;
  beforeAll(async () => {
    byteServer = await startByteServer();
  });
  afterAll(() => byteServer.close());
  beforeEach(() => {
    resetFakeElectron();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ipc-'));
    window = new BrowserWindow({});
    window.webContents.mainFrame.url = `${origin}/dashboard`;
    registerIpcHandlers({
      consoleWindow: () => window as unknown as Electron.BrowserWindow,
      consoleOrigin: origin,
      serverUrl: byteServer.url,
      consoleToken: 'token-1',
      appVersion: '1.2.3',
      defaultSaveFolder: folder,
    });
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  const request = { suggestedName: 'agent.zip', source: { path: '/app/file' } };
  const pdfRequest = { suggestedName: 'report.pdf', source: { path: reportPath } };

  /** Senders that are not the console window's main frame on the console origin. */
  const untrusted = (): [string, () => ReturnType<typeof window.webContents.ipcEvent>][] => [
    ['a page of another origin', () => {
      window.webContents.mainFrame.url = 'https://evil.example/';
      return window.webContents.ipcEvent();
    }],
    ['the same host on another port', () => {
      window.webContents.mainFrame.url = 'http://127.0.0.1:7301/';
      return window.webContents.ipcEvent();
    }],
    ['a subframe of the console', () => {
      const { mainFrame } = window.webContents;
      mainFrame.url = `${origin}/`;
      return window.webContents.ipcEvent(new FakeFrame(`${origin}/embedded`, mainFrame.processId, 2, mainFrame));
    }],
    ['a subframe not yet loaded', () => window.webContents.ipcEvent(new FakeFrame('', window.webContents.mainFrame.processId, 2, window.webContents.mainFrame))],
    ['a main frame that committed an error page', () => {
      window.webContents.mainFrame.url = 'chrome-error://chromewebdata/';
      return window.webContents.ipcEvent();
    }],
    ['another web contents on the console origin', () => {
      const other = new BrowserWindow({});
      other.webContents.mainFrame.url = `${origin}/`;
      return other.webContents.ipcEvent();
    }],
    ['a frame already gone', () => window.webContents.ipcEvent(null)],
    ['a closed window', () => {
      window.destroyed = true;
      return window.webContents.ipcEvent();
    }],
  ];

  it('hands the bootstrap values to the console', () => {
    expect(ipcMain.sendSync('desktop:bootstrap', window.webContents.ipcEvent())).toEqual({
      consoleToken: 'token-1',
      apiBaseUrl: byteServer.url,
      appVersion: '1.2.3',
    });
  });

  // As Electron reports the preload's request: from the frame of the new document before the
  // main process has handled its commit, or from the window's initial document.
  it.each(['', 'about:blank'])('hands them to the console window loading its first page, its frame still at %j', (url) => {
    const loading = new FakeFrame(url, window.webContents.mainFrame.processId + 100, 7);
    expect(ipcMain.sendSync('desktop:bootstrap', window.webContents.ipcEvent(loading))).toMatchObject({ consoleToken: 'token-1' });
  });

  it('saves through the channel exactly the bytes of the server', async () => {
    const target = path.join(folder, 'saved.zip');
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    await expect(ipcMain.invoke('desktop:save-file', window.webContents.ipcEvent(), request)).resolves.toEqual({ saved: true, path: target });
    expect(fs.readFileSync(target).equals(byteServer.bytes)).toBe(true);
    expect(dialog.showSaveDialog.mock.calls[0]?.[0]).toBe(window);
  });

  it('saves a report as PDF through the channel: the printed bytes, offered for reveal', async () => {
    const pdf = Buffer.from('%PDF-1.7 printed');
    app.once('web-contents-created', (_event: unknown, contents: FakeWebContents) => contents.printToPDF.mockResolvedValueOnce(pdf));
    const target = path.join(folder, 'report.pdf');
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    await expect(ipcMain.invoke('desktop:save-report-pdf', window.webContents.ipcEvent(), pdfRequest)).resolves.toEqual({ saved: true, path: target });
    expect(fs.readFileSync(target).equals(pdf)).toBe(true);
    expect(dialog.showSaveDialog.mock.calls[0]?.[0]).toBe(window);
    await ipcMain.invoke('desktop:reveal-in-folder', window.webContents.ipcEvent(), target);
    expect(shell.showItemInFolder).toHaveBeenCalledWith(target);
  });

  describe.each(untrusted())('from %s', (_name, makeEvent) => {
    it('refuses every channel', async () => {
      const requestsBefore = byteServer.tokens.length;
      const event = makeEvent();
      expect(ipcMain.sendSync('desktop:bootstrap', event)).toBeNull();
      await expect(ipcMain.invoke('desktop:save-file', makeEvent(), request)).rejects.toThrow(/sender is not the console window/);
      await expect(ipcMain.invoke('desktop:save-report-pdf', makeEvent(), pdfRequest)).rejects.toThrow(/sender is not the console window/);
      await expect(ipcMain.invoke('desktop:reveal-in-folder', makeEvent(), '/tmp')).rejects.toThrow(/sender is not the console window/);
      expect(dialog.showSaveDialog).not.toHaveBeenCalled();
      expect(BrowserWindow.instances.filter((made) => made.options.show === false)).toEqual([]);
      expect(byteServer.tokens).toHaveLength(requestsBefore);
    });
  });

  it('refuses invalid arguments before doing anything', async () => {
    for (const argument of [undefined, 'agent.zip', { ...request, source: { path: '/v1/endpoints' } }, { ...request, suggestedName: '/etc/passwd' }]) {
      await expect(ipcMain.invoke('desktop:save-file', window.webContents.ipcEvent(), argument)).rejects.toThrow(/invalid argument/);
    }
    for (const argument of [undefined, request, { ...pdfRequest, suggestedName: 'report.html' }, { ...pdfRequest, source: { path: '/app/file' } }]) {
      await expect(ipcMain.invoke('desktop:save-report-pdf', window.webContents.ipcEvent(), argument)).rejects.toThrow(/invalid argument/);
    }
    for (const argument of [undefined, 42, '', { path: '/tmp' }]) {
      await expect(ipcMain.invoke('desktop:reveal-in-folder', window.webContents.ipcEvent(), argument)).rejects.toThrow(/invalid argument/);
    }
    expect(dialog.showSaveDialog).not.toHaveBeenCalled();
  });

  it('reveals only files saved in this session', async () => {
    await expect(ipcMain.invoke('desktop:reveal-in-folder', window.webContents.ipcEvent(), '/etc/passwd')).rejects.toThrow(/saved in this session/);
    expect(shell.showItemInFolder).not.toHaveBeenCalled();

    const target = path.join(folder, 'saved.zip');
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    await ipcMain.invoke('desktop:save-file', window.webContents.ipcEvent(), request);
    await ipcMain.invoke('desktop:reveal-in-folder', window.webContents.ipcEvent(), target);
    expect(shell.showItemInFolder).toHaveBeenCalledWith(target);
  });
});
