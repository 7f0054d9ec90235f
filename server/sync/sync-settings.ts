import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import type { SyncSettings } from '../../contracts/console/sync.js';

/**
 * Pauses or resumes a replica's background syncs (at start and on the interval); its data, sync
 * state and settings stay. For replicas only (the caller checks). A running sync is the
 * scheduler's to interrupt (SyncScheduler.setPaused).
 */
export function pauseSyncs(store: Store, organization: Organization, paused: boolean): void {
  store.syncSteps.setPaused(organization.rowId, paused);
}

/**
 * Saves a replica's sync settings (how often it is reconciled with its remote); the next sync
 * that finds a reconcile due by them runs one. Its sync state and data stay as they are. For
 * replicas only (the caller checks).
 */
export function updateSyncSettings(store: Store, organization: Organization, settings: SyncSettings): void {
  store.syncSteps.saveSettings(organization.rowId, settings);
}
