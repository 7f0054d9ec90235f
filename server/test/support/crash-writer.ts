/**
 * The child process of the crash-safety test: runs a fixed sequence of writes of every kind on
 * a data directory and prints, after each, the digest of what the files on disk hold. Its
 * randomness and clock are seeded, so two runs write the same. With a kill point it starts a
 * thread that sends SIGKILL to this process after a delay, once write number `killAt` begins.
 *
 * Usage: crash-writer.ts <dataDir> [killAt killDelayMicroseconds]
 */
import crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { collectionNames } from '../../../contracts/collections.js';
import type { Inventory } from '../../../contracts/inventory.js';
import { Store } from '../../store/store.js';
import { sequence } from './crash-writer-sequence.js';
import { smallInventory } from './fixtures.js';
import { storeDigest } from './store-digest.js';
import { changeKinds } from '../../store/derived/change-kinds.js';

const [dataDir = '', killAtText, delayText] = process.argv.slice(2);
if (!dataDir) throw new Error('Usage: crash-writer.ts <dataDir> [killAt killDelayMicroseconds]');
const killAt = killAtText === undefined ? -1 : Number(killAtText);

let state = 7;
const nextByte = () => {
  state = (state * 1103515245 + 12345) >>> 0;
  return state >>> 24;
};
crypto.randomBytes = ((size: number) => Buffer.from(Array.from({ length: size }, nextByte))) as typeof crypto.randomBytes;
crypto.randomUUID = (() => {
  const b = crypto.randomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}) as typeof crypto.randomUUID;
const RealDate = Date;
let tick = 0;
globalThis.Date = class extends RealDate {
  constructor(...args: ConstructorParameters<DateConstructor> | []) {
    if (args.length === 0) super(1_790_000_000_000 + tick++ * 1000);
    else super(...(args as [number]));
  }
  static override now() {
    return 1_790_000_000_000 + tick++ * 1000;
  }
} as DateConstructor;


const say = (line: string) => process.stdout.write(`${line}\n`);

function startKiller(delayMicroseconds: number): void {
  new Worker(
    `const { workerData } = require('node:worker_threads');
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.delay / 1000);
     process.kill(workerData.pid, 'SIGKILL');`,
    { eval: true, workerData: { delay: delayMicroseconds, pid: process.pid } },
  );
}

// Generated once: the generator's time is not what the test kills.
const replica = smallInventory(3, 30);
const variant = (seed: number) => ({
  ...replica,
  endpoints: replica.endpoints.slice(seed % 5).map((endpoint) => ({ ...endpoint, hostname: `${endpoint.hostname}-${seed}` })),
});
const changes = (seed: number) => ({ ...replica, endpoints: replica.endpoints.slice(0, 5).map((endpoint) => ({ ...endpoint, hostname: `changed-${seed}` })) });

const store = await Store.open({ dataDir, command: 'crash-writer' });
const orgs = [1, 2, 3].map((n) => store.write(() => store.organizations.insert({ slug: `org-${n}`, name: `Org ${n}`, kind: 'local' }), { changes: ['organizations', 'inventory'] }));
// Every run takes the digests, so that every run reads the clock as often.
const digest = () => storeDigest(dataDir);
say(`done -1 ${await digest()} 0`);
for (const [index, kind] of sequence.entries()) {
  if (index === killAt) {
    say(`begin ${index} ${kind}`);
    startKiller(Number(delayText));
  }
  const started = performance.now();
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
      // As a full sync stages (server/sync/staged-inventory.ts): writes that need not be durable,
      // pages logged by settle, then the swap, fsynced in the thread pool. Collection is left
      // out: it would run beside the writes that follow, at moments no two runs share.
      const inventory = variant(index);
      const inventoryId = store.inventories.stage();
      for (const collection of collectionNames) {
        const items = inventory[collection] as Inventory[typeof collection][number][];
        for (let start = 0; start < items.length; start += 10) {
          store.write((writes) => writes.append(inventoryId, collection, items.slice(start, start + 10), []), { changes: ['staged-inventory'], durable: false });
        }
      }
      await store.settle();
      say(`staged ${index} ${await digest()}`);
      await store.writeSettled(() => store.organizations.setInventory(org.rowId, inventoryId), { changes: ['organizations', 'inventory'] });
      store.inventories.release(inventoryId);
      break;
    }
    case 'merge':
      // As an incremental sync applies (server/sync/sync-organization.ts): committed at once,
      // fsynced in the thread pool.
      await store.writeSettled((writes) => writes.merge(org.inventoryId, changes(index)), { changes: ['inventory'] });
      break;
    case 'remove':
      store.write(() => store.organizations.delete(orgs.pop()!.rowId), { changes: changeKinds });
      break;
    case 'checkpoint':
      await store.checkpoint();
      break;
  }
  const took = Math.round((performance.now() - started) * 1000);
  say(`done ${index} ${await digest()} ${took}`);
  // The kill comes while this write runs, or here: the process never goes past the write it was meant to die in.
  if (index === killAt) await new Promise(() => setInterval(() => undefined, 1000));
}
store.close();
say('closed');
