import { afterEach, describe, expect, it, vi } from 'vitest';
import { Store } from '../store/store.js';
import { identitySealer } from '../test/support/identity-sealer.js';
import { followSyncs, replicaSyncs } from './replica-syncs.js';
import { SyncScheduler } from './sync-scheduler.js';

describe("the replicas' syncs, as the desktop app's Sync menu follows them", () => {
  afterEach(() => vi.useRealTimers());

  it("reads the replicas from the store and follows the scheduler's events, once per burst", async () => {
    const store = await Store.open();
    const scheduler = new SyncScheduler({ store, sealer: identitySealer });
    try {
      store.write(() => {
        store.organizations.insert({ slug: 'local', name: 'Local', kind: 'local' });
        store.organizations.insert({ slug: 'replica', name: 'Replica', kind: 'replica', remoteUrl: 'http://127.0.0.1:9' });
      });
      expect(replicaSyncs(store, scheduler)).toEqual([{ slug: 'replica', name: 'Replica', status: expect.objectContaining({ org: 'replica', running: false }) }]);

      vi.useFakeTimers();
      const changed = vi.fn();
      const stop = followSyncs(scheduler, changed, 500);
      scheduler.emit('progress', { org: 'replica', mode: 'full', phase: 'checking', fetched: 0, total: 0 });
      scheduler.emit('failed', { org: 'replica', error: 'x' });
      vi.advanceTimersByTime(500);
      expect(changed).toHaveBeenCalledTimes(1);
      await scheduler.disconnect('replica', () => store.write(() => store.organizations.delete(store.organizations.bySlug('replica')!.rowId)));
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
});
