import { desktopBridge } from '../desktop-bridge';

const storageKey = 'remediation-console.token';

/**
 * Takes the console token from where it arrives: the desktop bridge, or the `#token=` fragment
 * of the URL the headless server prints. The fragment is read once, kept in sessionStorage (so
 * a reload of the tab still works) and removed from the address bar, where it would otherwise
 * end up in bookmarks and screenshots.
 */
export function captureConsoleToken(): void {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const token = fragment.get('token');
  if (token) {
    sessionStorage.setItem(storageKey, token);
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  }
}

/** The console token, or undefined when the console was opened without one. */
export function consoleToken(): string | undefined {
  return desktopBridge()?.consoleToken ?? sessionStorage.getItem(storageKey) ?? undefined;
}
