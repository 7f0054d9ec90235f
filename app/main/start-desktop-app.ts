import { app, type BrowserWindow, dialog, Menu, session } from 'electron';
import { type ConsoleServerWorker, startConsoleServerWorker } from '../../server/start-console-server-worker.js';
import { productName } from '../../server/store/engine/data-directory.js';
import { DataDirectoryLockedError } from '../../server/store/engine/data-directory-lock.js';
import { openAppWindow } from './app-window.js';
import { chooseSealer } from './choose-sealer.js';
import { syncChangesPath } from '../../contracts/console/views.js';
import { readDesktopSettings, updateDesktopSettings } from './desktop-settings.js';
import { guardWebContents } from './guard-web-contents.js';
import { registerIpcHandlers } from './ipc/register-ipc-handlers.js';
import { buildAppMenu, viewPath } from './menu/build-app-menu.js';
import { secureSession } from './secure-session.js';
import { showConsolePath } from './show-console-path.js';
import { SyncNotifications } from './sync-notifications.js';

/** Where the desktop app keeps its data and finds its preload. */
export interface DesktopAppOptions {
  dataDir: string;
  /** The absolute path of the built preload script. */
  preload: string;
  /** The port to try first; else the `port` of desktop-settings.json, else the server's default (7300). */
  port?: number;
}

/** A started desktop app. */
export interface DesktopApp {
  /** The server, in its worker thread. */
  consoleServer: ConsoleServerWorker;
  window(): BrowserWindow | undefined;
}

/**
 * Runs the desktop app: one instance per data directory, the server on 127.0.0.1 in a worker
 * thread (holding the data-directory lock; this process does the native things only: window,
 * menus, dialogs, and sealing with safeStorage for the server), the console window on it, and
 * the server stopped and the store flushed on quit. Resolves to undefined when the app does not
 * start (another instance, a locked data directory), having told the user why.
 */
export async function startDesktopApp(options: DesktopAppOptions): Promise<DesktopApp | undefined> {
  app.setName(productName);
  // Chromium's profile, and with it the single-instance lock, lives in the data directory: the
  // one lock then covers both, and a second data directory (REMEDIATION_CONSOLE_DATA_DIR) gets
  // its own instance.
  app.setPath('userData', options.dataDir);
  // Every renderer sandboxed, not only the console window's (must precede `ready`).
  app.enableSandbox();
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return undefined;
  }
  await app.whenReady();

  let consoleServer: ConsoleServerWorker;
  try {
    consoleServer = await startConsoleServerWorker({
      dataDir: options.dataDir,
      sealer: chooseSealer,
      port: options.port ?? readDesktopSettings(options.dataDir).port,
      command: `${productName} desktop app`,
    });
  } catch (error) {
    const title = error instanceof DataDirectoryLockedError ? `${productName} cannot open its data` : `${productName} could not start`;
    dialog.showErrorBox(title, (error as Error).message);
    app.quit();
    return undefined;
  }

  const consoleOrigin = new URL(consoleServer.server.url).origin;
  secureSession(session.defaultSession, consoleOrigin);
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, consoleOrigin));

  let window: BrowserWindow | undefined;
  const showWindow = () => {
    if (!window || window.isDestroyed()) {
      window = openAppWindow({ consoleOrigin, preload: options.preload, dataDir: options.dataDir });
      window.on('closed', () => (window = undefined));
      return;
    }
    if (window.isMinimized()) window.restore();
    window.focus();
  };

  /** Shows the window (opening it when there is none) at `path` of the console. */
  const showPath = (path: string) => {
    showWindow();
    const contents = window?.webContents;
    if (!contents) return;
    showConsolePath(contents, consoleOrigin, path).catch((error: unknown) => console.error(`Could not show ${path}:`, error));
  };

  registerIpcHandlers({
    consoleWindow: () => window,
    consoleOrigin,
    serverUrl: consoleServer.server.url,
    consoleToken: consoleServer.server.consoleToken,
    appVersion: app.getVersion(),
    defaultSaveFolder: app.getPath('downloads'),
  });
  let notifyOfNewFindings = readDesktopSettings(options.dataDir).notifyOfNewFindings ?? true;
  // Menus are built, not bound: the Sync menu is rebuilt as the server's thread reports the
  // replicas' syncs moving on (a sync it starts included), and when its setting changes.
  const setMenu = () =>
    Menu.setApplicationMenu(
      buildAppMenu({
        platform: process.platform,
        consoleOrigin,
        isPackaged: app.isPackaged,
        showView: (section) => showPath(viewPath(window?.webContents.getURL() ?? '', section)),
        showPath,
        sync: {
          replicas: consoleServer.replicas(),
          syncNow: (slug, full) => consoleServer.syncNow(slug, full),
          notifyOfNewFindings,
          setNotifyOfNewFindings: (notify) => {
            notifyOfNewFindings = notify;
            updateDesktopSettings(options.dataDir, { notifyOfNewFindings: notify });
            setMenu();
          },
        },
      }),
    );
  setMenu();
  consoleServer.on('replicas', setMenu);
  const notifications = new SyncNotifications({
    enabled: () => notifyOfNewFindings,
    open: (alert) => showPath(syncChangesPath(alert.slug, alert.changes.id)),
  });
  consoleServer.on('sync-alert', (alert) => notifications.notify(alert));
  consoleServer.on('failed', (error) => {
    dialog.showErrorBox(`${productName} stopped`, `The console server failed: ${error.message}`);
    app.quit();
  });
  app.on('second-instance', showWindow);
  // macOS: the dock icon reopens the window of an app still running without one.
  app.on('activate', showWindow);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  stopServerOnQuit(consoleServer);
  showWindow();
  return { consoleServer, window: () => window };
}

// Quitting waits for the server to close and the store to be written to disk (which also
// releases the data-directory lock): the first will-quit is held back until then.
function stopServerOnQuit(consoleServer: ConsoleServerWorker): void {
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  app.on('will-quit', (event) => {
    if (state === 'stopped') return;
    event.preventDefault();
    if (state === 'stopping') return;
    state = 'stopping';
    consoleServer
      .stop()
      .catch((error: unknown) => console.error('The console server did not stop cleanly:', error))
      .finally(() => {
        state = 'stopped';
        app.quit();
      });
  });
}
