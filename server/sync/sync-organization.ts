import type { RemoteTenant } from '../remote/remote-tenant.js';
import type { Inventory } from '../../contracts/inventory.js';
import type { Organization } from '../store/organizations.js';
import type { Store } from '../store/store.js';
import type { SyncCounts, SyncProgress } from '../../contracts/console/sync.js';
import type { SyncMode } from '../../contracts/enums.js';
import { skippedIdsKept } from '../store/sync-records.js';
import { remoteHonoursUpdatedSince } from './probe-updated-since.js';
import { pullCollection } from './pull-collection.js';
import { fetchPage } from './remote-pages.js';
import { collections } from '../../contracts/collections.js';
import { syncOrder } from './sync-collections.js';
import { SyncFailedError } from './sync-errors.js';
import { type SyncPolicy, defaultSyncPolicy } from './sync-policy.js';

/** What a successful sync did. */
export interface SyncReport {
  org: string;
  mode: SyncMode;
  startedAt: string;
  finishedAt: string;
  /** Valid items received per collection (all of them for a full sync, the changes for an incremental one). */
  counts: SyncCounts;
  skippedCount: number;
  skippedIds: string[];
}

/** How one sync runs. */
export interface SyncOptions {
  /** A full sync even when an incremental one would do. */
  full?: boolean;
  policy?: Partial<SyncPolicy>;
  signal?: AbortSignal;
  onProgress?: (progress: SyncProgress) => void;
}

/**
 * Syncs a replica organization from its remote tenant: pulls the four collections (only the
 * changes when the remote honours `updatedSince` and a full sync is not due), then writes them
 * in one transaction with the sync state. A failure leaves the replica as it was and records why.
 */
export async function syncOrganization(store: Store, organization: Organization, remote: RemoteTenant, options: SyncOptions = {}): Promise<SyncReport> {
  const policy = { ...defaultSyncPolicy, ...options.policy };
  const { signal } = options;
  const startedAt = new Date().toISOString();
  const previous = store.sync.get(organization.rowId);
  const report = (progress: Omit<SyncProgress, 'org'>) => options.onProgress?.({ org: organization.slug, ...progress });
  let mode: SyncMode | undefined;

  const pullAll = async (updatedSince: string | undefined) => {
    const inventory: Inventory = { endpoints: [], remediationTargets: [], scopes: [], findings: [] };
    const counts: SyncCounts = { endpoints: 0, remediationTargets: 0, scopes: 0, findings: 0 };
    const skippedIds: string[] = [];
    let skippedCount = 0;
    for (const collection of syncOrder) {
      const currentMode = mode;
      report({ mode, phase: 'fetching', collection, fetched: 0, total: 0 });
      const onPage = (fetched: number, total: number) => report({ mode: currentMode, phase: 'fetching', collection, fetched, total });
      const pulled = await pullCollection(collection, { remote, policy, updatedSince, signal, onPage });
      (inventory[collection] as unknown[]) = pulled.items;
      counts[collection] = pulled.items.length;
      skippedCount += pulled.skippedCount;
      skippedIds.push(...pulled.skippedIds);
    }
    return { inventory, counts, skippedCount, skippedIds };
  };

  try {
    report({ mode, phase: 'checking', fetched: 0, total: 0 });
    const fullDue = options.full || previous.lastSuccessStartedAt === null || previous.incrementalsSinceFull >= policy.fullSyncEvery;
    const honours = await remoteHonoursUpdatedSince(remote, policy, signal);
    mode = !fullDue && honours ? 'incremental' : 'full';
    const incremental = mode === 'incremental';
    const totals = incremental ? await remoteTotals(remote, policy, signal) : undefined;
    const since = incremental ? new Date(Date.parse(previous.lastSuccessStartedAt!) - policy.incrementalMarginMs).toISOString() : undefined;
    const { inventory, ...outcome } = await pullAll(since);
    report({ mode, phase: 'writing', fetched: 0, total: 0 });
    signal?.throwIfAborted();
    const success = { startedAt, finishedAt: new Date().toISOString(), mode, remoteHonoursUpdatedSince: honours, ...outcome };
    store.write((writes) => {
      if (!store.organizations.byRowId(organization.rowId)) throw new SyncFailedError(`The organization "${organization.slug}" was removed during the sync`);
      if (!incremental) writes.replace(organization.rowId, inventory);
      else {
        writes.merge(organization.rowId, inventory);
        // More rows here than the remote has: something was deleted there. Undo, and sync in full.
        const counts = writes.counts(organization.rowId);
        if (syncOrder.some((collection) => counts[collection] > totals![collection])) throw new DeletionsFound();
      }
      store.sync.recordSuccess(organization.rowId, success);
    });
    return { org: organization.slug, ...success, skippedIds: success.skippedIds.slice(0, skippedIdsKept) };
  } catch (error) {
    if (error instanceof DeletionsFound) return syncOrganization(store, organization, remote, { ...options, full: true });
    const failure =
      error instanceof SyncFailedError
        ? error
        : new SyncFailedError(signal?.aborted ? 'The sync was interrupted' : `The sync failed: ${error instanceof Error ? error.message : String(error)}`, {
            cause: error,
          });
    if (store.organizations.byRowId(organization.rowId)) {
      store.write(() => store.sync.recordFailure(organization.rowId, { startedAt, mode: mode ?? 'full', error: failure.message }));
    }
    throw failure;
  }
}

/** An incremental sync found rows the remote no longer has; the transaction rolls back. */
class DeletionsFound extends Error {}

/** Each collection's total on the remote, by one request of one item each. */
async function remoteTotals(remote: RemoteTenant, policy: SyncPolicy, signal?: AbortSignal): Promise<SyncCounts> {
  const totals: SyncCounts = { endpoints: 0, remediationTargets: 0, scopes: 0, findings: 0 };
  for (const collection of syncOrder) totals[collection] = (await fetchPage(remote, `${collections[collection].v1Path}?limit=1&offset=0`, policy, signal)).total;
  return totals;
}
