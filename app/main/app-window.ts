import { BrowserWindow, screen } from 'electron';
import { productName } from '../../server/store/engine/data-directory.js';
import { readDesktopSettings, updateDesktopSettings } from './desktop-settings.js';
import { restoredBounds } from './window-bounds.js';

/**
 * Opens the console window on `consoleOrigin`, where it was last left on a display that is still
 * there, and remembers its bounds in the data directory when it closes.
 */
export function openAppWindow(options: { consoleOrigin: string; preload: string; dataDir: string }): BrowserWindow {
  const saved = readDesktopSettings(options.dataDir).window;
  const bounds = restoredBounds(
    saved,
    screen.getAllDisplays().map((display) => display.workArea),
  );
  // Every item of Electron's security checklist that a window option covers, stated even where
  // it is Electron's default, so that a changed default or a careless edit shows in review, in
  // the tests and in `npm run lint:electron` (which reads this literal).
  const window = new BrowserWindow({
    ...bounds,
    minWidth: 800,
    minHeight: 560,
    title: productName,
    // Shown once painted, so the window never flashes empty.
    show: false,
    webPreferences: {
      preload: options.preload, // eng-disable PRELOAD_JS_CHECK: our own preload, exposing only the typed bridge
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
    },
  });
  if (saved?.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  window.on('close', () => {
    try {
      updateDesktopSettings(options.dataDir, { window: { ...window.getNormalBounds(), maximized: window.isMaximized() } });
    } catch (error) {
      console.error('Could not remember the window position:', error);
    }
  });
  window.loadURL(`${options.consoleOrigin}/`).catch((error: unknown) => console.error('Could not load the console:', error));
  return window;
}
