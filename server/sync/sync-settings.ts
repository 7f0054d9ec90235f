import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import type { SyncSettings } from '../../contracts/console/sync.js';

/**
 * Saves a replica's sync settings (how often it is reconciled with its remote); the next sync
 * that finds a reconcile due by them runs one. Its sync state and data stay as they are. For
 * replicas only (the caller checks).
 */
export function updateSyncSettings(store: Store, organization: Organization, settings: SyncSettings): void {
  store.write(() => store.sync.saveSettings(organization.rowId, settings), { changes: ['sync-records'] });
}
