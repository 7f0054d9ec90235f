import type { MenuItemConstructorOptions } from 'electron';
import type { SyncStatus } from '../../../contracts/console/sync.js';
import type { ReplicaSync } from '../../../contracts/server-thread-channel.js';

/** What the Sync menu shows and does: the replicas' states as the server's thread reports them, syncs started there. */
export interface SyncMenuContext {
  replicas: ReplicaSync[];
  syncNow: (slug: string, full: boolean) => void;
  /** Opens the console's Changes view of a replica: what its syncs changed. */
  showChanges: (slug: string) => void;
  /** Opens the console's Organizations view, where replicas are connected and followed. */
  showOrganizations: () => void;
  /** Whether a sync that brings findings newly open critical or KEV shows a notification (the setting), and its change. */
  notifyOfNewFindings: boolean;
  setNotifyOfNewFindings: (notify: boolean) => void;
}

/** A replica's state in a few words, as a menu item can show it. */
export function replicaStateText(status: SyncStatus, formatTime: (iso: string) => string = (iso) => new Date(iso).toLocaleString()): string {
  if (status.running) return 'Syncing…';
  // The sentence alone: a menu item is one line, and the detail line is for the console.
  if (status.state.lastError) return `Failed: ${status.state.lastError.split('\n')[0]}`;
  return status.state.lastSuccessAt ? `Synced ${formatTime(status.state.lastSuccessAt)}` : 'Never synced';
}

/**
 * The Sync menu: per replica its state, Sync Now and Full Sync (not while it syncs) and its
 * changes; then the notifications' setting and the Organizations view.
 */
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
          { type: 'separator' },
          { id: `sync-${slug}-changes`, label: 'Show Changes…', click: () => context.showChanges(slug) },
        ],
      }))
    : [{ id: 'sync-none', label: 'No Remote Tenants Connected', enabled: false }];
  return {
    label: '&Sync',
    submenu: [
      ...replicas,
      { type: 'separator' },
      {
        id: 'sync-notify',
        label: 'Notify of New Critical or KEV Findings',
        type: 'checkbox',
        checked: context.notifyOfNewFindings,
        click: () => context.setNotifyOfNewFindings(!context.notifyOfNewFindings),
      },
      { id: 'sync-organizations', label: 'Organizations…', click: context.showOrganizations },
    ],
  };
}
