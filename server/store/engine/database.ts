import type { BindParams, Database as SqlJsDatabase, SqlValue, Statement } from 'sql.js';
import { DurableFile, replayBudgetMicroseconds } from './durable-file.js';
import { encodeStatement, type RecordedStatement } from './statement-codec.js';
import type { FileWriteSink, FileWriteTap } from './file-write-tap.js';
import { migrations } from './migrations.js';
import { loadSqlJs } from './sql-js.js';
import type { SnapshotPages } from './snapshot-pages.js';
import { type RecordedTransaction, readStoreImage } from './store-image.js';

/** A number that changes whenever what it stands for does (the database: {@link Database.version}). */
export interface VersionSource {
  readonly version: number;
}

/** SQLite's `auto_vacuum` mode INCREMENTAL. */
const incrementalVacuum = 2;
/** The share of free pages past which the first open of a store from before `auto_vacuum` rewrites it (issue 38: at most 10 % free). */
const vacuumOlderStoreFromShare = 0.1;

/** Raised when a database file is newer than this program or is not a database of ours. */
export class IncompatibleDatabaseError extends Error {}

/** When a statement started: the clock, and the time spent applying deltas by then. */
interface Started {
  at: number;
  deltaMicroseconds: number;
}

/** A statement that changes the schema or rewrites the file. */
const schemaOrFileStatement = /^\s*(CREATE|DROP|ALTER|VACUUM|PRAGMA|REINDEX|ANALYZE|ATTACH|DETACH)\b/i;
/** One that does so in the temporary database only, which is not in the file. */
const temporaryStatement = /^\s*(CREATE\s+(TEMP|TEMPORARY)\b|CREATE\s+(UNIQUE\s+)?INDEX\s+(IF\s+NOT\s+EXISTS\s+)?temp\.|DROP\s+(TABLE|INDEX)\s+(IF\s+EXISTS\s+)?temp\.)/i;

/**
 * Whether `sql` changes the schema or rewrites the file: a transaction with such a statement is
 * logged as pages (a migration always is), whatever its size. Temporary tables and indexes are
 * not in the file, and are replayed as statements. A script is split at its semicolons, which
 * may cut a string literal: that errs towards pages.
 */
const changesSchemaOrFile = (sql: string) => sql.split(';').some((statement) => schemaOrFileStatement.test(statement) && !temporaryStatement.test(statement));

/**
 * A sql.js database with cached prepared statements and transactions, made durable by its
 * {@link DurableFile}: sql.js holds the whole database in memory, and each write SQLite makes
 * to that in-memory file is appended to the change log, committed wherever no transaction is
 * open (after a transaction, or a statement outside one).
 */
export class Database {
  private readonly statements = new Map<string, Statement>();
  private transactionDepth = 0;
  /**
   * Raised by every write statement, commit and rollback: a read made at one version is of the
   * data as it still is while the version stays the same. The store tells which kinds of data
   * a write changed (derived/change-kinds.ts).
   */
  private writeVersion = 0;
  /** Set when the change log could not be written: see commitOutsideTransaction. */
  private unwritable: Error | undefined;
  /** The in-memory file's size: what SQLite wrote, or the room {@link reserve} made. */
  private fileBytes: number;
  /**
   * The statements of the open top-level transaction (or of the statement outside one), each
   * encoded, for the log to keep instead of their pages; undefined once one of them must be
   * logged as pages. `savepoints` marks where each open savepoint's begin, to cut what a
   * rollback to it undoes.
   */
  private recorded: Buffer[] | undefined = [];
  private readonly savepoints: number[] = [];
  /** What the recorded statements took to run. */
  private recordedMicroseconds = 0;
  /** A write method is running: a row changed meanwhile is recorded (the guard, {@link watchRowChanges}). */
  private writing = false;
  /** A row changed while no write method ran: a write made through a read method, which the log would miss. */
  private unrecordedWrite: string | undefined;

