import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { databaseCopies } from '../../test/support/database-copies.js';
import { logFiles } from './change-log.js';
import { parseLog } from './change-log-reader.js';
import { Database } from './database.js';
import { replayBudgetMicroseconds } from './durable-file.js';
import { files } from './engine-files.js';

const { newDatabaseFile, crashCopy, removeAll } = databaseCopies('rc-page-delta-');
afterEach(removeAll);

const rows = (db: Database) => db.all('SELECT id, label FROM notes ORDER BY id');

/** The delta frames the logs of `file` hold. */
const deltaFrames = (file: string) =>
  logFiles(file).flatMap(({ file: log }) => parseLog(fs.readFileSync(log)).transactions.flatMap((frames) => frames.flatMap((frame) => (frame.kind === 'delta' ? [frame] : []))));

/** A snapshot of 3,000 notes, then a tenth of them changed by statements, then a schema change: a fold of the pages they changed. */
async function foldedAfterStatements(): Promise<{ file: string; db: Database }> {
  const file = newDatabaseFile();
  const db = await Database.open(file);
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, label TEXT NOT NULL); CREATE INDEX notes_label ON notes (label)');
  db.transaction(() => {
    for (let id = 1; id <= 3_000; id++) db.run('INSERT INTO notes VALUES (?, ?)', [id, `note ${id} `.padEnd(120, 'x')]);
  });
  await db.checkpoint();
  changeATenth(db, 'changed');
  // Logged as pages: the statements' pages are folded first.
  db.exec('CREATE TABLE other (x)');
  return { file, db };
}

function changeATenth(db: Database, word: string): void {
  for (let id = 3; id <= 3_000; id += 10) db.run('UPDATE notes SET label = ? WHERE id = ?', [`${word} ${id}`, id]);
}

