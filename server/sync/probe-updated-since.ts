import type { RemoteTenant } from '../remote/remote-tenant.js';
import { fetchPage } from './remote-pages.js';
import { collections } from '../../contracts/collections.js';
import { syncOrder } from './sync-collections.js';
import { RemoteRefusedError } from './sync-errors.js';
import type { SyncPolicy } from './sync-policy.js';

/**
 * Asks whether the remote honours the `updatedSince` extension: asked for items updated a year
 * from now, one that honours it answers a total of 0 and one that ignores the parameter its
 * full total. A remote that refuses the parameter (400) does not honour it; every collection
 * must honour it for an incremental sync.
 */
export async function remoteHonoursUpdatedSince(remote: RemoteTenant, policy: SyncPolicy, signal?: AbortSignal): Promise<boolean> {
  const future = encodeURIComponent(new Date(Date.now() + 365 * 24 * 3600_000).toISOString());
  for (const collection of syncOrder) {
    try {
      const page = await fetchPage(remote, `${collections[collection].v1Path}?limit=1&offset=0&updatedSince=${future}`, policy, signal);
      if (page.total !== 0) return false;
    } catch (error) {
      if (error instanceof RemoteRefusedError && error.status === 400) return false;
      throw error;
    }
  }
  return true;
}
