import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFakeElectron, shell } from '../../test/fake-electron.js';
import { consoleViews } from '../../../contracts/console/views.js';
import { appMenuTemplate, viewAccelerator, viewMenuItems, viewPath } from './build-app-menu.js';

vi.mock('electron', () => import('../../test/fake-electron.js'));

type Item = Electron.MenuItemConstructorOptions;
const origin = 'http://127.0.0.1:7300';

function menu(platform: NodeJS.Platform, isPackaged = true) {
  const showView = vi.fn();
  const showPath = vi.fn();
  const sync = { replicas: [], syncNow: vi.fn(), notifyOfNewFindings: true, setNotifyOfNewFindings: vi.fn() };
  const template = appMenuTemplate({ platform, consoleOrigin: origin, isPackaged, showView, showPath, sync });
  const click = (item: Item | undefined) => item?.click?.({} as never, undefined, {} as never);
  return { template, showView, showPath, click };
}

describe('appMenuTemplate', () => {
  beforeEach(() => resetFakeElectron());

  it('has the app menu on macOS only, then File, Edit, View, Sync, Window, Help', () => {
    const names = (template: Item[]) => template.map((item) => item.label ?? item.role);
    expect(names(menu('darwin').template)).toEqual(['Remediation Console', '&File', 'editMenu', '&View', '&Sync', 'windowMenu', 'help']);
    expect(names(menu('linux').template)).toEqual(['&File', 'editMenu', '&View', '&Sync', 'windowMenu', 'help']);
  });

  it('opens the Organizations view from the Sync menu, as View → Organizations (Ctrl/Cmd+9) does', () => {
    const { template, showView, click } = menu('linux');
    const sync = template.find((item) => item.label === '&Sync')?.submenu as Item[];
    click(sync.find((item) => item.id === 'sync-organizations'));
    expect(showView).toHaveBeenLastCalledWith('organizations');
    expect(viewMenuItems.find((view) => view.section === 'organizations')?.accelerator).toBe('CmdOrCtrl+9');
  });

  it('shows each view of the console by its section, with its shortcut', () => {
    const { template, showView, click } = menu('win32');
    const view = template.find((item) => item.label === '&View')?.submenu as Item[];
    for (const expected of viewMenuItems) {
      const item = view.find((candidate) => candidate.id === expected.id);
      expect(item).toMatchObject({ label: expected.label, accelerator: expected.accelerator });
      click(item);
      expect(showView).toHaveBeenLastCalledWith(expected.section);
    }
    const accelerators = viewMenuItems.flatMap((v) => (v.accelerator ? [v.accelerator] : []));
    expect(new Set(accelerators).size).toBe(accelerators.length);
  });

  it("lists the sidebar's views in its order, in title case, with Ctrl/Cmd+1 to 8 and Ctrl/Cmd+9 for the last", () => {
    expect(viewMenuItems.map((item) => item.section)).toEqual(consoleViews.map((view) => view.section));
    expect(viewMenuItems.map(({ id, label, accelerator }) => [id, label, accelerator])).toEqual([
      ['view-dashboard', 'Dashboard', 'CmdOrCtrl+1'],
      ['view-endpoints', 'Endpoints', 'CmdOrCtrl+2'],
      ['view-remediation-targets', 'Remediation Targets', 'CmdOrCtrl+3'],
      ['view-scopes', 'Scopes', 'CmdOrCtrl+4'],
      ['view-vulnerability-findings', 'Vulnerability Findings', 'CmdOrCtrl+5'],
      ['view-software', 'Software', 'CmdOrCtrl+6'],
      ['view-remediation-plan', 'Remediation Plan', 'CmdOrCtrl+7'],
      ['view-coverage-gaps', 'Coverage Gaps', 'CmdOrCtrl+8'],
      ['view-exceptions', 'Exceptions', undefined],
      ['view-remediation-performance', 'Remediation Performance', undefined],
      ['view-reports', 'Reports', undefined],
      ['view-tags', 'Tags And Rules', undefined],
      ['view-saved-views', 'Saved Views', undefined],
      ['view-api-keys', 'API Keys', undefined],
      ['view-agent-config', 'Agent Configuration', undefined],
      ['view-threat-intelligence', 'Threat Intelligence', undefined],
      ['view-organizations', 'Organizations', 'CmdOrCtrl+9'],
    ]);
  });

  it('gives every shortcut once and a valid one, however many views there are, as a browser its tabs', () => {
    for (const count of [1, 5, 9, 10, 11, 20]) {
      const accelerators = Array.from({ length: count }, (_, index) => viewAccelerator(index, count));
      const given = accelerators.filter((accelerator) => accelerator !== undefined);
      expect(new Set(given).size, `${count} views`).toBe(given.length);
      for (const accelerator of given) expect(accelerator).toMatch(/^CmdOrCtrl\+[1-9]$/);
      expect(accelerators.at(-1)).toBe('CmdOrCtrl+9');
      expect(accelerators.slice(0, Math.min(8, count - 1))).toEqual(Array.from({ length: Math.min(8, count - 1) }, (_, index) => `CmdOrCtrl+${index + 1}`));
    }
  });

  it('keeps a view in the organization shown, or opens the home', () => {
    expect(viewPath(`${origin}/orgs/acme%20corp/endpoints/5?x=1`, 'scopes')).toBe('/orgs/acme%20corp/scopes');
    expect(viewPath(`${origin}/orgs/demo/scopes`, '')).toBe('/orgs/demo');
    expect(viewPath(`${origin}/orgs/demo`, 'api-keys')).toBe('/orgs/demo/api-keys');
    expect(viewPath(`${origin}/`, 'scopes')).toBe('/');
    expect(viewPath('', 'scopes')).toBe('/');
  });

  it('offers developer tools only in development', () => {
    const roles = (isPackaged: boolean) => (menu('linux', isPackaged).template.find((item) => item.label === '&View')?.submenu as Item[]).map((item) => item.role);
    expect(roles(true)).not.toContain('toggleDevTools');
    expect(roles(false)).toContain('toggleDevTools');
  });

  it('opens the API documentation in the browser', () => {
    const { template, click } = menu('linux');
    click((template.find((item) => item.role === 'help')?.submenu as Item[])[0]);
    expect(shell.openExternal).toHaveBeenCalledWith(`${origin}/v1/openapi.json`);
  });
});
