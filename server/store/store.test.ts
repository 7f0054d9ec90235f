import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { smallInventory } from '../test/support/fixtures.js';
import { type DatabaseFileBytes, dropReadsAhead, growthRoom, readDatabaseFile, readDatabaseFileAhead } from './engine/database-file.js';
import { dataDirectoryFiles, writeFileAtomically } from './engine/data-directory.js';
import { DataDirectoryLockedError } from './engine/data-directory-lock.js';
import { IncompatibleDatabaseError } from './engine/database.js';
import { Store } from './store.js';

const folders: string[] = [];
function newDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-store-'));
  folders.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const inventory = smallInventory(5, 10);

async function storeWithOrganization(dataDir: string) {
  const store = await Store.open({ dataDir, command: 'test' });
  const organization = store.write((writes) => {
    const created = store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' });
    writes.replace(created.inventoryId, inventory);
    return created;
  }, { changes: ['organizations', 'inventory'] });
  return { store, organization };
}

describe('Store', () => {
  it('persists every write to the data directory and reads it back after a restart', async () => {
    const dataDir = newDataDir();
    const { store, organization } = await storeWithOrganization(dataDir);
    const { key } = store.write(() => store.apiKeys.create(organization.rowId, null), { changes: ['api-keys'] });
    store.close();
    expect(fs.readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    const reopened = await Store.open({ dataDir, command: 'test' });
    expect(reopened.apiKeys.organizationOf(key)).toBe(organization.rowId);
    const page = reopened.inventory.list(organization.rowId, 'findings', { limit: 100, offset: 0 });
    expect(page.total).toBe(inventory.findings.length);
    reopened.close();
  });

  it('keeps what it derived from the inventory across a write of records alone, and key lookups see that write', async () => {
    const { store, organization } = await storeWithOrganization(newDataDir());
    const dashboard = await store.dashboards.dashboard(organization.rowId);
    const [data, all] = [store.changes.written(['inventory']), store.version];
    const { key } = store.write(() => store.apiKeys.create(organization.rowId, 'ci'), { changes: ['api-keys'] });
    expect(store.version).toBeGreaterThan(all);
    expect(store.changes.written(['inventory'])).toBe(data);
    expect(await store.dashboards.dashboard(organization.rowId)).toBe(dashboard);
    expect(store.apiKeys.organizationOf(key)).toBe(organization.rowId);
    const smaller = smallInventory(4, 8);
    store.write((writes) => writes.replace(organization.inventoryId, smaller), { changes: ['inventory'] });
    expect(store.changes.written(['inventory'])).toBeGreaterThan(data);
    expect((await store.dashboards.dashboard(organization.rowId)).totals.endpoints).toBe(smaller.endpoints.length);
    expect(smaller.endpoints.length).not.toBe(inventory.endpoints.length);
    store.close();
  });

  it('lists API keys in the order they were made, those of one millisecond too', async () => {
    const { store, organization } = await storeWithOrganization(newDataDir());
    const labels = Array.from({ length: 20 }, (_, n) => `key ${n}`);
    // Five keys in each millisecond, whatever the machine's pace (a loaded one made each in a millisecond of its own).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-28T10:00:00.000Z') });
    try {
      for (const [n, label] of labels.entries()) {
        if (n % 5 === 0) vi.setSystemTime(Date.now() + 1);
        store.write(() => store.apiKeys.create(organization.rowId, label), { changes: ['api-keys'] });
      }
    } finally {
      vi.useRealTimers();
    }
    const listed = store.apiKeys.list(organization.rowId);
    // Made one after the other, some share a millisecond: their random ids must not order them.
    expect(new Set(listed.map((key) => key.createdAt)).size).toBe(4);
    expect(listed.map((key) => key.label)).toEqual(labels);
    store.close();
  });

  it('stores API keys only as hashes', async () => {
    const dataDir = newDataDir();
    const { store, organization } = await storeWithOrganization(dataDir);
    const { key } = store.write(() => store.apiKeys.create(organization.rowId, null), { changes: ['api-keys'] });
    store.close();
    const bytes = fs.readFileSync(dataDirectoryFiles(dataDir).database);
    expect(bytes.includes(Buffer.from(key))).toBe(false);
    expect(bytes.includes(Buffer.from(key.slice(3, 20)))).toBe(false);
  });

  it('keeps each CVE id and each CVE text once, however many findings share them', async () => {
    const store = await Store.open();
    const organization = store.write((writes) => {
      const created = store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' });
      writes.replace(created.inventoryId, inventory);
      return created;
    }, { changes: ['organizations', 'inventory'] });
    const internals = store as unknown as { db: { value(sql: string): unknown } };
    const distinctCves = new Set(inventory.findings.map((f) => f.cve_id.toUpperCase())).size;
    const distinctTexts = new Set(inventory.findings.map((f) => JSON.stringify([f.title, f.description, f.solution]))).size;
    expect(internals.db.value('SELECT count(*) FROM cves')).toBe(distinctCves);
    expect(internals.db.value('SELECT count(*) FROM finding_texts')).toBe(distinctTexts);
    expect(distinctTexts).toBeLessThan(inventory.findings.length / 5);
    store.write((writes) => writes.deleteAll(organization.inventoryId), { changes: ['inventory'] });
    store.write((writes) => writes.dropUnusedTexts(), { changes: ['inventory'] });
    expect(internals.db.value('SELECT count(*) FROM finding_texts')).toBe(0);
    store.close();
  });

  it('rolls a failed write back completely, in memory and on disk', async () => {
    const dataDir = newDataDir();
    const { store, organization } = await storeWithOrganization(dataDir);
    const before = fs.readFileSync(dataDirectoryFiles(dataDir).database);
    expect(() =>
      store.write((writes) => {
        writes.replace(organization.inventoryId, { endpoints: [], remediationTargets: [], scopes: [], findings: [] });
        throw new Error('interrupted');
      }, { changes: ['inventory'] }),
    ).toThrow('interrupted');
    expect(store.inventory.list(organization.rowId, 'endpoints', { limit: 1, offset: 0 }).total).toBe(inventory.endpoints.length);
    expect(fs.readFileSync(dataDirectoryFiles(dataDir).database).equals(before)).toBe(true);
    store.close();
  });

  it('refuses a second writer with an error naming the first, and allows readers', async () => {
    const dataDir = newDataDir();
    const { store } = await storeWithOrganization(dataDir);
    try {
      const error = await Store.open({ dataDir, command: 'second' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DataDirectoryLockedError);
      expect((error as Error).message).toContain(`process ${process.pid} (test, since`);
      const reader = await Store.open({ dataDir, readOnly: true });
      expect(reader.organizations.list()).toHaveLength(1);
      reader.close();
    } finally {
      store.close();
    }
  });

  it('removes the temporary file a writer killed mid-persist left behind', async () => {
    const dataDir = newDataDir();
    const { store } = await storeWithOrganization(dataDir);
    store.close();
    const leftover = `${dataDirectoryFiles(dataDir).database}.99999.tmp`;
    fs.writeFileSync(leftover, 'half a database');
    const reopened = await Store.open({ dataDir, command: 'test' });
    expect(fs.existsSync(leftover)).toBe(false);
    expect(reopened.organizations.bySlug('acme')).toBeDefined();
    reopened.close();
  });

  it('takes over the lock of a process that no longer runs', async () => {
    const dataDir = newDataDir();
    fs.writeFileSync(dataDirectoryFiles(dataDir).lock, JSON.stringify({ pid: 2 ** 22 + 12345, command: 'crashed', startedAt: 'then' }));
    const store = await Store.open({ dataDir, command: 'test' });
    expect(JSON.parse(fs.readFileSync(dataDirectoryFiles(dataDir).lock, 'utf8')).pid).toBe(process.pid);
    store.close();
    expect(fs.existsSync(dataDirectoryFiles(dataDir).lock)).toBe(false);
  });

  it('gives the organizations of a schema 2 file their row id as their inventory id', async () => {
    const dataDir = newDataDir();
    const { store, organization } = await storeWithOrganization(dataDir);
    const page = store.inventory.list(organization.rowId, 'findings', { limit: 100, offset: 0 });
    // Back to schema 2, where org_id held the organization's row id and the tables of later migrations did not exist.
    const db = (store as unknown as { db: { exec(sql: string): void; column(sql: string): unknown[] } }).db;
    const schema2Tables = ['organizations', 'api_keys', 'endpoints', 'remediation_targets', 'scopes', 'cves', 'finding_texts', 'findings', 'sync_state'];
    const later = db.column(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN (${schema2Tables.map((name) => `'${name}'`).join(', ')})`);
    db.exec(later.map((name) => `DROP TABLE ${String(name)};`).join(''));
    db.exec(`
      UPDATE findings SET org_id = ${organization.rowId}; UPDATE endpoints SET org_id = ${organization.rowId};
      UPDATE remediation_targets SET org_id = ${organization.rowId}; UPDATE scopes SET org_id = ${organization.rowId};
      DROP INDEX organizations_inventory; DROP INDEX findings_text; DROP INDEX findings_cve;
      CREATE INDEX findings_cve ON findings (org_id, cve_ref);
      ALTER TABLE organizations DROP COLUMN inventory_id;
      ALTER TABLE sync_state DROP COLUMN reconcile_interval_hours; ALTER TABLE sync_state DROP COLUMN last_reconciled_at;
      ALTER TABLE sync_state DROP COLUMN last_reconcile_changed; ALTER TABLE sync_state DROP COLUMN last_matched_at;
      ALTER TABLE sync_state DROP COLUMN count_differences; ALTER TABLE sync_state DROP COLUMN count_baseline;
      ALTER TABLE sync_state DROP COLUMN syncs_paused; ALTER TABLE sync_state DROP COLUMN replica_totals;
      PRAGMA user_version = 2;`);
    store.close();
    const reopened = await Store.open({ dataDir, command: 'test' });
    try {
      expect(reopened.organizations.bySlug('acme')?.inventoryId).toBe(organization.rowId);
      expect(reopened.inventory.list(organization.rowId, 'findings', { limit: 100, offset: 0 })).toEqual(page);
      expect(reopened.inventories.orphans()).toEqual([]);
    } finally {
      reopened.close();
    }
  });

  it('refuses a database written by a newer schema, without touching it', async () => {
    const dataDir = newDataDir();
    const { store } = await storeWithOrganization(dataDir);
    (store as unknown as { db: { exec(sql: string): void } }).db.exec('PRAGMA user_version = 999');
    store.close();
    const before = fs.readFileSync(dataDirectoryFiles(dataDir).database);
    await expect(Store.open({ dataDir, command: 'test' })).rejects.toBeInstanceOf(IncompatibleDatabaseError);
    expect(fs.readFileSync(dataDirectoryFiles(dataDir).database).equals(before)).toBe(true);
    expect(fs.existsSync(dataDirectoryFiles(dataDir).lock)).toBe(false);
  });
});

async function storeWithEmptyOrganization(dataDir: string): Promise<void> {
  const store = await Store.open({ dataDir, command: 'test' });
  store.write(() => store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }), { changes: ['organizations', 'inventory'] });
  store.close();
}

describe('a store that keeps temporary files in its heap (temporaryInMemory, a command line)', () => {
  // An endpoint older than every other: the merge moves the rows after it through a temporary table.
  const olderEndpoint = { ...inventory.endpoints[0]!, id: 'ep-older-than-all', created_at: '2000-01-01T00:00:00Z' };
  type Rows = { db: { value(sql: string): unknown; all<T>(sql: string, params?: unknown[]): T[] } };

  it('merges through temporary tables there as on a file, and the next open reads the same rows', async () => {
    const merged = async (temporaryInMemory: boolean) => {
      const dataDir = newDataDir();
      const { store, organization } = await storeWithOrganization(dataDir);
      store.close();
      const merging = await Store.open({ dataDir, command: 'test', temporaryInMemory });
      const temporaryStore = (merging as unknown as Rows).db.value('PRAGMA temp_store');
      merging.write((writes) => writes.merge(organization.inventoryId, { endpoints: [olderEndpoint], remediationTargets: [], scopes: [], findings: [] }), { changes: ['inventory'] });
      merging.close();
      // What the next open reads from the disk: the endpoints in their order.
      const reopened = await Store.open({ dataDir, command: 'test' });
      const { db } = reopened as unknown as Rows;
      const endpoints = db.all<{ id: string }>('SELECT id FROM endpoints WHERE org_id = ? ORDER BY seq', [organization.inventoryId]).map((row) => row.id);
      reopened.close();
      return { temporaryStore, endpoints };
    };
    const [inHeap, onFile] = [await merged(true), await merged(false)];
    expect([inHeap.temporaryStore, onFile.temporaryStore]).toEqual([2, 0]);
    expect(inHeap.endpoints[0]).toBe(olderEndpoint.id);
    expect(inHeap.endpoints).toEqual(onFile.endpoints);
    expect(inHeap.endpoints).toHaveLength(inventory.endpoints.length + 1);
  });
});

describe('database file', () => {
  it('gives a bulk load reserved room without writing that room to the file', async () => {
    const bulk = smallInventory(50, 100);
    const load = async (reserveBytes: number) => {
      const dataDir = newDataDir();
      await storeWithEmptyOrganization(dataDir);
      const file = dataDirectoryFiles(dataDir).database;
      if (reserveBytes > 0) expect((await readDatabaseFile(file, reserveBytes))!.bytes.length).toBe(fs.statSync(file).size + reserveBytes);
      const store = await Store.open({ dataDir, command: 'test', reserveBytes });
      const organization = store.organizations.bySlug('acme')!;
      store.write((writes) => writes.replace(organization.inventoryId, bulk), { changes: ['inventory'] });
      store.close();
      const reopened = await Store.open({ dataDir, command: 'test', readOnly: true });
      const findings = reopened.inventory.list(organization.rowId, 'findings', { limit: 1, offset: 0 }).total;
      reopened.close();
      return { size: fs.statSync(file).size, findings };
    };
    const reserved = await load(16 * 2 ** 20);
    expect(reserved).toEqual(await load(0));
    expect(reserved.findings).toBe(bulk.findings.length);
  });

  it('uses bytes read ahead only while the file is the one they were read from', async () => {
    const dataDir = newDataDir();
    await storeWithEmptyOrganization(dataDir);
    const file = dataDirectoryFiles(dataDir).database;
    const original = fs.readFileSync(file);

    const fileBytes = async (read: Promise<DatabaseFileBytes | undefined>) => {
      const { bytes, fileBytes: size } = (await read)!;
      return Buffer.from(bytes.subarray(0, size));
    };
    readDatabaseFileAhead(file);
    expect(await fileBytes(readDatabaseFile(file, 0, { forWriting: true }))).toEqual(original);

    readDatabaseFileAhead(file);
    const replaced = Buffer.concat([original, Buffer.alloc(4096)]);
    writeFileAtomically(file, replaced);
    expect(await fileBytes(readDatabaseFile(file, 0, { forWriting: true }))).toEqual(replaced);
  });

  it('reads a file to write with room to grow after its bytes, and one to read without', async () => {
    const dataDir = newDataDir();
    await storeWithEmptyOrganization(dataDir);
    const file = dataDirectoryFiles(dataDir).database;
    const size = fs.statSync(file).size;
    const forWriting = (await readDatabaseFile(file, 0, { forWriting: true }))!;
    expect([forWriting.bytes.length, forWriting.fileBytes]).toEqual([size + growthRoom(size), size]);
    // The room's first and last MiB (reading all of it would map gigabytes of zeros).
    const room = forWriting.bytes.subarray(size);
    expect([...room.subarray(0, 2 ** 20), ...room.subarray(-(2 ** 20))].every((byte) => byte === 0)).toBe(true);
    expect((await readDatabaseFile(file))!.bytes.length).toBe(size);
  });

  it('reads a file of many chunks whole, its chunks read several at once', async () => {
    const file = path.join(newDataDir(), 'chunks.bin');
    // Not a whole number of chunks (16 MiB), so that the last one is short.
    const content = crypto.randomBytes(5 * 16 * 2 ** 20 + 4097);
    fs.writeFileSync(file, content);
    const read = (await readDatabaseFile(file))!;
    expect(read.fileBytes).toBe(content.length);
    expect(Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.fileBytes).equals(content)).toBe(true);
  });

  it('reads a file again when its read ahead was dropped', async () => {
    const dataDir = newDataDir();
    await storeWithEmptyOrganization(dataDir);
    const file = dataDirectoryFiles(dataDir).database;
    readDatabaseFileAhead(file);
    dropReadsAhead();
    const read = (await readDatabaseFile(file))!;
    expect(Buffer.from(read.bytes.subarray(0, read.fileBytes))).toEqual(fs.readFileSync(file));
  });

  it('reads no bytes for a missing file', async () => {
    expect(await readDatabaseFile(path.join(newDataDir(), 'missing.sqlite'))).toBeUndefined();
  });
});
