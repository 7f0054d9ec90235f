import type { RemoteTenant } from '../remote/remote-tenant.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import type { CountBaseline, CountCheckOutcome, ReplicaTotals } from '../store/records/sync-run-records.js';
import { type CollectionName, type V1Query, collections } from '../../contracts/collections.js';
import { type SyncCountCheckId, syncCountChecks } from '../../contracts/console/sync-basics.js';
import { fetchPage } from './remote-pages.js';
import type { SyncPolicy } from './sync-policy.js';

/** Each count check's totals, on the remote and in the replica. */
export type ObservedCounts = Record<SyncCountCheckId, { remote: number; replica: number }>;

/**
 * The totals of {@link syncCountChecks} on the remote (a list request of one item each, all at
 * once) and in the replica: those the last check counted while its data has not changed since
 * (SyncRecords.replicaTotals), otherwise its v1 list's total, counted in slices of the event
 * loop's time (a pass over each filter's index: about a million findings for `large`).
 */
export async function observeCounts(store: Store, organization: Organization, remote: RemoteTenant, policy: SyncPolicy, signal?: AbortSignal): Promise<ObservedCounts> {
  const kept = store.sync.replicaTotals(organization.rowId);
  // The remote's nine totals are asked at once (small requests, well within pagesInFlightBound), then the replica's counted in turn.
  const remoteTotals = await Promise.all(
    syncCountChecks.map(async (check) => {
      const filter = check.filter === '' ? '' : `&${check.filter}`;
      return (await fetchPage(remote, `${collections[check.collection].v1Path}?limit=1&offset=0${filter}`, policy, signal)).total;
    }),
  );
  const observed: Partial<ObservedCounts> = {};
  for (const [i, check] of syncCountChecks.entries()) {
    const collection: CollectionName = check.collection;
    observed[check.id] = { remote: remoteTotals[i]!, replica: kept?.[check.id] ?? (await replicaTotal(store, organization, collection, check.filter)) };
  }
  return observed as ObservedCounts;
}

/** The total of the replica's v1 list of `collection` with `filter` (a query string), counted in slices. */
async function replicaTotal(store: Store, organization: Organization, collection: CollectionName, filter: string): Promise<number> {
  const query = collections[collection].v1Query.parse({ limit: '1', offset: '0', ...Object.fromEntries(new URLSearchParams(filter)) }) as V1Query<CollectionName>;
  await store.inventory.countList(organization.rowId, collection, query);
  return store.inventory.list(organization.rowId, collection, query).total;
}

/**
 * Compares observed totals with the baseline (the differences seen right after the last
 * reconcile: remote items the replica skips as invalid): the checks whose difference moved.
 */
export function countOutcome(observed: ObservedCounts, baseline: CountBaseline, checkedAt = new Date().toISOString()): CountCheckOutcome {
  const differences = syncCountChecks
    .filter((check) => observed[check.id].remote - observed[check.id].replica !== (baseline[check.id] ?? 0))
    .map((check) => ({ check: check.id, ...observed[check.id] }));
  const replicaTotals = Object.fromEntries(syncCountChecks.map((check) => [check.id, observed[check.id].replica])) as ReplicaTotals;
  return { checkedAt, differences, replicaTotals };
}

/** The baseline of later checks: the differences observed right after a reconcile or full sync. */
export function baselineOf(observed: ObservedCounts): CountBaseline {
  const baseline: CountBaseline = {};
  for (const check of syncCountChecks) {
    const difference = observed[check.id].remote - observed[check.id].replica;
    if (difference !== 0) baseline[check.id] = difference;
  }
  return baseline;
}
