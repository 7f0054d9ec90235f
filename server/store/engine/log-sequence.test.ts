import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logFile, logFiles, logFormat } from './change-log.js';
import { Database } from './database.js';
import { decodeStamp, encodeStamp } from './sequence-stamp.js';
import { snapshotHeaderFile } from './snapshot-header.js';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const newDatabaseFile = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-log-sequence-'));
  folders.push(dir);
  return path.join(dir, 'inventory.sqlite');
};
const keys = (db: Database) => db.all('SELECT id, state FROM keys ORDER BY id');

describe('logs bound to the snapshot they extend', () => {
  it('ignores, at open, a log already folded into the snapshot, as a crash mid-removal leaves it', async () => {
    const file = newDatabaseFile();
    const db = await Database.open(file);
    db.exec("CREATE TABLE keys (id INTEGER PRIMARY KEY, state TEXT); INSERT INTO keys VALUES (1, 'active')");
    await db.checkpoint();
    db.run("INSERT INTO keys VALUES (2, 'active')");
    // The log of that write, as it was before a checkpoint folded it in.
    const [folded] = fs.readdirSync(path.dirname(file)).filter((name) => /\.log\.\d+$/.test(name));
    const foldedBytes = fs.readFileSync(path.join(path.dirname(file), folded!));
    await db.checkpoint();
    // Later writes rewrite the same page: key 1 revoked, key 3 created.
    db.run("UPDATE keys SET state = 'revoked' WHERE id = 1");
    db.run("INSERT INTO keys VALUES (3, 'active')");
    await db.checkpoint();
    db.close();
    const expected = [
      { id: 1, state: 'revoked' },
      { id: 2, state: 'active' },
      { id: 3, state: 'active' },
    ];

    // A crash while the checkpoint removed its logs kept the older one.
    fs.writeFileSync(path.join(path.dirname(file), folded!), foldedBytes);
    const reopened = await Database.open(file);
    try {
      expect(keys(reopened)).toEqual(expected);
      expect(reopened.value('PRAGMA integrity_check')).toBe('ok');
    } finally {
      reopened.close();
    }
    expect(fs.existsSync(path.join(path.dirname(file), folded!))).toBe(false);
  });

  /** A store with keys 1 and 2 in its snapshot and key 3 in its log, as a crash leaves it; the log's bytes, then closed. */
  async function crashedWithALog() {
    const file = newDatabaseFile();
    const db = await Database.open(file);
    db.exec("CREATE TABLE keys (id INTEGER PRIMARY KEY, state TEXT); INSERT INTO keys VALUES (1, 'active'), (2, 'active')");
    await db.checkpoint();
    const snapshot = fs.readFileSync(file);
    const header = fs.readFileSync(snapshotHeaderFile(file));
    // A pragma in the transaction logs it as pages, the one kind of transaction every log format has.
    db.transaction(() => {
      db.run("INSERT INTO keys VALUES (3, 'active')");
      db.exec('PRAGMA foreign_keys = ON');
    });
    const log = logFiles(file).at(-1)!;
    const logBytes = fs.readFileSync(log.file);
    db.close();
    for (const { file: left } of logFiles(file)) fs.rmSync(left);
    fs.writeFileSync(file, snapshot);
    fs.writeFileSync(snapshotHeaderFile(file), header);
    return { file, log, logBytes };
  }

  it('opens a data directory written before logs had sequences, and carries on in the new format', async () => {
    const { file, logBytes } = await crashedWithALog();
    // The old format: the magic alone, then the same frames; no header file beside the snapshot.
    fs.rmSync(snapshotHeaderFile(file));
    const legacy = Buffer.concat([logFormat.legacyMagic, logBytes.subarray(logFormat.headerBytes)]);
    fs.writeFileSync(`${file}.log.7`, legacy);
    const db = await Database.open(file);
    expect(keys(db).map((key) => key.id)).toEqual([1, 2, 3]);
    expect(fs.existsSync(snapshotHeaderFile(file))).toBe(true);
    db.run("INSERT INTO keys VALUES (4, 'active')");
    // A crash now leaves the old log and a new one after it: both replayed.
    const left = logFiles(file).map((log) => log.number);
    expect(left).toEqual([7, 8]);
    const copy = newDatabaseFile();
    for (const name of fs.readdirSync(path.dirname(file))) fs.copyFileSync(path.join(path.dirname(file), name), path.join(path.dirname(copy), name));
    db.close();
    for (const reopenedFile of [file, copy]) {
      const reopened = await Database.open(reopenedFile);
      expect(keys(reopened).map((key) => key.id)).toEqual([1, 2, 3, 4]);
      expect(reopened.value('PRAGMA integrity_check')).toBe('ok');
      expect(fs.readFileSync(logFile(reopenedFile, 8)).subarray(0, logFormat.magic.length)).toEqual(logFormat.magic);
      await reopened.checkpoint();
      reopened.close();
      expect(logFiles(reopenedFile)).toEqual([]);
    }
  });

  it('stops the replay at a gap in the sequence, says so, and keeps the logs after it aside', async () => {
    const { file, log, logBytes } = await crashedWithALog();
    // The log after the gap: the same frames, stamped two sequences on.
    const after = Buffer.from(logBytes);
    const sequence = log.number + 2;
    const salt = logBytes.subarray(16, 24).toString('hex');
    encodeStamp(logFormat.magic, { sequence, salt }).copy(after);
    fs.writeFileSync(`${file}.log.${sequence}`, after);
    const warn = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const db = await Database.open(file);
    try {
      expect(keys(db).map((key) => key.id)).toEqual([1, 2]);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(new RegExp(`stop at sequence ${log.number - 1}: .*log\\.${sequence} and the 0 after it are not replayed, as the log of sequence ${log.number} is missing`));
      expect(fs.existsSync(`${file}.log.${sequence}.unreplayed`)).toBe(true);
      db.run("INSERT INTO keys VALUES (5, 'active')");
    } finally {
      warn.mockRestore();
      db.close();
    }
    const reopened = await Database.open(file);
    expect(keys(reopened).map((key) => key.id)).toEqual([1, 2, 5]);
    reopened.close();
  });

  it('does not replay a log of another snapshot generation, nor one torn as it was created', async () => {
    const { file, log, logBytes } = await crashedWithALog();
    const foreign = Buffer.from(logBytes);
    encodeStamp(logFormat.magic, { sequence: log.number, salt: 'feedfacefeedface' }).copy(foreign);
    fs.writeFileSync(log.file, foreign);
    const warn = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const db = await Database.open(file);
      expect(keys(db).map((key) => key.id)).toEqual([1, 2]);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/extends another snapshot/);
      db.close();
    } finally {
      warn.mockRestore();
    }
    // Created, then a crash before its header was durable.
    fs.writeFileSync(`${file}.log.${log.number}`, logBytes.subarray(0, 10));
    const db = await Database.open(file);
    expect(keys(db).map((key) => key.id)).toEqual([1, 2]);
    db.run("INSERT INTO keys VALUES (6, 'active')");
    db.close();
    const reopened = await Database.open(file);
    expect(keys(reopened).map((key) => key.id)).toEqual([1, 2, 6]);
    reopened.close();
  });

  it.each(['RCSNAP1\n', 'RCSNAP2\n'])("takes a header of an older build (%j) as it is, writes its own at the first writable open, and that one an older build refuses", async (olderMagic) => {
    const { file, log, logBytes } = await crashedWithALog();
    expect(logBytes.subarray(0, 8).toString()).toBe('RCLOG 3\n');
    fs.writeFileSync(log.file, logBytes);
    // The header as the older build wrote it: same sequence and salt, its magic.
    const ours = fs.readFileSync(snapshotHeaderFile(file));
    expect(ours.subarray(0, 8).toString()).toBe('RCSNAP3\n');
    const stamp = { sequence: Number(ours.readBigUInt64LE(8)), salt: ours.subarray(16, 24).toString('hex') };
    const older = encodeStamp(Buffer.from(olderMagic), stamp);
    fs.writeFileSync(snapshotHeaderFile(file), older);
    const readOnly = await Database.open(file, { readOnly: true });
    expect(keys(readOnly).map((key) => key.id)).toEqual([1, 2, 3]);
    readOnly.close();
    expect(fs.readFileSync(snapshotHeaderFile(file))).toEqual(older);

    const db = await Database.open(file);
    expect(keys(db).map((key) => key.id)).toEqual([1, 2, 3]);
    db.close();
    const rewritten = fs.readFileSync(snapshotHeaderFile(file));
    expect(rewritten).toEqual(encodeStamp(Buffer.from('RCSNAP3\n'), stamp));
    // An older build reads the headers of its own magic and its predecessors' only: this one does not decode, and it refuses the store ("damaged") before it lists a log.
    expect(decodeStamp(Buffer.from(olderMagic), rewritten)).toBeUndefined();
  });
});
