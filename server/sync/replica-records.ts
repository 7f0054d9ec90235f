import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import type { SyncSuccess } from '../store/records/sync-run-records.js';
import { SyncFailedError } from './sync-errors.js';

/** The organization as the store holds it now; throws when it was removed during the sync (a write then rolls back). */
export function stillThere(store: Store, organization: Organization): Organization {
  const current = store.organizations.byRowId(organization.rowId);
  if (!current) throw new SyncFailedError(`The organization "${organization.slug}" was removed during the sync`);
  return current;
}

/**
 * Records a sync that found nothing to write: its record alone, keeping the caches derived
 * from the data (it changes `sync-records` alone), and no changes.
 */
export async function recordNothingChanged(store: Store, organization: Organization, success: SyncSuccess): Promise<undefined> {
  await store.writeSettled(() => {
    stillThere(store, organization);
    store.sync.recordSuccess(organization.rowId, success);
  }, { changes: ['sync-records'] });
  return undefined;
}
