/**
 * Exceptions are local records of an organization, kept across the syncs of a replica, full
 * ones included (which replace its inventory): after a full sync they are all there, and they
 * cover what their scopes name in the new data, checked against the oracle over the remote's.
 */
import { afterEach, expect, it } from 'vitest';
import type { Inventory } from '../../contracts/inventory.js';
import { Store } from '../store/store.js';
import { syncOrganization } from '../sync/sync-organization.js';
import { isCoverageGap } from './support/coverage-oracle.js';
import { exceptedIds, inForceAt, scopeNames } from './support/exception-oracle.js';
import { type FakeRemote, startFakeRemote } from './support/fake-remote.js';
import { sampleInventory } from './support/sample-inventory.js';
import { fastPolicy } from './support/sync-fixtures.js';

const day = 86_400_000;
const now = Date.parse('2026-07-01T12:00:00.000Z');
const remotes: FakeRemote[] = [];
const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(remotes.splice(0).map((remote) => remote.close()));
  for (const store of stores.splice(0)) store.close();
});

/** Checks the replica's excepted findings, gaps and each exception's count against the oracle over the remote's inventory. */
async function expectCoverageOf(store: Store, orgRowId: number, inventory: Inventory): Promise<void> {
  const listed = await store.exceptions.list(orgRowId);
  const inForce = inForceAt(listed, now);
  const excepted = exceptedIds(inForce, inventory.findings);
  expect((await store.exceptions.excepted(orgRowId)).count).toBe(excepted.size);
  const gaps = inventory.findings.filter((finding) => isCoverageGap(inventory, finding));
  const { counts, countsBeforeExceptions } = await store.coverage.gaps(orgRowId, { limit: 1, offset: 0 });
  expect([counts.findings, countsBeforeExceptions.findings]).toEqual([gaps.filter((f) => !excepted.has(f.id)).length, gaps.length]);
  for (const exception of listed) expect(exception.findings, exception.id).toBe(inventory.findings.filter((f) => scopeNames(exception, f)).length);
}

// A full sync of a replica that holds data compares it with the remote; one that keeps no
// difference in memory stages a new inventory and swaps it in, as the first sync does.
it.each([
  { way: 'compares', policy: {}, replaces: false },
  { way: 'stages', policy: { incrementalMaxItems: 0 }, replaces: true },
])('keeps exceptions across a full sync that $way, covering what their scopes name in the new data', async ({ policy, replaces }) => {
  const remote = await startFakeRemote({ inventory: sampleInventory({ endpoints: 30, targetsPerEndpoint: 3, findingsPerTarget: 3, scopes: 5 }) });
  remotes.push(remote);
  const store = await Store.open({ clock: () => now });
  stores.push(store);
  const organization = store.write(() => store.organizations.insert({ slug: 'replica', name: 'Replica', kind: 'replica', remoteUrl: remote.url }), { changes: ['organizations', 'inventory'] });
  const sync = (full: boolean) => syncOrganization(store, organization, { baseUrl: remote.url, apiKey: remote.apiKey }, { full, policy: { ...fastPolicy, ...policy } });
  await sync(true);

  const { inventory } = remote.options;
  const first = inventory.findings[0]!;
  const other = inventory.findings.find((f) => f.cve_id !== first.cve_id && f.endpoint_id !== null)!;
  const expires_at = new Date(now + 90 * day).toISOString();
  store.write(
    () => {
      store.exceptions.create(organization.rowId, { scope: { kind: 'cve', cve_id: first.cve_id }, reason: 'risk_accepted', note: '', expires_at }, 'analyst');
      store.exceptions.create(
        organization.rowId,
        { scope: { kind: 'cve_on_endpoints', cve_id: other.cve_id, endpoint_ids: [other.endpoint_id!] }, reason: 'compensating_control', note: '', expires_at },
        'analyst',
      );
      store.exceptions.create(organization.rowId, { scope: { kind: 'finding', finding_id: first.id }, reason: 'false_positive', note: '', expires_at }, 'analyst');
    }, { changes: ['exceptions'] },
  );
  await expectCoverageOf(store, organization.rowId, inventory);
  const records = store.exceptions.exportFile(organization.rowId, { slug: 'replica', name: 'Replica' }).exceptions;

  // The remote's next state: every endpoint renamed, the first finding gone, a new one of its CVE.
  inventory.endpoints = inventory.endpoints.map((endpoint) => ({ ...endpoint, hostname: `next-${endpoint.hostname}` }));
  inventory.findings = [...inventory.findings.slice(1), { ...first, id: '00000003-0000-4000-8000-00000000abcd' }];
  const inventoryBefore = store.organizations.bySlug('replica')!.inventoryId;
  expect((await sync(true)).mode).toBe('full');
  expect(store.organizations.bySlug('replica')!.inventoryId !== inventoryBefore).toBe(replaces);

  expect(store.exceptions.exportFile(organization.rowId, { slug: 'replica', name: 'Replica' }).exceptions).toEqual(records);
  await expectCoverageOf(store, organization.rowId, inventory);
  const listed = await store.exceptions.list(organization.rowId);
  expect(listed.find((e) => e.scope.kind === 'finding')!.findings).toBe(0);
});
