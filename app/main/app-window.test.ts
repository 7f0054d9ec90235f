import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type BrowserWindow, resetFakeElectron, screen } from '../test/fake-electron.js';
import { openAppWindow } from './app-window.js';
import { readDesktopSettings, updateDesktopSettings } from './desktop-settings.js';

vi.mock('electron', () => import('../test/fake-electron.js'));

describe('openAppWindow', () => {
  let dataDir: string;
  beforeEach(() => {
    resetFakeElectron();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-window-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const open = () => openAppWindow({ consoleOrigin: 'http://127.0.0.1:7300', preload: '/p.cjs', dataDir }) as unknown as BrowserWindow;

  it('sets every security option of the checklist', () => {
    expect(open().options.webPreferences).toEqual({
      preload: '/p.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      disableBlinkFeatures: 'Auxclick',
    });
  });

  it('loads the console origin and shows the window once painted', () => {
    const window = open();
    expect(window.webContents.loadURL).toHaveBeenCalledWith('http://127.0.0.1:7300/');
    expect(window.show).not.toHaveBeenCalled();
    window.emit('ready-to-show');
    expect(window.show).toHaveBeenCalled();
  });

  it('remembers its bounds on close and opens there next time', () => {
    const first = open();
    first.bounds = { x: 40, y: 50, width: 1000, height: 700 };
    first.maximized = true;
    first.close();
    expect(readDesktopSettings(dataDir).window).toEqual({ x: 40, y: 50, width: 1000, height: 700, maximized: true });

    const second = open();
    expect(second.options).toMatchObject({ x: 40, y: 50, width: 1000, height: 700 });
    expect(second.isMaximized()).toBe(true);
  });

  it('opens centred at the default size when the saved place is on no display', () => {
    updateDesktopSettings(dataDir, { window: { x: 3000, y: 50, width: 1000, height: 700, maximized: false } });
    screen.getAllDisplays.mockReturnValue([{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }]);
    const window = open();
    expect(window.options.x).toBeUndefined();
    expect(window.options.y).toBeUndefined();
    expect(window.options).toMatchObject({ width: 1280, height: 800 });
  });
});
