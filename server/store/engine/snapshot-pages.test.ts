import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { smallInventory } from '../../test/support/fixtures.js';
import { storeDigest } from '../../test/support/store-digest.js';
import type { Database } from './database.js';
import { SnapshotPages, readerOfBytes } from './snapshot-pages.js';
import { loadSqlJs } from './sql-js.js';
import { Store } from '../store.js';
import { inRowOrder } from '../../test/support/store-digest.js';

const folders: string[] = [];
function newDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-pages-'));
  folders.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Pages over a snapshot held in memory, with the reads made of it. */
function pagesOver(snapshot: Uint8Array, room = 8192) {
  const reads: [number, number][] = [];
  const inMemory = readerOfBytes(snapshot);
  const pages = new SnapshotPages(new Uint8Array(snapshot.length + room), snapshot.length, {
    ...inMemory,
    readSync: (into, offset, length, position) => {
      const read = inMemory.readSync(into, offset, length, position);
      reads.push([position, read]);
      return read;
    },
  });
  return { pages, reads };
}

const snapshot = Uint8Array.from({ length: 6 * 4096 + 100 }, (_, i) => (i * 7 + 3) % 251);

describe('SnapshotPages', () => {
  it('reads a unit the first time a read reaches it, and only then', () => {
    const { pages, reads } = pagesOver(snapshot);
    pages.beforeRead(4096 + 10, 20);
    pages.beforeRead(4096, 4096);
    expect(reads).toEqual([[4096, 4096]]);
    expect(pages.image.subarray(4096, 8192)).toEqual(snapshot.subarray(4096, 8192));
    expect(pages.image.subarray(0, 4096).every((byte) => byte === 0)).toBe(true);
    // The last unit is shorter than the others: read up to the snapshot's end.
    pages.beforeRead(6 * 4096, 4096);
    expect(reads.at(-1)).toEqual([6 * 4096, 100]);
    expect(pages.complete).toBe(false);
  });

  it('reads no unit a write covers whole, and first the ones it covers in part', () => {
    const { pages, reads } = pagesOver(snapshot);
    pages.beforeWrite(4096, 8192);
    expect(reads).toEqual([]);
    pages.beforeWrite(3 * 4096 + 100, 10);
    expect(reads).toEqual([[3 * 4096, 4096]]);
    // A write from the last unit's start past the snapshot's end covers all it holds.
    pages.beforeWrite(6 * 4096, 200);
    expect(reads).toHaveLength(1);
    pages.beforeRead(4096, 3 * 4096);
    expect(reads).toHaveLength(1);
  });

  it('reads everything before the file system copies the file to a new array, and never again after', () => {
    const { pages, reads } = pagesOver(snapshot);
    pages.beforeRead(0, 100);
    pages.beforeWrite(snapshot.length + 8192 - 10, 20);
    expect(pages.complete).toBe(true);
    expect(pages.image.subarray(0, snapshot.length)).toEqual(snapshot);
    const count = reads.length;
    pages.beforeResize();
    pages.beforeRead(0, snapshot.length);
    expect(reads).toHaveLength(count);
  });

  it('never reads from the snapshot what a replayed truncation cut off', () => {
    const { pages, reads } = pagesOver(snapshot);
    pages.beforeTruncateOfImage(2 * 4096 + 50);
    // The unit holding the new end keeps its first 50 bytes from the snapshot.
    expect(reads).toEqual([[2 * 4096, 4096]]);
    pages.beforeRead(3 * 4096, 3 * 4096 + 100);
    expect(reads).toHaveLength(1);
  });

  it('refuses to read once closed', () => {
    const { pages } = pagesOver(snapshot);
    pages.close();
    expect(() => pages.beforeRead(0, 10)).toThrow('closed');
  });
});

const dbOf = (store: Store) => (store as unknown as { db: Database }).db;
const pagesOf = (store: Store) => (dbOf(store) as unknown as { pages: SnapshotPages | undefined }).pages;

/** Every row of every table, through the store's own connection. */
function rowsOf(store: Store): unknown {
  const db = dbOf(store);
  const tables = db.all<{ name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name");
  return Object.fromEntries(tables.map(({ name, sql }) => [name, db.all(`SELECT * FROM "${name}"${inRowOrder(sql)}`)]));
}

describe('a store whose snapshot is read on demand', () => {
  it('is possible with the sql.js build the product ships (the tap checks it at load)', async () => {
    expect((await loadSqlJs()).tap.readsOnDemand).toBe(true);
  });

  it('holds what a store read whole holds, its logs replayed, and writes what it would write', async () => {
    const dataDir = newDataDir();
    const store = await Store.open({ dataDir, command: 'test' });
    const organization = store.write((writes) => {
      const created = store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' });
      writes.replace(created.inventoryId, smallInventory(40, 30));
      return created;
    }, { changes: ['organizations', 'inventory'] });
    await store.checkpoint();
    // Logged after the snapshot, and left there as a killed process leaves them.
    store.write(() => store.apiKeys.create(organization.rowId, null), { changes: ['api-keys'] });
    store.write((writes) => writes.replace(organization.inventoryId, smallInventory(20, 10)), { changes: ['inventory'] });
    const [onDemandDir, wholeDir] = [newDataDir(), newDataDir()];
    for (const name of fs.readdirSync(dataDir).filter((file) => file !== 'lock')) {
      for (const copy of [onDemandDir, wholeDir]) fs.copyFileSync(path.join(dataDir, name), path.join(copy, name));
    }
    expect(fs.readdirSync(onDemandDir).some((name) => name.includes('.log'))).toBe(true);
    store.close();

    const onDemand = await Store.open({ dataDir: onDemandDir, command: 'test', pagesOnDemand: true });
    const whole = await Store.open({ dataDir: wholeDir, command: 'test' });
    expect(pagesOf(onDemand)?.complete).toBe(false);
    expect(pagesOf(whole)).toBeUndefined();
    const firstPage = { limit: 5, offset: 0 };
    expect(onDemand.inventory.list(organization.rowId, 'findings', firstPage)).toEqual(whole.inventory.list(organization.rowId, 'findings', firstPage));
    expect(pagesOf(onDemand)?.complete).toBe(false);
    expect(rowsOf(onDemand)).toEqual(rowsOf(whole));

    // The same writes on both (a key's random bytes would differ).
    for (const opened of [onDemand, whole]) {
      opened.write(() => opened.organizations.setSealedSecret(organization.rowId, 'enrollment_secret', Buffer.from('sealed')), { changes: ['organizations'] });
      opened.write((writes) => writes.replace(organization.inventoryId, smallInventory(30, 20)), { changes: ['inventory'] });
      // A truncation of the in-memory file: its file system copies the file to a new array, read whole first.
      dbOf(opened).run('VACUUM');
      if (opened === onDemand) expect(pagesOf(onDemand)?.complete).toBe(true);
      opened.write(() => opened.organizations.setSealedSecret(organization.rowId, 'signing_key', Buffer.from('after the room')), { changes: ['organizations'] });
      opened.close();
    }
    expect(await storeDigest(onDemandDir)).toBe(await storeDigest(wholeDir));
  });
});
