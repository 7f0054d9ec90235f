import type { WebContents } from 'electron';
import { isConsoleUrl } from './console-origin.js';
import { openExternalLink } from './open-external-link.js';

/**
 * Keeps a web contents on the console: navigation and redirects away from its origin are
 * refused, new windows are never created (links go to the system browser instead) and
 * `<webview>` never attaches. Installed for every web contents the app creates.
 */
export function guardWebContents(contents: WebContents, consoleOrigin: string): void {
  const stayOnConsole = (event: Electron.Event<{ url: string }>) => {
    if (!isConsoleUrl(event.url, consoleOrigin)) event.preventDefault();
  };
  contents.on('will-navigate', stayOnConsole);
  contents.on('will-redirect', stayOnConsole);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalLink(url);
    return { action: 'deny' };
  });
}
