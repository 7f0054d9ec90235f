import type { Session } from 'electron';
import { consoleContentSecurityPolicy } from '../../server/http/serve-renderer.js';
import { isConsoleUrl } from './console-origin.js';

// The one permission the console uses: writing text to the clipboard (the copy buttons of a new
// API key and its curl example). Reading the clipboard stays denied.
const clipboardWrite = 'clipboard-sanitized-write';

/**
 * Locks down the session the console runs in: every permission request and check is denied but
 * clipboard writes by the console's own main frame, and responses of the console's origin carry
 * its Content-Security-Policy even where the server would not set it, so the policy holds in the
 * window whatever the route.
 */
export function secureSession(session: Session, consoleOrigin: string): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(permission === clipboardWrite && details.isMainFrame && isConsoleUrl(details.requestingUrl, consoleOrigin)),
  );
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    permission === clipboardWrite && details.isMainFrame && isConsoleUrl(requestingOrigin, consoleOrigin),
  );
  session.setDevicePermissionHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!isConsoleUrl(details.url, consoleOrigin)) return callback({});
    const responseHeaders = Object.fromEntries(
      Object.entries(details.responseHeaders ?? {}).filter(([name]) => name.toLowerCase() !== 'content-security-policy'),
    );
    responseHeaders['Content-Security-Policy'] = [consoleContentSecurityPolicy];
    callback({ responseHeaders });
  });
}
