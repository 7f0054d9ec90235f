import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { SyncStatus } from '../../../contracts/console/sync.js';
import { Store } from '../../../server/store/store.js';
import { SyncScheduler } from '../../../server/sync/sync-scheduler.js';
import { identitySealer } from '../../../server/test/support/identity-sealer.js';
import { type SyncMenuContext, replicaStateText, syncMenuTemplate } from './sync-menu.js';

vi.mock('electron', () => import('../../test/fake-electron.js'));

type Item = Electron.MenuItemConstructorOptions;

// The state of a replica that never synced, as the scheduler answers it, changed where a test says.
let neverSynced: SyncStatus['state'];
beforeAll(async () => {
  const store = await Store.open();
  store.write(() => store.organizations.insert({ slug: 'r', name: 'R', kind: 'replica', remoteUrl: 'http://127.0.0.1:9' }), { changes: ['organizations', 'inventory'] });
  neverSynced = new SyncScheduler({ store, sealer: identitySealer }).status('r')!.state;
  store.close();
});
const status = (org: string, running: boolean, state: Partial<SyncStatus['state']> = {}): SyncStatus => ({
  org,
  running,
  progress: null,
  state: { ...neverSynced, ...state },
  latestChanges: null,
});
/** The context's functions and setting, as a test may change them. */
const actions = (more: Partial<SyncMenuContext> = {}) => ({
  syncNow: vi.fn(),
  showChanges: vi.fn(),
  showOrganizations: vi.fn(),
  notifyOfNewFindings: true,
  setNotifyOfNewFindings: vi.fn(),
  ...more,
});
const click = (item: Item | undefined) => item?.click?.({} as never, undefined, {} as never);

describe('the Sync menu', () => {
  it("lists each replica with its state, and syncs it now or fully through the context's scheduler", () => {
    const context = actions();
    const { syncNow, showOrganizations } = context;
    const menu = syncMenuTemplate({
      replicas: [
        { slug: 'acme', name: 'Acme', status: status('acme', false, { lastError: 'The remote tenant http://x could not be reached\nDetail: GET /v1/scopes.' }) },
        { slug: 'busy', name: 'Busy', status: status('busy', true) },
      ],
      ...context,
    });
    const items = menu.submenu as Item[];
    expect(items.map((item) => item.label ?? item.type)).toEqual([
      'Acme (acme)',
      'Busy (busy)',
      'separator',
      'Notify of New Critical or KEV Findings',
      'Organizations…',
    ]);
    const acme = items[0]!.submenu as Item[];
    expect(acme[0]).toMatchObject({ label: 'Failed: The remote tenant http://x could not be reached', enabled: false });
    click(acme.find((item) => item.label === 'Sync Now'));
    expect(syncNow).toHaveBeenLastCalledWith('acme', false);
    click(acme.find((item) => item.label === 'Full Sync'));
    expect(syncNow).toHaveBeenLastCalledWith('acme', true);
    const busy = items[1]!.submenu as Item[];
    expect(busy[0]?.label).toBe('Syncing…');
    expect(busy.filter((item) => /-(now|full)$/.test(item.id ?? '')).map((item) => item.enabled)).toEqual([false, false]);
    click(acme.find((item) => item.label === 'Show Changes…'));
    expect(context.showChanges).toHaveBeenLastCalledWith('acme');
    click(items[4]);
    expect(showOrganizations).toHaveBeenCalled();
  });

  it('offers the notifications of new critical or KEV findings as a checkbox that turns the setting over', () => {
    for (const notifyOfNewFindings of [true, false]) {
      const context = actions({ notifyOfNewFindings });
      const item = (syncMenuTemplate({ replicas: [], ...context }).submenu as Item[]).find((entry) => entry.id === 'sync-notify');
      expect(item).toMatchObject({ type: 'checkbox', checked: notifyOfNewFindings });
      click(item);
      expect(context.setNotifyOfNewFindings).toHaveBeenCalledExactlyOnceWith(!notifyOfNewFindings);
    }
  });

  it('says when no remote tenant is connected', () => {
    const items = syncMenuTemplate({ replicas: [], ...actions() }).submenu as Item[];
    expect(items[0]).toMatchObject({ label: 'No Remote Tenants Connected', enabled: false });
  });

  it('words a synced and a never synced replica', () => {
    expect(replicaStateText(status('a', false, { lastSuccessAt: '2026-01-02T03:04:05Z' }), (iso) => `at ${iso}`)).toBe('Synced at 2026-01-02T03:04:05Z');
    expect(replicaStateText(status('a', false))).toBe('Never synced');
  });
});
