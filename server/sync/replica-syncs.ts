import type { ReplicaSync, SyncAlert } from '../../contracts/server-thread-channel.js';
import type { Store } from '../store/store.js';
import type { SyncReport } from './sync-organization.js';
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

/**
 * Calls `alert` for each sync that ends having recorded findings newly open critical or KEV
 * (a replica's first sync never does: it lists none), once per sync. Returns what stops following.
 */
export function followSyncAlerts(store: Store, scheduler: SyncScheduler, alert: (alert: SyncAlert) => void): () => void {
  const finished = (report: SyncReport) => {
    const organization = store.organizations.bySlug(report.org);
    if (organization && report.changes && report.changes.newlyOpen.total > 0) alert({ slug: organization.slug, name: organization.name, changes: report.changes });
  };
  scheduler.on('finished', finished);
  return () => scheduler.off('finished', finished);
}