  private constructor(
    private readonly db: SqlJsDatabase,
    private readonly tap: FileWriteTap,
    initialBytes: number,
    private readonly durable: DurableFile | undefined,
    private readonly pages: SnapshotPages | undefined,
  ) {
    this.fileBytes = initialBytes;
    const sizes: FileWriteSink = {
      write: (offset, bytes) => {
        this.fileBytes = Math.max(this.fileBytes, offset + bytes.length);
        durable?.write(offset, bytes);
      },
      // The in-memory file keeps its array when SQLite truncates it (FileWriteSink.keepsRoom): its size stays room.
      truncate: (size) => durable?.truncate(size),
      keepsRoom: true,
    };
    tap.watch(this.filename, sizes, pages);
  }

  /**
   * Opens the database file (or a new one when it does not exist), replaying its change logs,
   * and migrates it to the current schema. Without a file the database lives in memory only;
   * `readOnly` loads the file but never writes it or its logs; `reserveBytes` gives a bulk load
   * room (see {@link reserve}); `pagesOnDemand` reads the snapshot's pages as SQLite asks for
   * them instead of all at once (snapshot-pages.ts), for a writer that holds the data
   * directory's lock and reads little of a large file (a command line's key or sync);
   * `holdWithoutBound` keeps held writes' pages held however many, to be logged once each
   * (DurableFile), for a process that answers no request while it writes; `temporaryInMemory`
   * keeps SQLite's temporary files in its heap (StoreOptions).
   */
  static async open(
    file?: string,
    {
      readOnly = false,
      reserveBytes = 0,
      pagesOnDemand = false,
      holdWithoutBound = false,
      temporaryInMemory = false,
      onCheckpointError = (error: unknown) => console.error('A checkpoint failed:', error),
    } = {},
  ): Promise<Database> {
    const onDemand = pagesOnDemand && !readOnly && (await loadSqlJs()).tap.readsOnDemand;
    const [{ SQL, tap }, image] = await Promise.all([loadSqlJs(), file ? readStoreImage(file, { reserveBytes, holdsLock: !readOnly, onDemand }) : undefined]);
    try {
      const db = new SQL.Database(image?.bytes);
      const { filename } = db as unknown as { filename: string };
      if (image?.warning) console.error(image.warning);
      const durable = file && !readOnly ? new DurableFile(file, image!, (offset, into) => tap.readAt(filename, offset, into), onCheckpointError, holdWithoutBound) : undefined;
      const database = new Database(db, tap, image?.bytes?.length ?? 0, durable, image?.pages);
      // The journal only serves rollback: durability comes from the change log. This connection is
      // the only one to its in-memory file, so it keeps its lock: otherwise every statement outside
      // a transaction begins a read transaction by asking the file system whether a hot journal
      // exists and by reading the change counter, which made a lookup by id several times slower.
      database.db.exec('PRAGMA foreign_keys = ON; PRAGMA journal_mode = MEMORY; PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -32768');
      if (temporaryInMemory) database.db.exec('PRAGMA temp_store = MEMORY');
      database.watchRowChanges();
      database.replay(image?.statements ?? []);
      if (!readOnly) database.giveFreePagesBackOnAsk();
      database.migrate();
      return database;
    } catch (error) {
      image?.pages?.close();
      throw error;
    }
  }

  /**
   * The guard of the statement log: SQLite tells of every row a statement changes (of a rowid
   * table); one changed while no write method runs was changed by a read method (a write
   * statement given to {@link all}, say), whose statement the log does not keep. That read
   * then throws, and the database refuses every further write.
   */
  private watchRowChanges(): void {
    this.db.updateHook((operation, _database, table) => {
      if (!this.writing) this.unrecordedWrite ??= `${operation} of a row of ${table}`;
    });
  }

  private refuseUnrecordedWrite(sql: string): void {
    if (this.unrecordedWrite === undefined) return;
    this.unwritable ??= new Error(`A read changed the database (${this.unrecordedWrite}, by ${sql.slice(0, 200)}): writes go through run, exec or transaction, or the log misses them. Restart to reopen what is on disk.`);
    throw this.unwritable;
  }

