import { describe, expect, it } from 'vitest';
import { syncChangeFindingsListed, syncChangesKept } from '../../../contracts/console/sync-change-bounds.js';
import { Store } from '../store.js';
import { SyncChangeTally } from '../basics/change-tally.js';
import { changeKinds } from '../derived/change-kinds.js';

const sync = (n: number) => ({ startedAt: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(), finishedAt: new Date(Date.UTC(2026, 0, 1, 0, n, 30)).toISOString(), mode: 'incremental' as const });

/** A tally of one endpoint updated and `newlyOpen` findings newly open critical. */
function tally(newlyOpen = 0): SyncChangeTally {
  const changes = new SyncChangeTally();
  changes.merged('endpoints', true);
  for (let i = 0; i < newlyOpen; i++) {
    changes.mergedFinding(
      { id: `00000003-0000-4000-8000-${String(i).padStart(12, '0')}`, cve_id: 'CVE-2024-1000', severity: 'critical', is_kev: false, endpoint_id: null, status: 'open' },
      undefined,
    );
  }
  return changes;
}

describe('SyncChangeRecords', () => {
  it('keeps the last 50 syncs of each replica, newest first, and forgets them with the replica', async () => {
    const store = await Store.open();
    const [a, b] = store.write(() => [
      store.organizations.insert({ slug: 'a', name: 'A', kind: 'replica', remoteUrl: 'http://127.0.0.1:1' }),
      store.organizations.insert({ slug: 'b', name: 'B', kind: 'replica', remoteUrl: 'http://127.0.0.1:2' }),
    ], { changes: ['organizations', 'inventory'] });
    const ids: number[] = [];
    for (let n = 0; n < syncChangesKept + 3; n++) ids.push(store.write(() => store.syncChanges.record(a!.rowId, sync(n), tally()), { changes: ['sync-records'] })!.id);
    store.write(() => store.syncChanges.record(b!.rowId, sync(0), tally(2)), { changes: ['sync-records'] });

    const kept = store.syncChanges.list(a!.rowId);
    expect(kept.map((changes) => changes.id)).toEqual(ids.slice(3).reverse());
    expect(kept[0]).toMatchObject({ ...sync(syncChangesKept + 2), firstSync: false, counts: { endpoints: { created: 0, updated: 1, removed: 0 } } });
    expect(store.syncChanges.get(a!.rowId, ids[0]!)).toBeUndefined();
    expect(store.syncChanges.get(b!.rowId, ids.at(-1)!)).toBeUndefined();
    expect(store.syncChanges.latest(b!.rowId)).toMatchObject({ finishedAt: sync(0).finishedAt, newlyOpen: { total: 2, critical: 2, kev: 0 } });

    store.write(() => store.organizations.delete(a!.rowId), { changes: changeKinds });
    expect(store.syncChanges.list(a!.rowId)).toEqual([]);
    expect(store.syncChanges.list(b!.rowId)).toHaveLength(1);
    // An id is never handed out again, whosever records were deleted.
    expect(store.write(() => store.syncChanges.record(b!.rowId, sync(1), tally()), { changes: ['sync-records'] })!.id).toBeGreaterThan(ids.at(-1)!);
    store.close();
  });

  it('lists the first findings of a large sync, with their total, and records nothing for a sync that changed nothing', async () => {
    const store = await Store.open();
    const organization = store.write(() => store.organizations.insert({ slug: 'a', name: 'A', kind: 'replica', remoteUrl: 'http://127.0.0.1:1' }), { changes: ['organizations', 'inventory'] });
    const large = tally(syncChangeFindingsListed + 25);
    const summary = store.write(() => store.syncChanges.record(organization.rowId, sync(0), large), { changes: ['sync-records'] })!;
    const recorded = store.syncChanges.get(organization.rowId, summary.id)!;
    expect(recorded.newlyOpen.total).toBe(syncChangeFindingsListed + 25);
    expect(recorded.newlyOpen.findings).toHaveLength(syncChangeFindingsListed);
    expect(recorded.newlyOpen.findings[0]).toMatchObject({ id: '00000003-0000-4000-8000-000000000000', endpoint_hostname: null });
    expect(store.write(() => store.syncChanges.record(organization.rowId, sync(1), new SyncChangeTally()), { changes: ['sync-records'] })).toBeUndefined();
    expect(store.syncChanges.list(organization.rowId)).toHaveLength(1);
    store.close();
  });
});
