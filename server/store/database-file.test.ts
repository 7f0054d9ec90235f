import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { smallInventory } from '../test/support/fixtures.js';
import { readDatabaseFile, readDatabaseFileAhead } from './database-file.js';
import { dataDirectoryFiles, writeFileAtomically } from './data-directory.js';
import { Store } from './store.js';

const folders: string[] = [];
function newDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-dbfile-'));
  folders.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function storeWithOrganization(dataDir: string): Promise<void> {
  const store = await Store.open({ dataDir, command: 'test' });
  store.write(() => store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }));
  store.close();
}

describe('database file', () => {
  it('gives a bulk load reserved room without writing that room to the file', async () => {
    const inventory = smallInventory(50, 100);
    const load = async (reserveBytes: number) => {
      const dataDir = newDataDir();
      await storeWithOrganization(dataDir);
      const file = dataDirectoryFiles(dataDir).database;
      if (reserveBytes > 0) expect((await readDatabaseFile(file, reserveBytes))!.length).toBe(fs.statSync(file).size + reserveBytes);
      const store = await Store.open({ dataDir, command: 'test', reserveBytes });
      const organization = store.organizations.bySlug('acme')!;
      store.write((writes) => writes.replace(organization.rowId, inventory));
      store.close();
      const reopened = await Store.open({ dataDir, command: 'test', readOnly: true });
      const findings = reopened.inventory.list(organization.rowId, { collection: 'findings', query: { limit: 1, offset: 0 } }).total;
      reopened.close();
      return { size: fs.statSync(file).size, findings };
    };
    const reserved = await load(16 * 2 ** 20);
    expect(reserved).toEqual(await load(0));
    expect(reserved.findings).toBe(inventory.findings.length);
  });

  it('uses bytes read ahead only while the file is the one they were read from', async () => {
    const dataDir = newDataDir();
    await storeWithOrganization(dataDir);
    const file = dataDirectoryFiles(dataDir).database;
    const original = fs.readFileSync(file);

    readDatabaseFileAhead(file);
    expect(Buffer.from((await readDatabaseFile(file))!)).toEqual(original);

    readDatabaseFileAhead(file);
    const replaced = Buffer.concat([original, Buffer.alloc(4096)]);
    writeFileAtomically(file, replaced);
    expect(Buffer.from((await readDatabaseFile(file))!)).toEqual(replaced);
  });

  it('reads no bytes for a missing file', async () => {
    expect(await readDatabaseFile(path.join(newDataDir(), 'missing.sqlite'))).toBeUndefined();
  });
});
