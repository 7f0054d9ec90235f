import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Store } from './store/store.js';
import type { SyncScheduler } from './sync/sync-scheduler.js';
import { smallInventory } from './test/support/fixtures.js';
import { warmConsoleCaches } from './warm-console-caches.js';

async function storeWithTwoOrganizations() {
  const store = await Store.open();
  store.write((writes) => {
    for (const slug of ['acme', 'globex']) writes.replace(store.organizations.insert({ slug, name: slug, kind: 'local' }).inventoryId, smallInventory(3, 8));
  }, { changes: ['organizations', 'inventory'] });
  const warmed: number[] = [];
  const dashboard = store.dashboards.dashboard.bind(store.dashboards);
  vi.spyOn(store.dashboards, 'dashboard').mockImplementation((org) => {
    warmed.push(org);
    return dashboard(org);
  });
  return { store, warmed, rowId: (slug: string) => store.organizations.bySlug(slug)!.rowId };
}

const scheduler = () => new EventEmitter() as unknown as SyncScheduler;

afterEach(() => {
  vi.useRealTimers();
});

describe('warmConsoleCaches', () => {
  it('computes every organization\'s dashboard once the server has settled, and an organization\'s again after its sync', async () => {
    vi.useFakeTimers();
    const { store, warmed, rowId } = await storeWithTwoOrganizations();
    const events = scheduler();
    const stop = warmConsoleCaches(store, events);
    expect(warmed).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.waitFor(() => expect(warmed).toEqual([rowId('acme'), rowId('globex')]));

    (events as unknown as EventEmitter).emit('finished', { org: 'globex' });
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.waitFor(() => expect(warmed).toEqual([rowId('acme'), rowId('globex'), rowId('globex')]));
    stop();
    store.close();
  });

  it('reads an organization whose sync applies its changes in parts once the last part is written', async () => {
    vi.useFakeTimers();
    const { store, warmed, rowId } = await storeWithTwoOrganizations();
    let applied!: () => void;
    const parts = new Promise<void>((resolve) => (applied = resolve));
    vi.spyOn(store.syncSteps, 'whenApplied').mockImplementation((org) => (org === rowId('acme') ? parts : undefined));
    const stop = warmConsoleCaches(store, scheduler());
    await vi.advanceTimersByTimeAsync(2_000);
    expect(warmed).toEqual([]);
    applied();
    await vi.waitFor(() => expect(warmed).toEqual([rowId('acme'), rowId('globex')]));
    stop();
    store.close();
  });

  it('does nothing once stopped', async () => {
    vi.useFakeTimers();
    const { store, warmed } = await storeWithTwoOrganizations();
    const events = scheduler();
    const stop = warmConsoleCaches(store, events);
    stop();
    (events as unknown as EventEmitter).emit('finished', { org: 'acme' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(warmed).toEqual([]);
    store.close();
  });
});
