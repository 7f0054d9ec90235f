import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeLogWriter, parseLog } from './change-log.js';
import { readStoreImage } from './store-image.js';
import { Store } from './store.js';

const folders: string[] = [];
const newDataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-log-'));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the change log', () => {
  it('opens, with its last record torn at any byte, with the records before it', async () => {
    const dataDir = newDataDir();
    const file = path.join(dataDir, 'inventory.sqlite');
    const store = await Store.open({ dataDir, command: 'test' });
    const organization = store.write(() => store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }));
    await store.checkpoint();
    store.write(() => store.apiKeys.create(organization.rowId, 'first'));
    store.write(() => store.apiKeys.create(organization.rowId, 'second'));
    const [log] = fs.readdirSync(dataDir).filter((name) => name.includes('.log.'));
    const logBytes = fs.readFileSync(path.join(dataDir, log!));
    // Closing would fold the log into the snapshot: keep the files as a crash would leave them.
    const snapshot = fs.readFileSync(file);
    store.close();
    const { transactions, committedBytes } = parseLog(logBytes);
    expect(transactions).toHaveLength(2);
    expect(committedBytes).toBe(logBytes.length);
    const lastStart = parseLog(logBytes.subarray(0, logBytes.length - 1)).committedBytes;
    const labels = async (bytes: Buffer) => {
      fs.writeFileSync(file, snapshot);
      for (const name of fs.readdirSync(dataDir).filter((n) => n.includes('.log.'))) fs.rmSync(path.join(dataDir, name));
      fs.writeFileSync(path.join(dataDir, log!), bytes);
      const reopened = await Store.open({ dataDir, readOnly: true });
      try {
        return reopened.apiKeys.list(organization.rowId).map((key) => key.label);
      } finally {
        reopened.close();
      }
    };
    expect(await labels(logBytes)).toEqual(['first', 'second']);
    for (let cut = lastStart; cut < logBytes.length; cut++) {
      const torn = parseLog(logBytes.subarray(0, cut));
      expect([torn.transactions.length, torn.committedBytes], `cut at ${cut}`).toEqual([1, lastStart]);
    }
    // Opened through the store at the record's first byte, in its middle and one byte short.
    for (const cut of [lastStart, Math.floor((lastStart + logBytes.length) / 2), logBytes.length - 1]) {
      expect(await labels(logBytes.subarray(0, cut)), `cut at ${cut}`).toEqual(['first']);
    }
    // A flipped byte inside the last record is a corrupt tail, ignored as a torn one.
    const corrupt = Buffer.from(logBytes);
    corrupt[lastStart + 20] = corrupt[lastStart + 20]! ^ 0xff;
    expect(await labels(corrupt)).toEqual(['first']);
  });

  it('cuts a torn tail off when the writer opens, and appends after it', async () => {
    const dataDir = newDataDir();
    const store = await Store.open({ dataDir, command: 'test' });
    const organization = store.write(() => store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }));
    store.close();
    const log = path.join(dataDir, 'inventory.sqlite.log.9');
    const writer = ChangeLogWriter.create(log);
    writer.write(0, Buffer.from('not committed'));
    writer.close();
    fs.appendFileSync(log, Buffer.from('W torn'));
    const reopened = await Store.open({ dataDir, command: 'test' });
    expect(fs.statSync(log).size).toBeLessThan(20);
    reopened.write(() => reopened.apiKeys.create(organization.rowId, 'after'));
    reopened.close();
    const image = await readStoreImage(path.join(dataDir, 'inventory.sqlite'), { holdsLock: false });
    expect(image.logs).toEqual([]);
    const again = await Store.open({ dataDir, readOnly: true });
    expect(again.apiKeys.list(organization.rowId).map((key) => key.label)).toEqual(['after']);
    again.close();
  });
});
