import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { smallInventory } from '../test/support/fixtures.js';
import { recordedSuccess } from '../test/support/sync-fixtures.js';
import { changeKinds } from './derived/change-kinds.js';
import type { Organization } from './records/organization-records.js';
import { SyncChangeTally } from './basics/change-tally.js';
import type { SyncSuccess } from './records/sync-run-records.js';
import { Store } from './store.js';
import { type InventoryChange, OrganizationRemovedError, syncStepWrites } from './sync-steps.js';

const folders: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const inventory = smallInventory(5, 10);
const success: SyncSuccess = { ...recordedSuccess, mode: 'full' };

async function setUp() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-sync-steps-'));
  folders.push(dataDir);
  const store = await Store.open({ dataDir, command: 'test' });
  stores.push(store);
  const organization: Organization = store.write(() => store.organizations.insert({ slug: 'replica', name: 'Replica', kind: 'replica', remoteUrl: 'http://127.0.0.1:9' }), {
    changes: ['organizations', 'inventory'],
  });
  // The bytes of the data directory's files: what reached the disk.
  const bytes = () => fs.readdirSync(dataDir, { recursive: true, withFileTypes: true }).reduce((sum, entry) => (entry.isFile() ? sum + fs.statSync(path.join(entry.parentPath, entry.name)).size : sum), 0);
  const versions = () => new Map(changeKinds.map((kind) => [kind, store.changes.written([kind])]));
  return { store, organization, bytes, versions };
}

/** One part of changes applied in parts, the readers released after it. */
function onePart(store: Store, organization: Organization, kind: 'merge' | 'replacement'): void {
  const parts = store.syncSteps.beginParts(organization, kind);
  try {
    parts.part((writes, inventoryId, tally) => writes.merge(inventoryId, inventory, tally));
  } finally {
    parts.release();
  }
}

/** Each step, run once on a replica with a staged inventory. */
const steps: Record<keyof typeof syncStepWrites, (store: Store, organization: Organization, staged: number) => unknown> = {
  stage: (store, _organization, staged) => store.syncSteps.stage(staged, 'endpoints', inventory.endpoints, []),
  swap: (store, organization, staged) => store.syncSteps.swap(organization, staged, success, new SyncChangeTally()),
  applyPart: (store, organization) => onePart(store, organization, 'merge'),
  apply: (store, organization) => store.syncSteps.apply(organization, { ...success, mode: 'incremental' }, (writes, inventoryId, tally) => writes.merge(inventoryId, inventory, tally)),
  replacePart: (store, organization) => onePart(store, organization, 'replacement'),
  replaceLast: (store, organization) => store.syncSteps.beginParts(organization, 'replacement').finish(success, (writes, inventoryId, tally) => writes.merge(inventoryId, inventory, tally)),
  recordUnchanged: (store, organization) => store.syncSteps.recordUnchanged(organization, success),
  recordCountCheck: (store, organization) => store.syncSteps.recordCountCheck(organization.rowId, { checkedAt: success.finishedAt, differences: [] }),
  recordFailure: (store, organization) => store.syncSteps.recordFailure(organization.rowId, { startedAt: success.startedAt, mode: 'full', error: 'The remote failed' }),
  setPaused: (store, organization) => store.syncSteps.setPaused(organization.rowId, true),
  saveSettings: (store, organization) => store.syncSteps.saveSettings(organization.rowId, { reconcileIntervalHours: 12 }),
};

