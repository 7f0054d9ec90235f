/** What the sync tests share: a store with a replica, and reading a replica back as lists. */
import type { Inventory } from '../../../contracts/inventory.js';
import type { Organization } from '../../store/records/organization-records.js';
import { Store } from '../../store/store.js';
import type { CollectionName } from '../../../contracts/collections.js';
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
