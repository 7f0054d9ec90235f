import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { databaseCopies } from '../../test/support/database-copies.js';
import { logFiles } from './change-log.js';
import { parseLog, type ParsedFrame } from './change-log-reader.js';
import { Database } from './database.js';
import { replayBudgetMicroseconds } from './durable-file.js';
import { nextTurn } from './next-turn.js';
import { decodeStatement, encodeStatement, type RecordedStatement } from './statement-codec.js';

const { newDatabaseFile, crashCopy, removeAll } = databaseCopies('rc-statement-log-');
afterEach(removeAll);

const rows = (db: Database) => db.all('SELECT rowid, id, label, data FROM notes ORDER BY rowid');

/** The kinds of the transactions the logs of `file` hold, in order: a letter each (S statements, P pages, F a fold). */
const transactionKinds = (file: string) =>
  logFiles(file).flatMap(({ file: log }) =>
    parseLog(fs.readFileSync(log)).transactions.map((frames: ParsedFrame[]) =>
      frames.some((frame) => frame.kind === 'statement') ? 'S' : frames[0]?.kind === 'truncate' && 'fold' in frames[0] ? 'F' : 'P',
    ),
  );

/**
 * Closes `db` after copying its files as a crash would leave them, opens the copy and checks it
 * holds the same rows and passes SQLite's integrity check; the copy is left open.
 */
async function reopenedAfterCrash(file: string, db: Database): Promise<{ expected: unknown[]; copy: string; reopened: Database }> {
  const expected = rows(db);
  const copy = crashCopy(file);
  db.close();
  const reopened = await Database.open(copy);
  expect(rows(reopened)).toEqual(expected);
  expect(reopened.value('PRAGMA integrity_check')).toBe('ok');
  return { expected, copy, reopened };
}

async function openWithTable(): Promise<{ file: string; db: Database }> {
  const file = newDatabaseFile();
  const db = await Database.open(file);
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT NOT NULL, data BLOB); CREATE INDEX notes_label ON notes (label)');
  await db.checkpoint();
  return { file, db };
}

