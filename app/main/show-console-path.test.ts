import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BrowserWindow, resetFakeElectron } from '../test/fake-electron.js';
import { consoleNavigationScript, showConsolePath } from './show-console-path.js';

vi.mock('electron', () => import('../test/fake-electron.js'));

const origin = 'http://127.0.0.1:7300';

describe('showConsolePath', () => {
  let contents: BrowserWindow['webContents'];
  const show = (path: string) => showConsolePath(contents as unknown as Electron.WebContents, origin, path);

  beforeEach(() => {
    resetFakeElectron();
    contents = new BrowserWindow({}).webContents;
  });

  it("moves the console's page to the path when it shows the console", async () => {
    contents.mainFrame.url = `${origin}/orgs/demo`;
    await show('/orgs/demo/scopes');
    expect(contents.executeJavaScript).toHaveBeenCalledWith(consoleNavigationScript('/orgs/demo/scopes'));
    expect(contents.loadURL).not.toHaveBeenCalled();
  });

  it('loads the path where the window shows no console page yet', async () => {
    for (const url of ['', 'about:blank', 'chrome-error://chromewebdata/']) {
      contents.mainFrame.url = url;
      await show('/orgs/demo/scopes');
      expect(contents.loadURL).toHaveBeenLastCalledWith(`${origin}/orgs/demo/scopes`);
    }
    expect(contents.executeJavaScript).not.toHaveBeenCalled();
  });

  it('loads the path when the page would not run the script', async () => {
    contents.mainFrame.url = `${origin}/orgs/demo`;
    contents.executeJavaScript.mockRejectedValueOnce(new Error('Script failed to execute'));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await show('/orgs/demo/scopes');
    expect(contents.loadURL).toHaveBeenCalledWith(`${origin}/orgs/demo/scopes`);
  });

  it('quotes the path as a string, whatever it holds', () => {
    expect(consoleNavigationScript("/orgs/it's'); alert(1); ('/scopes")).toContain(JSON.stringify("/orgs/it's'); alert(1); ('/scopes"));
  });
});
