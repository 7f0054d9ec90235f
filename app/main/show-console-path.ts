import type { WebContents } from 'electron';
import { isConsoleUrl } from './console-origin.js';

/**
 * The script that moves the console to `path` as one of its own links does: the path goes on
 * the history, and the console's router, which follows `popstate`, shows it. The page, and the
 * data it has fetched, stay.
 */
export function consoleNavigationScript(path: string): string {
  return `history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate', { state: null }));`;
}

/**
 * Shows `path` of the console in `contents`: within the console's page when it shows one (a
 * menu shortcut then answers as fast as a click in the console), else by loading it.
 */
export async function showConsolePath(contents: WebContents, consoleOrigin: string, path: string): Promise<void> {
  if (isConsoleUrl(contents.getURL(), consoleOrigin)) {
    try {
      await contents.executeJavaScript(consoleNavigationScript(path));
      return;
    } catch (error) {
      console.error(`Could not move the console to ${path}; loading it instead:`, error);
    }
  }
  await contents.loadURL(new URL(path, consoleOrigin).href);
}