  /**
   * Replays the transactions of statements the logs recorded after their last pages
   * (store-image.ts), in order, one transaction each, before the migrations: they were made on
   * this schema. Their pages are the log's already (DurableFile.replayed).
   */
  private replay(transactions: readonly RecordedTransaction[]): void {
    this.writing = true;
    try {
      for (const { statements } of transactions) {
        const startedAt = this.started();
        this.db.exec('BEGIN');
        try {
          for (const statement of statements) this.runRecorded(statement);
          this.db.exec('COMMIT');
        } catch (error) {
          this.db.exec('ROLLBACK');
          throw new Error(`A logged transaction of ${statements.length} statements does not replay: ${(error as Error).message}`, { cause: error });
        }
        // What the replay took, not what the statements took when recorded (under another load, with
        // other pages already read): it is what the next open will spend again.
        this.durable?.replayed(this.elapsedMicroseconds(startedAt));
      }
    } finally {
      this.writing = false;
    }
  }

  private runRecorded(statement: RecordedStatement): void {
    if (statement.kind === 'exec') this.db.exec(statement.sql);
    else {
      const prepared = this.statement(statement.sql);
      try {
        prepared.run(statement.params);
      } finally {
        prepared.reset();
      }
    }
  }

  /** Keeps a write for the log (unless the transaction is logged as pages already), with the time it took. */
  private record(statement: RecordedStatement, startedAt: Started): void {
    this.recordedMicroseconds += this.elapsedMicroseconds(startedAt);
    if (!this.recorded || !this.durable) return;
    // A transaction that took longer than the whole replay budget goes as pages whatever came before it
    // (DurableFile.logsAsStatements): its statements are no longer encoded and held for nothing.
    if (changesSchemaOrFile(statement.sql) || this.recordedMicroseconds > replayBudgetMicroseconds) this.recorded = undefined;
    else this.recorded.push(encodeStatement(statement));
  }

  /** When a statement or a replayed transaction started, for {@link elapsedMicroseconds}. */
  private started(): Started {
    return { at: performance.now(), deltaMicroseconds: this.pages?.deltaMicroseconds ?? 0 };
  }

  /**
   * What a statement or a replayed transaction took since `started`, less the deltas applied
   * meanwhile as their pages were first read (SnapshotPages.deferDelta): the replay budget
   * counts those apart, at what `serve`'s open takes to apply them all.
   */
  private elapsedMicroseconds(started: Started): number {
    return (performance.now() - started.at) * 1000 - ((this.pages?.deltaMicroseconds ?? 0) - started.deltaMicroseconds);
  }

  /** sql.js's name of the in-memory file. */
  private get filename(): string {
    return (this.db as unknown as { filename: string }).filename;
  }

  /** The number of the data's current state; see `writeVersion`. */
  get version(): number {
    return this.writeVersion;
  }

  /**
   * Puts the database in `auto_vacuum = INCREMENTAL`, so that free pages can be given back in
   * slices (`PRAGMA incremental_vacuum`, store/inventory/page-compaction.ts). A new database
   * takes it before its first table. One written before takes it by one `VACUUM`, which rewrites
   * the file and holds a second copy of it in memory, so only at an open that finds dead weight
   * to give back (free pages past {@link vacuumOlderStoreFromShare} of the file, as a full sync of
   * the version before left): an older store without it opens at once and carries on as it was.
   */
  private giveFreePagesBackOnAsk(): void {
    if (Number(this.value('PRAGMA auto_vacuum')) === incrementalVacuum) return;
    const pages = Number(this.value('PRAGMA page_count'));
    if (pages === 0) {
      this.db.exec(`PRAGMA auto_vacuum = ${incrementalVacuum}`);
      return;
    }
    if (Number(this.value('PRAGMA freelist_count')) <= pages * vacuumOlderStoreFromShare) return;
    this.db.exec(`PRAGMA auto_vacuum = ${incrementalVacuum}`);
    this.exec('VACUUM');
    this.durable?.checkpointNow();
  }

