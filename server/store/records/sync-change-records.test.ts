import { describe, expect, it } from 'vitest';
import { syncChangeFindingsListed, syncChangesKept, syncFindingMovesKept } from '../../../contracts/console/sync-change-bounds.js';
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

  it("keeps every finding a sync moved, whole, and none of a sync that moved more than the bound; deleted with the sync's record", async () => {
    const store = await Store.open();
    const organization = store.write(() => store.organizations.insert({ slug: 'a', name: 'A', kind: 'replica', remoteUrl: 'http://127.0.0.1:1' }), { changes: ['organizations', 'inventory'] });
    const id = (i: number) => `00000004-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const moved = tally(syncChangeFindingsListed + 25);
    moved.mergedFinding({ id: id(1), cve_id: 'CVE-2024-1001', severity: 'low', is_kev: false, endpoint_id: null, status: 'remediated' }, { status: 'open', severity: 'low', isKev: false });
    moved.mergedFinding({ id: id(2), cve_id: 'CVE-2024-1002', severity: 'low', is_kev: true, endpoint_id: null, status: 'open' }, { status: 'open', severity: 'low', isKev: false });
    // Updated, still open and not KEV: no move.
    moved.mergedFinding({ id: id(3), cve_id: 'CVE-2024-1003', severity: 'high', is_kev: false, endpoint_id: null, status: 'open' }, { status: 'open', severity: 'low', isKev: false });
    const kept = store.write(() => store.syncChanges.record(organization.rowId, sync(0), moved), { changes: ['sync-records'] })!;
    const moves = store.syncChanges.moves(kept.id);
    // Every newly open one, beyond the first 100 the record lists.
    expect(moves.o).toHaveLength(syncChangeFindingsListed + 25);
    expect(moves.c).toEqual([id(1)]);
    expect(moves.k).toEqual([id(2)]);
    expect(store.syncChanges.get(organization.rowId, kept.id)!.findingsKept).toBe(true);

    const tooMany = tally();
    tooMany.moved('c', Array.from({ length: syncFindingMovesKept }, (_, i) => id(10 + i)));
    expect(tooMany.moves).not.toBeNull();
    tooMany.moved('o', [id(5)]);
    expect(tooMany.moves).toBeNull();
    const unkept = store.write(() => store.syncChanges.record(organization.rowId, sync(1), tooMany), { changes: ['sync-records'] })!;
    expect(store.syncChanges.get(organization.rowId, unkept.id)!.findingsKept).toBe(false);
    expect(store.syncChanges.moves(unkept.id)).toEqual({ o: [], c: [], k: [] });
    expect(store.syncChanges.recordedAfter(organization.rowId, kept.id)).toEqual([{ id: unkept.id, finishedAt: sync(1).finishedAt, findingsKept: false }]);

    for (let n = 2; n < syncChangesKept + 2; n++) store.write(() => store.syncChanges.record(organization.rowId, sync(n), tally()), { changes: ['sync-records'] });
    expect(store.syncChanges.get(organization.rowId, kept.id)).toBeUndefined();
    expect(store.syncChanges.moves(kept.id)).toEqual({ o: [], c: [], k: [] });
    store.close();
  });
});
