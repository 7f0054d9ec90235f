/** What the sync tests share: a store with a replica, reading a replica back as lists, and a success as a sync step records it. */
import type { Inventory } from '../../../contracts/inventory.js';
import type { Organization } from '../../store/records/organization-records.js';
import { Store } from '../../store/store.js';
import type { CollectionName } from '../../../contracts/collections.js';
import type { SyncSuccess } from '../../store/records/sync-run-records.js';
import type { SyncPolicy } from '../../sync/sync-policy.js';
import { inDefaultOrder } from './fixtures.js';

/** A policy that gives up fast, for tests. */
export const fastPolicy: Partial<SyncPolicy> = {
  requestTimeoutMs: 1_000,
  requestAttempts: 4,
  backoffBaseMs: 5,
  backoffMaxMs: 20,
  retryAfterMaxMs: 3_000,
  collectionAttempts: 3,
};

/** A sync's success as a step of the store records it (store/sync-steps.ts), for tests that write the steps themselves. */
export const recordedSuccess: SyncSuccess = {
  startedAt: '2026-11-28T10:00:00.000Z',
  finishedAt: '2026-11-28T10:00:01.000Z',
  mode: 'incremental',
  remoteHonoursUpdatedSince: true,
  counts: { endpoints: 5, remediationTargets: 0, scopes: 0, findings: 0 },
  skippedCount: 0,
  skippedIds: [],
};

/** An in-memory store with one replica organization pointing at `remoteUrl`. */
export async function storeWithReplica(remoteUrl: string): Promise<{ store: Store; organization: Organization }> {
  const store = await Store.open();
  const organization = store.write(() => store.organizations.insert({ slug: 'replica', name: 'Replica', kind: 'replica', remoteUrl }), { changes: ['organizations', 'inventory'] });
  return { store, organization };
}

/** Every item of a replica's list, in list order, as the v1 API answers it. */
export function replicaList(store: Store, organization: Organization, collection: CollectionName): unknown[] {
  const items: unknown[] = [];
  for (let offset = 0; ; offset += 100) {
    const paging = { limit: 100, offset };
    const page = store.inventory.list(organization.rowId, collection, paging);
    items.push(...page.items.map((json) => JSON.parse(json) as unknown));
    if (page.items.length < 100) return items;
  }
}

/** What a replica of `inventory` must answer: every list in the default order. */
export function expectedLists(inventory: Inventory): Record<CollectionName, unknown[]> {
  return {
    endpoints: inDefaultOrder(inventory.endpoints),
    remediationTargets: inDefaultOrder(inventory.remediationTargets),
    scopes: inDefaultOrder(inventory.scopes),
    findings: inDefaultOrder(inventory.findings),
  };
}

/** A replica's four lists. */
export function replicaLists(store: Store, organization: Organization): Record<CollectionName, unknown[]> {
  return {
    endpoints: replicaList(store, organization, 'endpoints'),
    remediationTargets: replicaList(store, organization, 'remediationTargets'),
    scopes: replicaList(store, organization, 'scopes'),
    findings: replicaList(store, organization, 'findings'),
  };
}
