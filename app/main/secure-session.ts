import type { Session } from 'electron';
import { consoleContentSecurityPolicy } from '../../server/http/serve-renderer.js';
import { isConsoleUrl } from './console-origin.js';

/**
 * Locks down the session the console runs in: every permission request and check is denied (the
 * console needs none), and responses of the console's origin carry its Content-Security-Policy
 * even where the server would not set it, so the policy holds in the window whatever the route.
 */
export function secureSession(session: Session, consoleOrigin: string): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
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
