import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dataDirectoryFiles } from '../server/store/engine/data-directory.js';
import { app, BrowserWindow, resetFakeElectron } from './test/fake-electron.js';
import { runSandboxedPreload } from './test/run-sandboxed-preload.js';

vi.mock('electron', () => import('./test/fake-electron.js'));

// What `npm start` and the packaged app run: the compiled entry dist/app/main.js (package.json
// `main`), its compiled imports of dist/server and the built console, under the fake electron.
// The source-level tests cannot see a wrong path or a module the build did not emit.
const builtMain = path.resolve(import.meta.dirname, '..', 'dist', 'app', 'main.js');

describe('the built desktop app', () => {
  let dataDir: string;
  let window: BrowserWindow;
  let origin: string;
  const earlierDataDir = process.env.REMEDIATION_CONSOLE_DATA_DIR;

  beforeAll(async () => {
    if (!fs.existsSync(builtMain)) throw new Error(`${builtMain} is missing: run npm run build first`);
    resetFakeElectron();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'built-app-'));
    process.env.REMEDIATION_CONSOLE_DATA_DIR = dataDir;
    await import(builtMain);
    await vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1), { timeout: 60_000 });
    window = BrowserWindow.instances[0]!;
    origin = new URL(window.webContents.getURL()).origin;
  });
  afterAll(() => {
    process.env.REMEDIATION_CONSOLE_DATA_DIR = earlierDataDir;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens its window on the console it serves from the data directory of the environment', async () => {
    expect(window.webContents.getURL()).toBe(`${origin}/`);
    expect(JSON.parse(fs.readFileSync(dataDirectoryFiles(dataDir).apiAddress, 'utf8'))).toMatchObject({ url: origin });
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page.text()).toMatch(/<script type="module"[^>]* src="\/assets\/[^"]+\.js"/);
  });

  it('gives the window a built preload that runs with nothing but electron', () => {
    const preload = (window.options.webPreferences as { preload: string }).preload;
    expect(preload).toBe(path.resolve(import.meta.dirname, '..', 'dist', 'app', 'preload', 'preload.cjs'));
    const exposed = new Map<string, unknown>();
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, value: unknown) => exposed.set(key, value) },
      ipcRenderer: { sendSync: () => ({ consoleToken: 't', apiBaseUrl: origin, appVersion: '0.1.0' }), invoke: async () => undefined },
    };
    expect(runSandboxedPreload(fs.readFileSync(preload, 'utf8'), electron)).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['desktop']);
  });

  it('stops its server and releases the data directory on quit', async () => {
    window.close();
    app.quit();
    await vi.waitFor(() => expect(app.exited).toBe(true), { timeout: 30_000 });
    expect(fs.existsSync(dataDirectoryFiles(dataDir).lock)).toBe(false);
    expect(fs.existsSync(dataDirectoryFiles(dataDir).database)).toBe(true);
    await expect(fetch(`${origin}/health`)).rejects.toThrow();
  });
});
