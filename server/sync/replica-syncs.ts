import type { ReplicaSync } from '../../contracts/server-thread-channel.js';
import type { Store } from '../store/store.js';
import type { SyncScheduler } from './sync-scheduler.js';

/** Every replica of the store with its sync status, in the store's order (for the desktop app's Sync menu). */
export function replicaSyncs(store: Store, scheduler: SyncScheduler): ReplicaSync[] {
  return store.organizations
    .list()
    .filter((organization) => organization.kind === 'replica')
    .flatMap((organization) => {
      const status = scheduler.status(organization.slug);
      return status ? [{ slug: organization.slug, name: organization.name, status }] : [];
    });
}

/**
 * Calls `changed` after the scheduler reports progress, an end, a failure or a disconnected
 * replica: at most once per `delayMs`, and after the burst, so that what follows the syncs (the
 * desktop app's Sync menu) is told once per burst, not per page fetched. Returns what stops
 * following.
 */
export function followSyncs(scheduler: SyncScheduler, changed: () => void, delayMs = 500): () => void {
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      changed();
    }, delayMs);
  };
  scheduler.on('progress', schedule);
  scheduler.on('finished', schedule);
  scheduler.on('failed', schedule);
  scheduler.on('disconnected', schedule);
  return () => {
    clearTimeout(timer);
    scheduler.off('progress', schedule);
    scheduler.off('finished', schedule);
    scheduler.off('failed', schedule);
    scheduler.off('disconnected', schedule);
  };
}
