import type { BrowserWindow, IpcMainEvent, IpcMainInvokeEvent } from 'electron';
import { isConsoleUrl } from '../console-origin.js';

// A document's preload runs before the main process has handled the commit of its navigation,
// so the frame it sends from can still show the URL of no document yet: '' (a new frame) or
// about:blank (the window's initial document) (electron/electron#33575, #33800). The console's
// token is asked for right then, by the preload. The window's navigation guards
// (guard-web-contents.ts) let its main frame load the console's origin and nothing else, so the
// console window's main frame without a document yet is loading the console.
const noDocumentYet = new Set(['', 'about:blank']);

/**
 * True when an IPC message comes from the console itself: our window's web contents, its main
 * frame (not an iframe), showing a page of the console's origin or still loading one. Anything
 * else that manages to send (another web contents, a frame, a page of another origin) is refused
 * by every handler.
 */
export function isConsoleSender(event: IpcMainEvent | IpcMainInvokeEvent, window: BrowserWindow | undefined, consoleOrigin: string): boolean {
  if (!window || window.isDestroyed()) return false;
  const frame = event.senderFrame;
  if (event.sender !== window.webContents || !frame || frame.parent !== null) return false;
  return isConsoleUrl(frame.url, consoleOrigin) || noDocumentYet.has(frame.url);
}