describe('the statement log', () => {
  it('encodes every kind of value a statement binds, by position and by name, and decodes it the same', () => {
    const statements: RecordedStatement[] = [
      { kind: 'run', sql: 'INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)', params: [null, 3, 2 ** 40 + 0.5, 'é ✓', new Uint8Array([0, 255, 7]), -0] },
      { kind: 'run', sql: 'UPDATE t SET a = :a WHERE b = $b', params: { ':a': 'x', $b: 12 } },
      { kind: 'exec', sql: 'DELETE FROM t; DELETE FROM u' },
    ];
    for (const statement of statements) expect(decodeStatement(encodeStatement(statement))).toEqual(statement);
    expect(() => decodeStatement(encodeStatement(statements[0]!).subarray(0, 20))).toThrow(/ends inside/);
  });

  it('replays after a crash to the same rows and rowids, in the order they were written', async () => {
    const { file, db } = await openWithTable();
    db.run('INSERT INTO notes (label, data) VALUES (?, ?)', ['first', new Uint8Array([1, 2, 3])]);
    db.transaction(() => {
      for (let i = 0; i < 20; i++) db.run('INSERT INTO notes (label) VALUES (:label)', { ':label': `note ${i}` });
      db.run('DELETE FROM notes WHERE label = ?', ['note 3']);
    });
    // Order matters: an update, then a delete of what it updated, then an insert reusing nothing.
    db.run("UPDATE notes SET label = 'renamed' WHERE id = 5");
    db.run("DELETE FROM notes WHERE label = 'renamed'");
    db.run("INSERT INTO notes (label) VALUES ('after the delete')");
    const expected = rows(db);
    expect(transactionKinds(file).every((kind) => kind === 'S')).toBe(true);
    const copy = crashCopy(file);
    db.close();
    for (const reopenedFile of [copy, file]) {
      const reopened = await Database.open(reopenedFile);
      expect(rows(reopened)).toEqual(expected);
      expect(reopened.value('PRAGMA integrity_check')).toBe('ok');
      reopened.close();
    }
  });

  it('leaves out what a savepoint rolled back, and everything of a transaction rolled back', async () => {
    const { file, db } = await openWithTable();
    db.transaction(() => {
      db.run("INSERT INTO notes (label) VALUES ('kept')");
      expect(() =>
        db.transaction(() => {
          db.run("INSERT INTO notes (label) VALUES ('rolled back')");
          throw new Error('undone');
        }),
      ).toThrow('undone');
      db.run("INSERT INTO notes (label) VALUES ('kept too')");
    });
    expect(() =>
      db.transaction(() => {
        db.run("INSERT INTO notes (label) VALUES ('never')");
        throw new Error('all undone');
      }),
    ).toThrow('all undone');
    const copy = crashCopy(file);
    db.close();
    const statements = logFiles(copy).flatMap(({ file: log }) =>
      parseLog(fs.readFileSync(log)).transactions.flatMap((frames) => frames.flatMap((frame) => (frame.kind === 'statement' ? [frame.statement.sql] : []))),
    );
    expect(statements.some((sql) => sql.includes('rolled back') || sql.includes('never'))).toBe(false);
    const reopened = await Database.open(copy);
    expect(reopened.column('SELECT label FROM notes ORDER BY id')).toEqual(['kept', 'kept too']);
    reopened.close();
  });

  it('opens a log of statements torn at any byte of its last transaction with the transactions before it', async () => {
    const { file, db } = await openWithTable();
    db.run("INSERT INTO notes (label) VALUES ('one')");
    db.run('INSERT INTO notes (label) VALUES (?)', ['two']);
    const copy = crashCopy(file);
    db.close();
    const log = logFiles(copy).at(-1)!.file;
    const bytes = fs.readFileSync(log);
    const lastStart = parseLog(bytes.subarray(0, bytes.length - 1)).committedBytes;
    for (const cut of [lastStart, lastStart + 1, lastStart + 6, Math.floor((lastStart + bytes.length) / 2), bytes.length - 1]) {
      const torn = crashCopy(copy);
      fs.writeFileSync(logFiles(torn).at(-1)!.file, bytes.subarray(0, cut));
      const reopened = await Database.open(torn);
      expect(reopened.column('SELECT label FROM notes ORDER BY id'), `cut at ${cut}`).toEqual(['one']);
      reopened.close();
    }
  });

  it('folds before pages that follow statements, and opens from every log to the same rows', async () => {
    const { file, db } = await openWithTable();
    for (let i = 0; i < 50; i++) db.run('INSERT INTO notes (label) VALUES (?)', [`before ${i}`]);
    // A schema change is logged as pages: a fold of the statements' pages comes first.
    db.exec('CREATE TABLE other (x); CREATE INDEX notes_data ON notes (data)');
    for (let i = 0; i < 50; i++) db.run('INSERT INTO notes (label) VALUES (?)', [`after ${i}`]);
    expect(transactionKinds(file)).toEqual([...Array<string>(50).fill('S'), 'F', ...Array<string>(50).fill('S')]);
    const { expected, copy, reopened } = await reopenedAfterCrash(file, db);
    expect(reopened.column("SELECT name FROM sqlite_master WHERE name IN ('other', 'notes_data') ORDER BY name")).toEqual(['notes_data', 'other']);
    // A checkpoint folds the logs into the snapshot: the snapshot alone then holds the rows.
    await reopened.checkpoint();
    reopened.close();
    expect(logFiles(copy)).toEqual([]);
    const folded = await Database.open(copy);
    expect(rows(folded)).toEqual(expected);
    expect(folded.value('PRAGMA integrity_check')).toBe('ok');
    folded.close();
  });

  it('logs a transaction through a temporary table as statements (not in the file), and one that changes the schema as pages', async () => {
    const { file, db } = await openWithTable();
    for (let i = 0; i < 40; i++) db.run('INSERT INTO notes (label) VALUES (?)', [`note ${i}`]);
    // As a merge moves rows that sort after a changed one (inventory-writes.ts).
    db.transaction(() => {
      db.exec('CREATE TEMP TABLE IF NOT EXISTS tail AS SELECT * FROM main.notes WHERE 0; CREATE INDEX IF NOT EXISTS temp.tail_id ON tail (id); DELETE FROM temp.tail;');
      db.run('INSERT INTO temp.tail SELECT * FROM main.notes WHERE id > ?', [30]);
      db.run('DELETE FROM main.notes WHERE id > ?', [30]);
      db.run("INSERT INTO main.notes (label, data) SELECT label || ' moved', data FROM temp.tail ORDER BY id");
    });
    db.transaction(() => {
      db.run("INSERT INTO notes (label) VALUES ('with an index')");
      db.exec('CREATE INDEX notes_id_label ON notes (id, label)');
    });
    expect(transactionKinds(file).slice(-3)).toEqual(['S', 'S', 'F']);
    (await reopenedAfterCrash(file, db)).reopened.close();
  });

  it('folds the pages of the statements since the last fold, as deltas, once they would take past the replay budget', async () => {
    const { file, db } = await openWithTable();
    db.run("INSERT INTO notes (label) VALUES ('quick')");
    // One statement that runs well over the budget (1.5 s), to insert one row: some 3.5 s on a
    // machine where 9,000,000 rows took 1.3 s, under the budget.
    db.run(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 24000000) INSERT INTO notes (label) SELECT 'slow ' || count(*) FROM n",
    );
    // The fold goes a slice per turn, and is committed by the settle it runs in (or by the next write).
    await db.settle();
    db.run("INSERT INTO notes (label) VALUES ('after')");
    // The slow statement is logged, then its fold in a transaction of its own, whose pages are deltas against the snapshot.
    expect(transactionKinds(file).slice(-3)).toEqual(['S', 'F', 'S']);
    const fold = logFiles(file).flatMap(({ file: log }) => parseLog(fs.readFileSync(log)).transactions).at(-2)!;
    expect(fold.some((frame) => frame.kind === 'delta')).toBe(true);
    (await reopenedAfterCrash(file, db)).reopened.close();
  });

  it('folds past the replay budget a slice per turn, after a durable write as after one held, so that a request waits for no whole fold', async () => {
    const { file, db } = await openWithTable();
    // About 8 MiB of pages changed by statements, then two recorded as taking 60 % of the budget each (a clock that jumps).
    db.transaction(() => {
      for (let i = 0; i < 400; i++) db.run('INSERT INTO notes (label, data) VALUES (?, zeroblob(20000))', [`row ${i}`]);
    });
    for (const label of ['slow', 'past the budget']) {
      let clock = 0;
      const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += (0.6 * replayBudgetMicroseconds) / 1000));
      try {
        db.run('INSERT INTO notes (label) VALUES (?)', [label]);
      } finally {
        now.mockRestore();
      }
    }
    // The write is durable and logged as statements; its fold has begun, and is not committed yet.
    expect(transactionKinds(file).at(-1)).toBe('S');
    await db.settle();
    expect(transactionKinds(file).at(-1)).toBe('F');
    // Compared by a digest of the rows: comparing 8 MiB of blobs value by value took the test 11 s.
    const digest = (of: Database) => of.rows("SELECT count(*), sum(length(data)), group_concat(label, ',') FROM notes");
    const expected = digest(db);
    const copy = crashCopy(file);
    db.close();
    const reopened = await Database.open(copy);
    expect(digest(reopened)).toEqual(expected);
    expect(reopened.value('PRAGMA integrity_check')).toBe('ok');
    reopened.close();
  });

  it('counts the statements an open replayed at what the replay took, not at what they took when recorded', async () => {
    const { file, db } = await openWithTable();
    // A statement recorded as taking 60 % of the replay budget (a clock that jumps), which an
    // open then replays in a few milliseconds.
    const recordedAsSlow = (into: Database, label: string) => {
      let clock = 0;
      const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += (0.6 * replayBudgetMicroseconds) / 1000));
      try {
        into.run('INSERT INTO notes (label) VALUES (?)', [label]);
      } finally {
        now.mockRestore();
      }
    };
    recordedAsSlow(db, 'first');
    // In the same process the two recorded times add up past the budget: its statements, then a fold.
    recordedAsSlow(db, 'second');
    await db.settle();
    expect(transactionKinds(file).slice(-2)).toEqual(['S', 'F']);
    recordedAsSlow(db, 'third');
    expect(transactionKinds(file).at(-1)).toBe('S');
    const { copy, reopened } = await reopenedAfterCrash(file, db);
    // The open replayed 'third' in far less than it was recorded at: a fourth fits beside it.
    const kindsBefore = transactionKinds(copy).length;
    recordedAsSlow(reopened, 'fourth');
    expect(transactionKinds(copy).slice(kindsBefore)).toEqual(['S']);
    reopened.close();
  });

  it('says at a transaction\'s start when it will surely be logged as pages (its statements then go unencoded), and only then', async () => {
    const { file, db } = await openWithTable();
    const durable = (db as unknown as { durable: { mayLogStatements(): boolean } }).durable;
    const said: boolean[] = [];
    const write = (label: string, durableWrite: boolean) => {
      said.push(durable.mayLogStatements());
      db.transaction(() => db.run('INSERT INTO notes (label, data) VALUES (?, zeroblob(20000))', [label]), { durable: durableWrite });
    };
    write('statements', true);
    // A schema change is logged as pages; not durable, they stay held…
    db.transaction(() => db.exec('CREATE TABLE other (id INTEGER PRIMARY KEY)'), { durable: false });
    // …so the writes after it go as pages too, the durable one with them.
    write('after held pages', false);
    write('durable', true);
    write('statements again', true);
    expect(said).toEqual([true, false, false, true]);
    expect(transactionKinds(file).slice(-3)).toEqual(['S', 'F', 'S']);
    (await reopenedAfterCrash(file, db)).reopened.close();
  });

  it('logs a transaction asked as pages as its pages, after a fold, and reads rows as arrays', async () => {
    const { file, db } = await openWithTable();
    db.run("INSERT INTO notes (label) VALUES ('before')");
    // As a piece of an EPSS import that changes most of the table (threat-intel.ts).
    db.transaction(() => db.run("INSERT INTO notes (label) VALUES ('bulk')"), { asPages: true });
    db.run("INSERT INTO notes (label) VALUES ('after')");
    expect(transactionKinds(file).slice(-3)).toEqual(['S', 'F', 'S']);
    expect(db.rows('SELECT id, label FROM notes ORDER BY id')).toEqual([
      [1, 'before'],
      [2, 'bulk'],
      [3, 'after'],
    ]);
    (await reopenedAfterCrash(file, db)).reopened.close();
  });

  it('logs as pages a script that failed part way, whose statements before the failure stay applied', async () => {
    const { file, db } = await openWithTable();
    db.run("INSERT INTO notes (label) VALUES ('before')");
    expect(() => db.exec("INSERT INTO notes (label) VALUES ('applied'); INSERT INTO notes (label) VALUES (NULL)")).toThrow(/NOT NULL/);
    db.run("INSERT INTO notes (label) VALUES ('after')");
    expect(transactionKinds(file).slice(-3)).toEqual(['S', 'F', 'S']);
    const { reopened } = await reopenedAfterCrash(file, db);
    expect(reopened.column('SELECT label FROM notes ORDER BY id')).toEqual(['before', 'applied', 'after']);
    reopened.close();
  });

  /**
   * A store whose statements since the last fold changed 6 MiB of pages (rows with a label of
   * 160 KiB each, in the table and its index; text, which the rows' comparison reads at once,
   * and the logs under a checkpoint's threshold), then a write that need not be durable, logged
   * as pages: its settle folds first.
   */
  async function foldToSettle(): Promise<{ file: string; db: Database }> {
    const { file, db } = await openWithTable();
    for (let i = 0; i < 20; i++) db.run('INSERT INTO notes (label) VALUES (?)', [`kept ${i} `.padEnd(160 * 1024, String(i % 10))]);
    db.transaction(() => db.exec('CREATE TABLE other (x)'), { durable: false });
    return { file, db };
  }

  it("folds before a settle's held pages, and opens to the same rows", async () => {
    const { file, db } = await foldToSettle();
    await db.settle();
    expect(transactionKinds(file)).toEqual([...Array<string>(20).fill('S'), 'F']);
    (await reopenedAfterCrash(file, db)).reopened.close();
  });

  it("hands a settle's fold on a slice per turn: a write between two slices is logged in the fold, as pages, and the store opens to the same rows", async () => {
    const { file, db } = await foldToSettle();
    const settling = db.settle();
    await nextTurn();
    // Logged as statements alone; the fold still open (4 MiB of its 6 handed on), it is logged
    // as pages, which end the fold first. A fold in one turn would have been committed already.
    db.run("INSERT INTO notes (label) VALUES ('during the fold')");
    db.run("INSERT INTO notes (label) VALUES ('after it')");
    await settling;
    expect(transactionKinds(file)).toEqual([...Array<string>(20).fill('S'), 'F', 'S']);
    (await reopenedAfterCrash(file, db)).reopened.close();
  });

  it('refuses a write made through a read method, which the log would miss', async () => {
    const { db } = await openWithTable();
    expect(() => db.all("INSERT INTO notes (label) VALUES ('unseen') RETURNING id")).toThrow(/A read changed the database/);
    expect(() => db.run("INSERT INTO notes (label) VALUES ('refused')")).not.toThrow();
    expect(() => db.transaction(() => undefined)).toThrow(/A read changed the database/);
    db.close();
  });

  it('is written only by SQL that gives the same rows when replayed: the store uses no clock, random or user function outside migrations', () => {
    const storeFolder = path.resolve(import.meta.dirname, '..');
    const sources = (folder: string): string[] =>
      fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(folder, entry.name);
        if (entry.isDirectory()) return sources(full);
        return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
      });
    // The migrations are logged as pages; the tap's probes write databases of their own.
    const replayed = sources(storeFolder).filter((file) => !['migrations.ts', 'file-write-tap.ts'].includes(path.basename(file)));
    expect(replayed.length).toBeGreaterThan(20);
    const nonDeterministic = /'now'|"now"|\b(random|randomblob|RANDOM|RANDOMBLOB)\(|\bCURRENT_(TIME|DATE|TIMESTAMP)\b|create_function|create_aggregate/;
    const found = replayed.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (nonDeterministic.test(line) && !/Math\.random/.test(line) ? [`${path.relative(storeFolder, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
