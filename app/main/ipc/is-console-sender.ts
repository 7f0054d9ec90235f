import type { BrowserWindow, IpcMainEvent, IpcMainInvokeEvent } from 'electron';
import { isConsoleUrl } from '../console-origin.js';

/**
 * True when an IPC message comes from the console itself: our window's web contents, its main
 * frame (not an iframe), showing a page of the console's origin. Anything else that manages to
 * send (another web contents, a frame, a page navigated elsewhere) is refused by every handler.
 */
export function isConsoleSender(event: IpcMainEvent | IpcMainInvokeEvent, window: BrowserWindow | undefined, consoleOrigin: string): boolean {
  if (!window || window.isDestroyed()) return false;
  const contents = window.webContents;
  const frame = event.senderFrame;
  return (
    event.sender === contents &&
    frame !== null &&
    frame.processId === contents.mainFrame.processId &&
    frame.routingId === contents.mainFrame.routingId &&
    isConsoleUrl(frame.url, consoleOrigin)
  );
}
