import { beforeEach, describe, expect, it, vi } from 'vitest';
import { consoleContentSecurityPolicy } from '../../server/http/serve-renderer.js';
import { resetFakeElectron, session } from '../test/fake-electron.js';
import { secureSession } from './secure-session.js';

vi.mock('electron', () => import('../test/fake-electron.js'));

const origin = 'http://127.0.0.1:7300';

describe('secureSession', () => {
  const fake = session.defaultSession;
  beforeEach(() => {
    resetFakeElectron();
    secureSession(fake as unknown as Electron.Session, origin);
  });

  const request = (permission: string, requestingUrl: string, isMainFrame = true) => {
    const callback = vi.fn();
    fake.permissionRequestHandler?.({}, permission, callback, { requestingUrl, isMainFrame });
    expect(callback).toHaveBeenCalledTimes(1);
    return callback.mock.calls[0]![0] as boolean;
  };
  const check = (permission: string, requestingOrigin: string, isMainFrame = true) =>
    fake.permissionCheckHandler?.({}, permission, requestingOrigin, { isMainFrame });

  it('denies every permission request and check but clipboard writes', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen']) {
      expect(request(permission, `${origin}/keys`)).toBe(false);
      expect(check(permission, origin)).toBe(false);
    }
    expect(fake.devicePermissionHandler?.({})).toBe(false);
  });

  it("lets only the console's main frame write to the clipboard", () => {
    expect(request('clipboard-sanitized-write', `${origin}/orgs/demo/keys`)).toBe(true);
    expect(check('clipboard-sanitized-write', origin)).toBe(true);
    expect(request('clipboard-sanitized-write', `${origin}/orgs/demo/keys`, false)).toBe(false);
    expect(check('clipboard-sanitized-write', origin, false)).toBe(false);
    for (const other of ['http://127.0.0.1:7301', 'https://example.com', 'file:///etc/passwd', 'not a url']) {
      expect(request('clipboard-sanitized-write', other)).toBe(false);
      expect(check('clipboard-sanitized-write', other)).toBe(false);
    }
  });

  it("puts the console's CSP on responses of the console origin, replacing any other", () => {
    const callback = vi.fn();
    fake.webRequest.headersReceived?.(
      { url: `${origin}/endpoints`, responseHeaders: { 'content-security-policy': ["default-src *"], 'Content-Type': ['text/html'] } },
      callback,
    );
    expect(callback).toHaveBeenCalledWith({
      responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': [consoleContentSecurityPolicy] },
    });
  });

  it('leaves responses of other origins as they are', () => {
    const callback = vi.fn();
    fake.webRequest.headersReceived?.({ url: 'http://127.0.0.1:7301/', responseHeaders: {} }, callback);
    expect(callback).toHaveBeenCalledWith({});
  });
});
