import crypto from 'node:crypto';
import path from 'node:path';
import { collectionNames } from '../../../contracts/collections.js';
import type { Inventory } from '../../../contracts/inventory.js';
import { changeKinds } from '../../store/derived/change-kinds.js';
import { files } from '../../store/engine/engine-files.js';
import { replayBudgetMicroseconds } from '../../store/engine/durable-file.js';
import { SyncChangeTally } from '../../store/basics/change-tally.js';
import type { Store } from '../../store/store.js';
import type { WriteKind } from './crash-writer-sequence.js';
import { smallInventory } from './fixtures.js';
import { recordedSuccess } from './sync-fixtures.js';

/**
 * The writes of every kind the crash tests interrupt (crash-safety.test.ts kills a process in
 * them, power-loss.test.ts cuts the power), on a store with three organizations it creates.
 * `staged` is called where a full sync has its pages logged but the organization is not yet
 * pointed at them, or a replacement in place has its parts logged but not its record: a state a
 * crash may leave.
 */
export async function crashWrites(store: Store, staged: (index: number) => Promise<void> = async () => undefined) {
  // Generated once, here (after the crash writer seeds its randomness): the generator's time is not what the tests interrupt.
  const replica = smallInventory(3, 30);
  const variant = (seed: number) => ({
    ...replica,
    endpoints: replica.endpoints.slice(seed % 5).map((endpoint) => ({ ...endpoint, hostname: `${endpoint.hostname}-${seed}` })),
  });
  const changes = (seed: number) => ({ ...replica, endpoints: replica.endpoints.slice(0, 5).map((endpoint) => ({ ...endpoint, hostname: `changed-${seed}` })) });
  const orgs = [1, 2, 3].map((n) => store.write(() => store.organizations.insert({ slug: `org-${n}`, name: `Org ${n}`, kind: 'local' }), { changes: ['organizations', 'inventory'] }));
  return async (kind: WriteKind, index: number): Promise<void> => {
    const org = orgs[index % 2]!;
    switch (kind) {
      case 'key':
        store.write(() => store.apiKeys.create(org.rowId, `key ${index}`), { changes: ['api-keys'] });
        break;
      case 'secret':
        store.write(() => store.organizations.setSealedSecret(org.rowId, 'enrollment_secret', crypto.randomBytes(48)), { changes: ['organizations'] });
        break;
      case 'sync':
        store.write((writes) => writes.replace(org.inventoryId, variant(index)), { changes: ['inventory'] });
        break;
      case 'staged': {
        // As a full sync stages and swaps (the store's sync steps, store/sync-steps.ts): staged
        // writes held, their pages logged by settle, then the swap, fsynced in the thread pool.
        // Collection is left out: it would run beside the writes that follow, at moments no two
        // runs share.
        const inventory = variant(index);
        const inventoryId = store.inventories.stage();
        for (const collection of collectionNames) {
          const items = inventory[collection] as Inventory[typeof collection][number][];
          for (let start = 0; start < items.length; start += 10) store.syncSteps.stage(inventoryId, collection, items.slice(start, start + 10), []);
        }
        await store.settle();
        await staged(index);
        await store.syncSteps.swap(org, inventoryId, { ...recordedSuccess, mode: 'full' }, new SyncChangeTally());
        store.inventories.release(inventoryId);
        break;
      }
      case 'replacement': {
        // As a full sync past the bound replaces a replica in place (sync/replica-replacement.ts):
        // its indexes but those by id dropped, the rows the remote no longer has deleted, the rest
        // merged, the indexes built again one a part, all held; their pages logged by settle (a
        // state a crash may leave, as a staging's); then its last write, fsynced in the thread pool.
        const target = variant(index + 1);
        const parts = store.syncSteps.beginParts(org, 'replacement');
        try {
          const dropped = parts.part((writes) => writes.dropIndexes({ keepIds: true }));
          for (const collection of collectionNames) {
            const items = target[collection] as Inventory[typeof collection][number][];
            const kept = new Set(store.replicaComparison.seqsOf(org.rowId, collection, items.map((item) => item.id.toLowerCase())));
            for (let after: number | undefined = Number.MIN_SAFE_INTEGER; after !== undefined; ) {
              const from: number = after;
              after = parts.part((_writes, inventoryId, tally): number | undefined => store.replicaComparison.removeUnsent(inventoryId, collection, (seq) => kept.has(seq), from, 8, tally));
            }
            for (let start = 0; start < items.length; start += 10) {
              const change: Inventory = { endpoints: [], remediationTargets: [], scopes: [], findings: [] };
              (change[collection] as unknown[]) = items.slice(start, start + 10);
              parts.part((writes, inventoryId, tally) => writes.mergeAtEnd(inventoryId, change, tally));
            }
          }
          for (const statement of dropped) parts.part((writes) => writes.recreateIndexes([statement]));
          await store.settle();
          await staged(index);
          await parts.finish({ ...recordedSuccess, mode: 'full' });
        } finally {
          parts.release();
        }
        break;
      }
      case 'merge':
        // As an incremental sync applies its changes (SyncSteps.apply): committed at once, fsynced in the thread pool.
        await store.syncSteps.apply(org, recordedSuccess, (writes, inventoryId, tally) => writes.merge(inventoryId, changes(index), tally));
        break;
      case 'slow-merge':
        // A merge whose first statement counts 90 % of the replay budget (a clock that jumps once,
        // restored before anything else runs): logged as statements. The second in a row passes
        // the budget: the pages the statements changed are then folded as deltas against the
        // snapshot, a slice per turn, which the settle awaits; the next checkpoint logs those
        // pages whole before it writes the snapshot.
        await countedAs(0.9 * replayBudgetMicroseconds, () =>
          store.syncSteps.apply(org, recordedSuccess, (writes, inventoryId, tally) => writes.merge(inventoryId, changes(index), tally)),
        );
        await store.settle();
        break;
      case 'remove':
        store.write(() => store.organizations.delete(orgs.pop()!.rowId), { changes: changeKinds });
        break;
      case 'compaction':
        // As after a full sync (the sync command, the scheduler): collection, whose last step
        // gives the pages back (page-compaction.ts), then the checkpoint that cuts the snapshot.
        await store.inventories.collect();
        await store.checkpoint();
        break;
      case 'checkpoint':
        await store.checkpoint();
        break;
      case 'failed-checkpoint': {
        // As a checkpoint that meets a full disk when it opens the snapshot: it reports the
        // error, its logs stay, and the next checkpoint folds them with the ones after.
        const { openSync } = files;
        const report = console.error;
        files.openSync = (file, flags, mode) => {
          if (path.basename(file) === 'inventory.sqlite' && flags !== 'r') throw Object.assign(new Error(`ENOSPC: no space left on device, open '${file}'`), { code: 'ENOSPC' });
          return openSync(file, flags, mode);
        };
        console.error = () => undefined;
        try {
          await store.checkpoint();
        } finally {
          files.openSync = openSync;
          console.error = report;
        }
        break;
      }
    }
  };
}

/**
 * Runs `work` (synchronous, or whose synchronous part is what counts) with a clock that jumps
 * `microseconds` after its first reading: the write's first statement then counts as taking that
 * much longer, and nothing else does. Answers what `work` answers.
 */
function countedAs<T>(microseconds: number, work: () => T): T {
  const now = performance.now;
  let readings = 0;
  performance.now = () => now.call(performance) + (readings++ === 0 ? 0 : microseconds / 1000);
  try {
    return work();
  } finally {
    performance.now = now;
  }
}
