import { afterEach, describe, expect, it, vi } from 'vitest';
import { Store } from '../store/store.js';
import { identitySealer } from '../test/support/identity-sealer.js';
import { followSyncAlerts, followSyncs, replicaSyncs } from './replica-syncs.js';
import type { SyncReport } from './sync-organization.js';
import { SyncScheduler } from './sync-scheduler.js';
import { changeKinds } from '../store/derived/change-kinds.js';

describe("the replicas' syncs, as the desktop app's Sync menu follows them", () => {
  afterEach(() => vi.useRealTimers());

  it("reads the replicas from the store and follows the scheduler's events, once per burst", async () => {
    const store = await Store.open();
    const scheduler = new SyncScheduler({ store, sealer: identitySealer });
    try {
      store.write(() => {
        store.organizations.insert({ slug: 'local', name: 'Local', kind: 'local' });
        store.organizations.insert({ slug: 'replica', name: 'Replica', kind: 'replica', remoteUrl: 'http://127.0.0.1:9' });
      }, { changes: ['organizations', 'inventory'] });
      expect(replicaSyncs(store, scheduler)).toEqual([{ slug: 'replica', name: 'Replica', status: expect.objectContaining({ org: 'replica', running: false }) }]);

      vi.useFakeTimers();
      const changed = vi.fn();
      const stop = followSyncs(scheduler, changed, 500);
      scheduler.emit('progress', { org: 'replica', mode: 'full', phase: 'checking', fetched: 0, total: 0 });
      scheduler.emit('failed', { org: 'replica', error: 'x' });
      vi.advanceTimersByTime(500);
      expect(changed).toHaveBeenCalledTimes(1);
      await scheduler.disconnect('replica', () => store.write(() => store.organizations.delete(store.organizations.bySlug('replica')!.rowId), { changes: changeKinds }));
      vi.advanceTimersByTime(500);
      expect(changed).toHaveBeenCalledTimes(2);
      expect(replicaSyncs(store, scheduler)).toEqual([]);
      stop();
      scheduler.emit('failed', { org: 'replica', error: 'x' });
      vi.advanceTimersByTime(500);
      expect(changed).toHaveBeenCalledTimes(2);
    } finally {
      await scheduler.stop();
      store.close();
    }
  });

  it('tells of each sync that recorded findings newly open critical or KEV, with the replica\'s name, once', async () => {
    const store = await Store.open();
    const scheduler = new SyncScheduler({ store, sealer: identitySealer });
    try {
      store.write(() => store.organizations.insert({ slug: 'replica', name: 'Replica', kind: 'replica', remoteUrl: 'http://127.0.0.1:9' }), { changes: ['organizations', 'inventory'] });
      const alert = vi.fn();
      const stop = followSyncAlerts(store, scheduler, alert);
      const report = (changes: SyncReport['changes']): SyncReport => ({
        org: 'replica', mode: 'incremental', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z',
        counts: { endpoints: 0, remediationTargets: 0, scopes: 0, findings: 1 }, skippedCount: 0, skippedIds: [], changes,
      });
      const brought = { id: 7, finishedAt: '2026-01-01T00:00:01.000Z', newlyOpen: { total: 2, critical: 1, kev: 1 } };
      scheduler.emit('finished', report(brought));
      scheduler.emit('finished', report(null));
      scheduler.emit('finished', report({ ...brought, id: 8, newlyOpen: { total: 0, critical: 0, kev: 0 } }));
      expect(alert).toHaveBeenCalledExactlyOnceWith({ slug: 'replica', name: 'Replica', changes: brought });
      stop();
      scheduler.emit('finished', report(brought));
      expect(alert).toHaveBeenCalledTimes(1);
    } finally {
      await scheduler.stop();
      store.close();
    }
  });
});
