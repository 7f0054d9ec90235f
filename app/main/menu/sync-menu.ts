import type { MenuItemConstructorOptions } from 'electron';
import type { Store } from '../../../server/store/store.js';
import type { SyncStatus } from '../../../contracts/console/sync.js';
import type { SyncScheduler } from '../../../server/sync/sync-scheduler.js';

/** A replica as the Sync menu lists it. */
export interface ReplicaSync {
  slug: string;
  name: string;
  status: SyncStatus;
}

/** What the Sync menu shows and does: the replicas' states, syncs through the server's scheduler. */
export interface SyncMenuContext {
  replicas: ReplicaSync[];
  syncNow: (slug: string, full: boolean) => void;
  /** Opens the console's Organizations view, where replicas are connected and followed. */
  showOrganizations: () => void;
}

/** Every replica of the store with its sync status, in the store's order. */
export function replicaSyncs(store: Store, scheduler: SyncScheduler): ReplicaSync[] {
  return store.organizations
    .list()
    .filter((organization) => organization.kind === 'replica')
    .flatMap((organization) => {
      const status = scheduler.status(organization.slug);
      return status ? [{ slug: organization.slug, name: organization.name, status }] : [];
    });
}

/** A replica's state in a few words, as a menu item can show it. */
export function replicaStateText(status: SyncStatus, formatTime: (iso: string) => string = (iso) => new Date(iso).toLocaleString()): string {
  if (status.running) return 'Syncing…';
  if (status.state.lastError) return `Failed: ${status.state.lastError}`;
  return status.state.lastSuccessAt ? `Synced ${formatTime(status.state.lastSuccessAt)}` : 'Never synced';
}

/** The Sync menu: per replica its state, Sync Now and Full Sync (not while it syncs); then the Organizations view. */
export function syncMenuTemplate(context: SyncMenuContext): MenuItemConstructorOptions {
  const replicas: MenuItemConstructorOptions[] = context.replicas.length
    ? context.replicas.map(({ slug, name, status }) => ({
        id: `sync-${slug}`,
        label: `${name} (${slug})`,
        submenu: [
          { id: `sync-${slug}-state`, label: replicaStateText(status), enabled: false },
          { type: 'separator' },
          { id: `sync-${slug}-now`, label: 'Sync Now', enabled: !status.running, click: () => context.syncNow(slug, false) },
          { id: `sync-${slug}-full`, label: 'Full Sync', enabled: !status.running, click: () => context.syncNow(slug, true) },
        ],
      }))
    : [{ id: 'sync-none', label: 'No Remote Tenants Connected', enabled: false }];
  return {
    label: '&Sync',
    submenu: [...replicas, { type: 'separator' }, { id: 'sync-organizations', label: 'Organizations…', click: context.showOrganizations }],
  };
}

/**
 * Calls `rebuild` after the scheduler reports progress, an end, a failure or a disconnected
 * replica: at most once per
 * `delayMs`, and after the burst, so that a menu follows the syncs without being rebuilt per
 * page fetched. Returns what stops following.
 */
export function followSyncs(scheduler: SyncScheduler, rebuild: () => void, delayMs = 500): () => void {
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      rebuild();
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