  private migrate(): void {
    const current = Number(this.value('PRAGMA user_version'));
    if (current > migrations.length) {
      throw new IncompatibleDatabaseError(
        `The database was written by a newer version of Remediation Console (schema ${current}, this one knows ${migrations.length}).`,
      );
    }
    if (current === migrations.length) return;
    this.transaction(() => {
      this.recorded = undefined;
      for (let version = current + 1; version <= migrations.length; version++) {
        this.writing = true;
        try {
          this.db.exec(migrations[version - 1]!);
          this.db.exec(`PRAGMA user_version = ${version}`);
        } finally {
          this.writing = false;
        }
      }
    });
    // A migration may rewrite whole tables: the snapshot takes it at once, not a long log.
    this.durable?.checkpointNow();
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** All rows as objects keyed by column name. */
  all<T = Record<string, SqlValue>>(sql: string, params: BindParams = []): T[] {
    const statement = this.statement(sql);
    try {
      statement.bind(params);
      const rows: T[] = [];
      while (statement.step()) rows.push(statement.getAsObject() as T);
      return rows;
    } finally {
      statement.reset();
      this.refuseUnrecordedWrite(sql);
    }
  }

  /**
   * All rows as arrays of their values, in the order the query names its columns: for a pass
   * over many rows, which {@link all} would slow with an object and the columns' names a row
   * (400,000 rows of three columns: 1.1 s as objects, 0.24 s as arrays).
   */
  rows(sql: string, params: BindParams = []): SqlValue[][] {
    const statement = this.statement(sql);
    try {
      statement.bind(params);
      const rows: SqlValue[][] = [];
      while (statement.step()) rows.push(statement.get());
      return rows;
    } finally {
      statement.reset();
      this.refuseUnrecordedWrite(sql);
    }
  }

  /** The first row as an object, or undefined. */
  get<T = Record<string, SqlValue>>(sql: string, params: BindParams = []): T | undefined {
    const statement = this.statement(sql);
    try {
      statement.bind(params);
      return statement.step() ? (statement.getAsObject() as T) : undefined;
    } finally {
      statement.reset();
      this.refuseUnrecordedWrite(sql);
    }
  }

  /** The first column of every row. */
  column(sql: string, params: BindParams = []): SqlValue[] {
    const statement = this.statement(sql);
    try {
      statement.bind(params);
      const values: SqlValue[] = [];
      while (statement.step()) values.push(statement.get()[0] ?? null);
      return values;
    } finally {
      statement.reset();
      this.refuseUnrecordedWrite(sql);
    }
  }

  /** The first column of the first row, or undefined. */
  value(sql: string, params: BindParams = []): SqlValue | undefined {
    const statement = this.statement(sql);
    try {
      statement.bind(params);
      return statement.step() ? statement.get()[0] : undefined;
    } finally {
      statement.reset();
      this.refuseUnrecordedWrite(sql);
    }
  }

  /** Runs a statement that returns no rows; returns the number of rows it changed. */
  run(sql: string, params: BindParams = []): number {
    const statement = this.statement(sql);
    const startedAt = this.started();
    this.writing = true;
    try {
      statement.run(params);
      this.record({ kind: 'run', sql, params }, startedAt);
    } finally {
      this.writing = false;
      statement.reset();
      this.writeVersion++;
      this.commitOutsideTransaction();
    }
    return this.db.getRowsModified();
  }

  /** Runs several statements of a script, without parameters. */
  exec(sql: string): void {
    const startedAt = this.started();
    this.writing = true;
    try {
      this.db.exec(sql);
      this.record({ kind: 'exec', sql }, startedAt);
    } catch (error) {
      // The statements of the script before the one that failed stay applied: only pages say what they did.
      this.recorded = undefined;
      throw error;
    } finally {
      this.writing = false;
      this.writeVersion++;
      this.commitOutsideTransaction();
    }
  }

  /**
   * Runs `work` in a transaction (a savepoint when nested): all of it is applied, or none. A
   * write that is not `durable` may be lost by a crash, with the ones after it (see
   * DurableFile.commit). A top-level one `asPages` is logged as its pages whatever its
   * statements' bytes: a piece of a bulk job that rewrites the same pages piece after piece,
   * whose statements would each be fewer bytes than its pages but more than the job's pages
   * together (held pages are logged once each).
   */
  transaction<T>(work: () => T, { durable = true, asPages = false }: { durable?: boolean; asPages?: boolean } = {}): T {
    if (this.unwritable) throw this.unwritable;
    // A transaction that goes as pages (asked, or sure to: DurableFile.mayLogStatements) encodes none of its statements.
    if (this.transactionDepth === 0 && (asPages || (this.durable && !this.durable.mayLogStatements()))) this.recorded = undefined;
    return this.runTransaction(work, durable);
  }

  private runTransaction<T>(work: () => T, durable: boolean): T {
    const savepoint = `sp${this.transactionDepth}`;
    this.db.exec(this.transactionDepth === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
    this.transactionDepth++;
    // Where this savepoint's statements begin: a rollback to it cuts them off.
    this.savepoints.push(this.recorded?.length ?? 0);
    try {
      const result = work();
      this.transactionDepth--;
      this.savepoints.pop();
      this.db.exec(this.transactionDepth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
      this.writeVersion++;
      this.commitOutsideTransaction(durable);
      return result;
    } catch (error) {
      this.transactionDepth--;
      const mark = this.savepoints.pop()!;
      this.db.exec(this.transactionDepth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
      if (this.recorded) this.recorded.length = mark;
      this.writeVersion++;
      // Pages a large transaction spilled before it rolled back were written back: the log keeps both, which nets to nothing.
      this.commitOutsideTransaction(durable);
      throw error;
    }
  }

  /**
   * Commits the change log where the file is consistent: when no transaction is open. When the
   * log cannot be written, memory holds a write the disk does not: the database then refuses
   * every further write (a restart reopens the state on disk).
   */
  private commitOutsideTransaction(durable = true): void {
    if (this.transactionDepth !== 0) return;
    const writes = { statements: this.recorded, microseconds: this.recordedMicroseconds };
    this.recorded = [];
    this.recordedMicroseconds = 0;
    if (!this.durable) return;
    try {
      this.durable.commit({ durable, writes });
    } catch (error) {
      this.unwritable = new Error(`The store could not write its change log: ${(error as Error).message}. Restart to reopen what is on disk.`, { cause: error });
      throw this.unwritable;
    }
  }

  /**
   * Makes room in the in-memory file for `bytes` more than the database holds now, at once,
   * before a bulk load: otherwise the file grows by an eighth at a time, each step a copy of
   * the whole file (twice the database in memory for a moment).
   */
  reserve(bytes: number): void {
    const used = Number(this.value('PRAGMA page_count')) * Number(this.value('PRAGMA page_size'));
    if (used + bytes <= this.fileBytes) return;
    this.tap.growTo(this.filename, used + bytes);
    this.fileBytes = used + bytes;
  }

  /** Logs the pages of writes that were not durable, a slice per turn of the event loop (DurableFile.settle). */
  settle(): Promise<void> {
    return this.durable?.settle() ?? Promise.resolve();
  }

  /** Folds the change logs into the snapshot between requests; resolves when done. */
  checkpoint(): Promise<void> {
    return this.durable?.checkpoint() ?? Promise.resolve();
  }

  /** Answers whether the database responds, for the health check. */
  isHealthy(): boolean {
    try {
      return this.value('SELECT 1') === 1;
    } catch {
      return false;
    }
  }

  /** Makes held writes durable (checkpointing only when one is due, DurableFile.close), closes the change log and the database. */
  close(): void {
    try {
      this.durable?.close();
    } finally {
      for (const statement of this.statements.values()) statement.free();
      this.statements.clear();
      this.tap.unwatch(this.filename);
      this.db.close();
      this.pages?.close();
    }
  }
}