describe('pages folded as deltas against the snapshot', () => {
  it('are a small part of the pages they stand for, and open to the same rows, whole or on demand', async () => {
    const { file, db } = await foldedAfterStatements();
    const deltas = deltaFrames(file);
    expect(deltas.length).toBeGreaterThan(20);
    const deflated = deltas.reduce((sum, frame) => sum + frame.deflated.length, 0);
    const whole = deltas.reduce((sum, frame) => sum + frame.length, 0);
    expect(deflated).toBeLessThan(whole / 4);
    const expected = rows(db);
    const copy = crashCopy(file);
    db.close();

    for (const pagesOnDemand of [false, true]) {
      const reopened = await Database.open(crashCopy(copy), { pagesOnDemand });
      expect(rows(reopened), `pages on demand: ${pagesOnDemand}`).toEqual(expected);
      expect(reopened.value('PRAGMA integrity_check')).toBe('ok');
      reopened.close();
    }
    const readOnly = await Database.open(copy, { readOnly: true });
    expect(rows(readOnly)).toEqual(expected);
    readOnly.close();
  });

  it('are logged whole before a checkpoint writes the snapshot, by the process that logged them and by the next one', async () => {
    const { file, db } = await foldedAfterStatements();
    const expected = rows(db);
    const taken = crashCopy(file);
    await db.checkpoint();
    db.close();
    expect(logFiles(file)).toEqual([]);

    // The next process finds the deltas in the logs it replays; a command's (pages on demand) applies each as its page is first read.
    const next = await Database.open(taken, { pagesOnDemand: true });
    await next.checkpoint();
    next.close();
    expect(logFiles(taken)).toEqual([]);
    for (const folded of [file, taken]) {
      const reopened = await Database.open(folded);
      expect(rows(reopened)).toEqual(expected);
      expect(reopened.value('PRAGMA integrity_check')).toBe('ok');
      reopened.close();
    }
  });

  it('open to the same rows after a checkpoint that stopped partway through the snapshot, and are taken again against what it left', async () => {
    const { file, db } = await foldedAfterStatements();
    const expected = rows(db);
    // The checkpoint writes some of the snapshot's pages, then the disk fails.
    const { writeSync } = files;
    let writes = 0;
    files.writeSync = (fd, bytes, offset, length, position) => {
      if (position !== null && ++writes > 2) throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
      return writeSync(fd, bytes, offset, length, position);
    };
    const errors: unknown[] = [];
    const report = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      await db.checkpoint();
    } finally {
      files.writeSync = writeSync;
      console.error = report;
    }
    expect(errors).toHaveLength(1);
    expect(writes).toBeGreaterThan(2);
    const afterFailure = crashCopy(file);
    for (const pagesOnDemand of [false, true]) {
      const reopened = await Database.open(crashCopy(afterFailure), { pagesOnDemand });
      expect(rows(reopened)).toEqual(expected);
      expect(reopened.value('PRAGMA integrity_check')).toBe('ok');
      reopened.close();
    }

    // More statements, folded as deltas against the snapshot the failed checkpoint left.
    changeATenth(db, 'again');
    db.exec('CREATE TABLE another (x)');
    expect(deltaFrames(file).length).toBeGreaterThan(0);
    const again = rows(db);
    expect(again).not.toEqual(expected);
    const copy = crashCopy(file);
    await db.checkpoint();
    db.close();
    for (const [reopenedFile, pagesOnDemand] of [[crashCopy(copy), false], [copy, true], [file, false]] as const) {
      const opened = await Database.open(reopenedFile, { pagesOnDemand });
      expect(rows(opened)).toEqual(again);
      expect(opened.value('PRAGMA integrity_check')).toBe('ok');
      // A checkpoint by this process logs the delta pages whole first, read as they are asked for.
      await opened.checkpoint();
      opened.close();
      const folded = await Database.open(reopenedFile);
      expect(rows(folded)).toEqual(again);
      folded.close();
    }
  });

  it('applied as a command first reads their pages, count apart from the statement that read them against the replay budget', async () => {
    const { file, db } = await foldedAfterStatements();
    db.close();
    const reopened = await Database.open(file, { pagesOnDemand: true });
    // The clock jumps a quarter of the budget inside each run of pages whose deltas are applied:
    // SnapshotPages.readRun reads it before and after them, and the jump comes at the second
    // reading. Told by the caller's name: a mock of the inflating module would not reach a
    // snapshot-pages.ts that another test file loaded first (the server's tests share modules).
    const jumpMs = replayBudgetMicroseconds / 4 / 1000;
    const realNow = performance.now.bind(performance);
    let readingsInRuns = 0;
    let jumped = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => {
      if (new Error().stack?.includes('readRun') && readingsInRuns++ % 2 === 1) jumped += jumpMs;
      return realNow() + jumped;
    });
    try {
      reopened.run("UPDATE notes SET label = label || '!'");
    } finally {
      now.mockRestore();
    }
    // The deferred deltas were applied by the statement, in runs whose jumps add up past the budget.
    const runs = jumped / jumpMs;
    expect(runs).toBeGreaterThan(4);
    const transactions = logFiles(file).flatMap(({ file: log }) => parseLog(fs.readFileSync(log)).transactions);
    const durations = transactions.at(-1)!.flatMap((frame) => (frame.kind === 'duration' ? [frame.microseconds] : []));
    // Counted with the jumps, it would pass the whole budget and go as pages.
    expect(durations, 'the update logged as a statement, with the time it took').toHaveLength(1);
    expect(durations[0]).toBeLessThan(replayBudgetMicroseconds / 4);
    reopened.close();
  });

  it('read by a reader without the lock while a checkpoint writes the snapshot under it, are read again after it', async () => {
    const { file, db } = await foldedAfterStatements();
    changeATenth(db, 'after the fold');
    const expected = rows(db);
    // The reader lists the logs, then opens the snapshot: the writer's checkpoint runs whole in between.
    const { openForReading } = files;
    let checkpoints = 0;
    files.openForReading = async (opened) => {
      if (opened === file && checkpoints++ === 0) await db.checkpoint();
      return openForReading(opened);
    };
    let reader: Database;
    try {
      reader = await Database.open(file, { readOnly: true });
    } finally {
      files.openForReading = openForReading;
    }
    // Its deltas were taken against the snapshot as it was before: read against the new one, they would make other pages.
    expect(checkpoints).toBeGreaterThan(1);
    expect(rows(reader)).toEqual(expected);
    expect(reader.value('PRAGMA integrity_check')).toBe('ok');
    reader.close();
    db.close();
  });
});
