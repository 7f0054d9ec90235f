import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storeDigest } from '../../test/support/store-digest.js';
import { Database } from '../engine/database.js';
import { loadSqlJs } from '../engine/sql-js.js';
import { compactFreePages, pageCounts } from './page-compaction.js';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function newFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-compaction-'));
  folders.push(dir);
  return path.join(dir, 'inventory.sqlite');
}

const rows = 20_000;
/** Fills a table of `rows` rows of about 200 bytes, with an index, then deletes three quarters of them. */
function fillThenDelete(db: Database): void {
  db.exec('CREATE TABLE t (x TEXT); CREATE INDEX t_x ON t (x)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) db.run('INSERT INTO t VALUES (?)', [`${'x'.repeat(200)}${i}`]);
  });
  db.run('DELETE FROM t WHERE rowid <= ?', [(rows * 3) / 4]);
}

const compact = (db: Database) => compactFreePages(db, (work) => db.transaction(work, { durable: false }), () => true);
const pageBytes = (db: Database) => Number(db.value('PRAGMA page_size'));

describe('page compaction', () => {
  for (const pagesOnDemand of [false, true]) {
    it(`gives free pages back in slices, and the snapshot on disk shrinks to the data at the next checkpoint (${pagesOnDemand ? 'pages read on demand' : 'read whole'})`, async () => {
      const file = newFile();
      const db = await Database.open(file);
      fillThenDelete(db);
      db.close();
      const reopened = await Database.open(file, { pagesOnDemand });
      try {
        const before = pageCounts(reopened);
        expect(before.free / before.pages).toBeGreaterThan(0.5);
        await compact(reopened);
        const after = pageCounts(reopened);
        expect(after.free).toBe(0);
        expect(after.pages).toBeLessThan(before.pages - before.free + 10);
        expect(reopened.value('SELECT count(*) FROM t')).toBe(rows / 4);
        // Written again after the cut: pages past the new size are SQLite's to write before it reads them.
        reopened.transaction(() => {
          for (let i = 0; i < 1_000; i++) reopened.run('INSERT INTO t VALUES (?)', [`again ${i}`]);
        });
        expect(reopened.value('PRAGMA integrity_check')).toBe('ok');
        // The cut reaches the snapshot with the next checkpoint (a close makes none unless one is due).
        await reopened.checkpoint();
      } finally {
        reopened.close();
      }
      await storeDigest(path.dirname(file));
      const last = await Database.open(file, { readOnly: true });
      try {
        expect(fs.statSync(file).size).toBe(pageCounts(last).pages * pageBytes(last));
        expect(last.value('SELECT count(*) FROM t')).toBe(rows / 4 + 1_000);
      } finally {
        last.close();
      }
    });
  }

  it('leaves a file with few free pages as it is', async () => {
    const db = await Database.open();
    try {
      fillThenDelete(db);
      await compact(db);
      db.transaction(() => {
        for (let i = 0; i < rows; i++) db.run('INSERT INTO t VALUES (?)', [`${'y'.repeat(200)}${i}`]);
      });
      db.run('DELETE FROM t WHERE rowid IN (SELECT rowid FROM t LIMIT 100)');
      const before = pageCounts(db);
      expect(before.free).toBeGreaterThan(0);
      await compact(db);
      expect(pageCounts(db)).toEqual(before);
    } finally {
      db.close();
    }
  });

  /** Writes a database as a version before `auto_vacuum` did: `rows` rows, then all but `kept` of them deleted. */
  async function olderStore(file: string, deleted: number): Promise<void> {
    const { SQL } = await loadSqlJs();
    const old = new SQL.Database();
    old.exec('CREATE TABLE t (x TEXT)');
    old.exec('BEGIN');
    for (let i = 0; i < 2_000; i++) old.run('INSERT INTO t VALUES (?)', [`${'x'.repeat(200)}${i}`]);
    old.exec('COMMIT');
    old.run('DELETE FROM t WHERE rowid <= ?', [deleted]);
    expect(old.exec('PRAGMA auto_vacuum')[0]!.values[0]![0]).toBe(0);
    fs.writeFileSync(file, old.export());
    old.close();
  }

  it('opens a database written before auto_vacuum with little free space as it was, without rewriting it', async () => {
    const file = newFile();
    await olderStore(file, 10);
    const db = await Database.open(file);
    try {
      // Not rewritten: a VACUUM would have put it in auto_vacuum.
      expect(db.value('PRAGMA auto_vacuum')).toBe(0);
      expect(db.value('SELECT count(*) FROM t')).toBe(1_990);
    } finally {
      db.close();
    }
  });

  it('puts a database written before auto_vacuum with dead weight in it once, at its first open for writing, its data kept and its free pages given back', async () => {
    const file = newFile();
    await olderStore(file, 1_500);
    const db = await Database.open(file);
    try {
      expect(db.value('PRAGMA auto_vacuum')).toBe(2);
      expect(db.value('PRAGMA freelist_count')).toBe(0);
      expect(db.value('SELECT count(*) FROM t')).toBe(500);
    } finally {
      db.close();
    }
    await storeDigest(path.dirname(file));
    const again = await Database.open(file, { readOnly: true });
    try {
      expect(again.value('PRAGMA auto_vacuum')).toBe(2);
      expect(again.value('SELECT count(*) FROM t')).toBe(500);
    } finally {
      again.close();
    }
  });
});
