import { afterEach, describe, expect, it } from 'vitest';
import type { CollectionName } from '../../contracts/collections.js';
import type { SyncChanges } from '../../contracts/console/sync-changes.js';
import type { Inventory } from '../../contracts/inventory.js';
import type { VulnerabilityFinding } from '../../contracts/vulnerability-finding.js';
import type { Store } from '../store/store.js';
import { type FakeRemote, startFakeRemote } from '../test/support/fake-remote.js';
import { sampleInventory } from '../test/support/sample-inventory.js';
import { fastPolicy, storeWithReplica } from '../test/support/sync-fixtures.js';
import { SyncFailedError } from './sync-errors.js';
import { type SyncOptions, syncOrganization } from './sync-organization.js';

const sizes = { endpoints: 30, targetsPerEndpoint: 3, findingsPerTarget: 3, scopes: 5 };
const remotes: FakeRemote[] = [];
const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(remotes.splice(0).map((remote) => remote.close()));
  for (const store of stores.splice(0)) store.close();
});

async function setUp() {
  const remote = await startFakeRemote({ inventory: sampleInventory(sizes) });
  remotes.push(remote);
  const { store, organization } = await storeWithReplica(remote.url);
  stores.push(store);
  const sync = (more: SyncOptions = {}) =>
    syncOrganization(store, organization, { baseUrl: remote.url, apiKey: remote.apiKey }, { ...more, policy: { ...fastPolicy, ...more.policy } });
  return { remote, store, sync, recorded: () => store.syncChanges.list(organization.rowId), inventory: () => remote.options.inventory };
}

const copy = (inventory: Inventory): Inventory => structuredClone(inventory);
const needsAttention = (finding: VulnerabilityFinding) => finding.status === 'open' && (finding.severity === 'critical' || finding.is_kev);

/**
 * What a sync from `before` to `after` changed, computed from the two inventories alone: the
 * oracle the recorded changes are checked against (listed findings as sets of ids: fewer than
 * the listing bound here).
 */
function expectedChanges(before: Inventory, after: Inventory) {
  const counts = {} as SyncChanges['counts'];
  for (const collection of Object.keys(after) as CollectionName[]) {
    const old = new Map((before[collection] as { id: string; updated_at: string }[]).map((item) => [item.id, item.updated_at]));
    const now = after[collection] as { id: string; updated_at: string }[];
    const kept = now.filter((item) => old.has(item.id));
    counts[collection] = {
      created: now.length - kept.length,
      updated: kept.filter((item) => old.get(item.id) !== item.updated_at).length,
      removed: old.size - kept.length,
    };
  }
  const oldFindings = new Map(before.findings.map((finding) => [finding.id, finding]));
  const newlyOpen = after.findings.filter((finding) => {
    const old = oldFindings.get(finding.id);
    return needsAttention(finding) && !(old && needsAttention(old));
  });
  const remediated = after.findings.filter((finding) => finding.status === 'remediated' && oldFindings.get(finding.id)?.status === 'open');
  return {
    counts,
    newlyOpen: {
      total: newlyOpen.length,
      critical: newlyOpen.filter((finding) => finding.severity === 'critical').length,
      kev: newlyOpen.filter((finding) => finding.is_kev).length,
      ids: newlyOpen.map((finding) => finding.id).sort(),
    },
    remediated: { total: remediated.length, ids: remediated.map((finding) => finding.id).sort() },
  };
}

/** The recorded changes in the oracle's shape. */
function asExpected(changes: SyncChanges) {
  return {
    counts: changes.counts,
    newlyOpen: { ...changes.newlyOpen, findings: undefined, ids: changes.newlyOpen.findings.map((finding) => finding.id).sort() },
    remediated: { total: changes.remediated.total, ids: changes.remediated.findings.map((finding) => finding.id).sort() },
  };
}

const newEndpointId = '00000001-0000-4000-8000-00000000ffaa';
const newFindingId = '00000003-0000-4000-8000-00000000ffaa';

/**
 * A remote's day of work: an endpoint created with an open critical finding on it, a target
 * updated, an open high finding that became KEV, two open findings remediated, a remediated
 * critical one reopened, and, with `removals`, a scope and a finding removed.
 */
function changeRemote(inventory: Inventory, { removals = false } = {}): void {
  const now = new Date().toISOString();
  const first = inventory.endpoints[0]!;
  inventory.endpoints.push({ ...first, id: newEndpointId, hostname: 'new-host.example.test', created_at: now, updated_at: now });
  const template = inventory.findings[0]!;
  inventory.findings.push({ ...template, id: newFindingId, endpoint_id: newEndpointId, severity: 'critical', is_kev: false, status: 'open', remediated_at: null, created_at: now, updated_at: now });
  inventory.remediationTargets[4] = { ...inventory.remediationTargets[4]!, status: 'resolved', updated_at: now };
  // Each change picks a finding no earlier change touched.
  const update = (pick: (finding: VulnerabilityFinding) => boolean, change: Partial<VulnerabilityFinding>) => {
    const index = inventory.findings.findIndex((finding) => finding.updated_at !== now && pick(finding));
    inventory.findings[index] = { ...inventory.findings[index]!, ...change, updated_at: now };
  };
  update((f) => f.status === 'open' && f.severity === 'high' && !f.is_kev, { is_kev: true });
  update((f) => f.status === 'open' && f.severity === 'medium', { status: 'remediated', remediated_at: now });
  update((f) => f.status === 'open' && f.severity === 'critical', { status: 'remediated', remediated_at: now });
  update((f) => f.status === 'remediated' && f.severity === 'critical', { status: 'open', remediated_at: null });
  if (removals) {
    inventory.scopes.splice(1, 1);
    inventory.findings.splice(7, 1);
  }
}

