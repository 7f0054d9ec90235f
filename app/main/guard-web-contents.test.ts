import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEvent, FakeWebContents, resetFakeElectron, shell } from '../test/fake-electron.js';
import { guardWebContents } from './guard-web-contents.js';

vi.mock('electron', () => import('../test/fake-electron.js'));

const origin = 'http://127.0.0.1:7300';

describe('guardWebContents', () => {
  let contents: FakeWebContents;
  beforeEach(() => {
    resetFakeElectron();
    contents = new FakeWebContents();
    guardWebContents(contents as unknown as Electron.WebContents, origin);
  });

  it('lets navigation within the console through', () => {
    expect(contents.navigate('will-navigate', `${origin}/findings?severity=high`)).toBe(false);
    expect(contents.navigate('will-redirect', `${origin}/dashboard`)).toBe(false);
  });

  it('refuses navigation and redirects away from the console origin', () => {
    for (const url of ['https://example.com/', 'http://127.0.0.1:7301/', 'http://localhost:7300/', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
      expect(contents.navigate('will-navigate', url)).toBe(true);
      expect(contents.navigate('will-redirect', url)).toBe(true);
    }
  });

  it('never attaches a webview', () => {
    const event = new FakeEvent();
    contents.emit('will-attach-webview', event, {}, {});
    expect(event.defaultPrevented).toBe(true);
  });

  it('denies every new window, handing only http, https and mailto links to the system', () => {
    for (const url of ['https://example.com/docs', 'http://127.0.0.1:7300/v1/openapi.json', 'mailto:security@example.com']) {
      expect(contents.windowOpenHandler?.({ url })).toEqual({ action: 'deny' });
      expect(shell.openExternal).toHaveBeenLastCalledWith(url);
    }
    shell.openExternal.mockClear();
    for (const url of ['file:///Applications/Calculator.app', 'javascript:alert(1)', 'smb://server/share', 'ms-msdt:/id', 'nonsense']) {
      expect(contents.windowOpenHandler?.({ url })).toEqual({ action: 'deny' });
    }
    expect(shell.openExternal).not.toHaveBeenCalled();
  });
});
