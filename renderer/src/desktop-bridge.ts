/**
 * What the desktop shell gives the console as `window.desktop` (app/shared/desktop-bridge.ts
 * declares the same shape; the renderer may not import app/, so keep the two in step). In a
 * browser there is no bridge and the console falls back to web behaviour.
 */
export interface DesktopBridge {
  /** The console token for /app requests (header `x-console-token`). */
  readonly consoleToken: string;
  /** The loopback API's base URL, e.g. `http://127.0.0.1:7300`. */
  readonly apiBaseUrl: string;
  readonly appVersion: string;
  /** Saves what the console serves at `source.path` (under /app/) to a file picked in the native save dialog. */
  saveFile(request: SaveFileRequest): Promise<SaveFileResult>;
  /** Shows a file saved by {@link DesktopBridge.saveFile} in the system's file manager. */
  revealInFolder(path: string): Promise<void>;
}

/** What to save and how to offer it in the save dialog. */
export interface SaveFileRequest {
  suggestedName: string;
  filters?: { name: string; extensions: string[] }[];
  source: { path: string };
}

/** How a save ended. */
export type SaveFileResult =
  | { saved: true; path: string }
  | { saved: false; reason: 'cancelled' }
  | { saved: false; reason: 'failed'; message: string };

declare global {
  interface Window {
    desktop?: DesktopBridge;
  }
}

/** The desktop bridge, or undefined in a browser. */
export function desktopBridge(): DesktopBridge | undefined {
  return window.desktop;
}