describe("a sync's changes", () => {
  it('are counts alone for the first sync of a replica, with no finding listed as newly open', async () => {
    const { sync, recorded, inventory } = await setUp();
    const report = await sync();
    const [changes] = recorded();
    expect(recorded()).toHaveLength(1);
    expect(changes).toMatchObject({ mode: 'full', firstSync: true, newlyOpen: { total: 0, findings: [] }, remediated: { total: 0, findings: [] } });
    expect(changes!.counts).toEqual(expectedChanges({ endpoints: [], remediationTargets: [], scopes: [], findings: [] }, inventory()).counts);
    expect(report.changes).toEqual({ id: changes!.id, finishedAt: changes!.finishedAt, newlyOpen: { total: 0, critical: 0, kev: 0 } });
  });

  it('of an incremental sync: what its merge created and updated, the findings newly open critical or KEV and those remediated', async () => {
    const { sync, recorded, inventory } = await setUp();
    await sync();
    const before = copy(inventory());
    changeRemote(inventory());
    const report = await sync();
    expect(report.mode).toBe('incremental');
    const [changes] = recorded();
    expect(recorded()).toHaveLength(2);
    expect(changes).toMatchObject({ mode: 'incremental', firstSync: false, startedAt: report.startedAt, finishedAt: report.finishedAt });
    const expected = expectedChanges(before, inventory());
    expect(asExpected(changes!)).toEqual({ ...expected, newlyOpen: { ...expected.newlyOpen, findings: undefined } });
    // New, newly KEV and reopened; two remediated.
    expect(expected.newlyOpen.total).toBe(3);
    expect(expected.remediated.total).toBe(2);
    expect(changes!.newlyOpen.findings.find((finding) => finding.id === newFindingId)).toEqual({
      id: newFindingId,
      cve_id: inventory().findings[0]!.cve_id,
      severity: 'critical',
      is_kev: false,
      endpoint_id: newEndpointId,
      endpoint_hostname: 'new-host.example.test',
    });
    const { total, critical, kev } = expected.newlyOpen;
    expect(report.changes).toEqual({ id: changes!.id, finishedAt: report.finishedAt, newlyOpen: { total, critical, kev } });
  });

  it('of a full sync: its staged inventory compared with the one it replaces, removals included', async () => {
    const { sync, recorded, inventory } = await setUp();
    await sync();
    const before = copy(inventory());
    changeRemote(inventory(), { removals: true });
    const report = await sync({ full: true });
    const [changes] = recorded();
    expect(changes).toMatchObject({ mode: 'full', firstSync: false });
    const expected = expectedChanges(before, inventory());
    expect(asExpected(changes!)).toEqual({ ...expected, newlyOpen: { ...expected.newlyOpen, findings: undefined } });
    expect(expected.counts.scopes.removed).toBe(1);
    expect(expected.counts.findings.removed).toBe(1);
    expect(changes!.newlyOpen.findings.find((finding) => finding.id === newFindingId)?.endpoint_hostname).toBe('new-host.example.test');
    const { total, critical, kev } = expected.newlyOpen;
    expect(report.changes?.newlyOpen).toEqual({ total, critical, kev });
  });

  it('of an incremental sync that found deletions are those of the reconcile it turned into, recorded once', async () => {
    const { sync, recorded, inventory } = await setUp();
    await sync();
    const before = copy(inventory());
    changeRemote(inventory(), { removals: true });
    expect((await sync()).mode).toBe('reconcile');
    expect(recorded()).toHaveLength(2);
    expect(asExpected(recorded()[0]!).counts).toEqual(expectedChanges(before, inventory()).counts);
  });

  it('are not recorded when nothing changed, incremental or full', async () => {
    const { sync, recorded } = await setUp();
    await sync();
    expect((await sync()).changes).toBeNull();
    expect((await sync({ full: true })).changes).toBeNull();
    expect(recorded()).toHaveLength(1);
  });

  it('are not recorded by a sync that failed or was interrupted', async () => {
    const { sync, recorded, inventory, remote } = await setUp();
    await sync();
    changeRemote(inventory(), { removals: true });
    remote.options.fault = ({ collection }) => (collection === 'findings' ? { status: 500 } : undefined);
    await expect(sync({ policy: { requestAttempts: 1, collectionAttempts: 1 } })).rejects.toThrow(SyncFailedError);
    const controller = new AbortController();
    remote.options.fault = ({ collection }) => {
      if (collection === 'findings') controller.abort(new SyncFailedError('The sync was interrupted'));
      return undefined;
    };
    await expect(sync({ full: true, signal: controller.signal })).rejects.toThrow(/interrupted/);
    expect(recorded()).toHaveLength(1);
  });
});
