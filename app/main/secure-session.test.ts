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

  it('denies every permission request and check', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen']) {
      const callback = vi.fn();
      fake.permissionRequestHandler?.({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect(fake.permissionCheckHandler?.({}, permission)).toBe(false);
    }
    expect(fake.devicePermissionHandler?.({})).toBe(false);
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