describe("the store's sync steps", () => {
  it.each(Object.entries(syncStepWrites))('%s changes what its row declares, and reaches the disk as it says', async (name, { changes, durability }) => {
    const { store, organization, bytes, versions } = await setUp();
    const staged = store.inventories.stage();
    const before = { bytes: bytes(), versions: versions() };
    const result = steps[name as keyof typeof syncStepWrites](store, organization, staged);
    if (durability === 'held') expect(bytes()).toBe(before.bytes);
    if (durability === 'on-thread') expect(bytes()).toBeGreaterThan(before.bytes);
    expect(result instanceof Promise).toBe(durability === 'settled');
    await result;
    if (durability !== 'held') expect(bytes()).toBeGreaterThan(before.bytes);
    const changed = [...versions()].filter(([kind, version]) => before.versions.get(kind) !== version).map(([kind]) => kind);
    expect(changed.sort()).toEqual([...changes].sort());
    store.inventories.release(staged);
  });

  it('apply changes in parts, a pause between two, holding the readers until the last records the sync and what all of them changed', async () => {
    const { store, organization } = await setUp();
    const slices = [0, 4, 8].map((start) => ({ ...inventory, endpoints: inventory.endpoints.slice(start, start + 4), remediationTargets: [], scopes: [], findings: start === 8 ? inventory.findings : [] }));
    const seen: { held: boolean; endpoints: number; lastSuccessAt: string | null }[] = [];
    const pause = async () => {
      seen.push({ held: store.syncSteps.whenApplied(organization.rowId) !== undefined, endpoints: (await store.inventory.counts(organization.rowId)).endpoints, lastSuccessAt: store.sync.get(organization.rowId).lastSuccessAt });
      await new Promise((resolve) => setImmediate(resolve));
    };
    const incremental = { ...success, mode: 'incremental' as const };
    const parts = slices.map((part): InventoryChange => (writes, inventoryId, tally) => void writes.merge(inventoryId, part, tally));
    const summary = await store.syncSteps.applyInParts(organization, incremental, parts, pause);
    expect(seen).toEqual([
      { held: true, endpoints: 4, lastSuccessAt: null },
      { held: true, endpoints: 8, lastSuccessAt: null },
    ]);
    expect(store.syncSteps.whenApplied(organization.rowId)).toBeUndefined();
    expect(await store.inventory.counts(organization.rowId)).toMatchObject({ endpoints: inventory.endpoints.length, findings: inventory.findings.length });
    expect(store.sync.get(organization.rowId)).toMatchObject({ lastSuccessMode: 'incremental', lastSuccessAt: incremental.finishedAt });
    expect(store.syncChanges.list(organization.rowId)).toHaveLength(1);
    expect(store.syncChanges.get(organization.rowId, summary!.id)?.counts).toMatchObject({ endpoints: { created: inventory.endpoints.length }, findings: { created: inventory.findings.length } });
  });

  it('stop applying parts at a failure: the parts before it stay, nothing is recorded, the readers go on', async () => {
    const { store, organization } = await setUp();
    const part =
      (endpoints: typeof inventory.endpoints): InventoryChange =>
      (writes, inventoryId, tally) =>
        void writes.merge(inventoryId, { endpoints, remediationTargets: [], scopes: [], findings: [] }, tally);
    const held = store.syncSteps.applyInParts(organization, success, [part(inventory.endpoints.slice(0, 2)), part(inventory.endpoints.slice(2))], () => Promise.reject(new Error('The sync was interrupted')));
    const waiting = store.syncSteps.whenApplied(organization.rowId);
    await expect(held).rejects.toThrow('The sync was interrupted');
    await expect(waiting).resolves.toBeUndefined();
    expect(store.syncSteps.whenApplied(organization.rowId)).toBeUndefined();
    expect((await store.inventory.counts(organization.rowId)).endpoints).toBe(2);
    expect(store.sync.get(organization.rowId)).toMatchObject({ lastSuccessAt: null });
  });

  it('roll back and say so when the organization was removed meanwhile; a failure of a removed one is not recorded', async () => {
    const { store, organization } = await setUp();
    const staged = store.inventories.stage();
    store.syncSteps.stage(staged, 'endpoints', inventory.endpoints, []);
    store.write(() => store.organizations.delete(organization.rowId), { changes: changeKinds });
    await expect(store.syncSteps.swap(organization, staged, success, new SyncChangeTally())).rejects.toThrow(new OrganizationRemovedError('replica'));
    await expect(store.syncSteps.apply(organization, success, (writes, inventoryId) => writes.merge(inventoryId, inventory))).rejects.toThrow(OrganizationRemovedError);
    await expect(store.syncSteps.recordUnchanged(organization, success)).rejects.toThrow(/"replica" was removed during the sync/);
    store.syncSteps.recordFailure(organization.rowId, { startedAt: success.startedAt, mode: 'full', error: 'x' });
    await store.syncSteps.recordCountCheck(organization.rowId, { checkedAt: success.finishedAt, differences: [] });
    expect(store.sync.get(organization.rowId)).toMatchObject({ lastAttemptAt: null, lastError: null });
    expect(store.organizations.list()).toEqual([]);
  });
});
