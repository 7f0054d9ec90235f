import type { BindParams, Database as SqlJsDatabase, SqlValue, Statement } from 'sql.js';
import { readDatabaseFile } from './database-file.js';
import { writeFileAtomically } from './data-directory.js';
import { migrations } from './migrations.js';
import { loadSqlJs } from './sql-js.js';

/** Raised when a database file is newer than this program or is not a database of ours. */
export class IncompatibleDatabaseError extends Error {}

/**
 * A sql.js database with cached prepared statements, transactions, and crash-safe persistence
 * to one file. sql.js holds the whole database in memory; `persist` writes it out atomically.
 */
export class Database {
  private readonly statements = new Map<string, Statement>();
  private transactionDepth = 0;
  /**
   * Raised by every write statement, commit and rollback, so that caches of derived data
   * (answers, totals, key lookups) know when to drop: a read cached at one version is valid
   * for as long as the version stays the same.
   */
  private writeVersion = 0;
  /** Whether anything was written since the file was read or last persisted. */
  private unsaved = false;

  private constructor(
    private readonly db: SqlJsDatabase,
    private readonly file: string | undefined,
  ) {}

  /**
   * Opens the database file (or a new one when it does not exist) and migrates it to the
   * current schema. Without a file the database lives in memory only; `readOnly` loads the
   * file but never writes it; `reserveBytes` gives a bulk load room (see readDatabaseFile).
   */
  static async open(file?: string, { readOnly = false, reserveBytes = 0 } = {}): Promise<Database> {
    const [SQL, bytes] = await Promise.all([loadSqlJs(), file ? readDatabaseFile(file, reserveBytes) : undefined]);
    const database = new Database(new SQL.Database(bytes), readOnly ? undefined : file);
    // The journal only serves rollback: crash safety comes from persist()'s atomic rename.
    database.db.exec('PRAGMA foreign_keys = ON; PRAGMA journal_mode = MEMORY; PRAGMA cache_size = -32768');
    database.migrate();
    return database;
  }

  /** The number of the data's current state; see `writeVersion`. */
  get version(): number {
    return this.writeVersion;
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
      for (let version = current + 1; version <= migrations.length; version++) {
        this.db.exec(migrations[version - 1]!);
        this.db.exec(`PRAGMA user_version = ${version}`);
      }
    });
    this.persist();
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
    }
  }

  /** Runs a statement that returns no rows; returns the number of rows it changed. */
  run(sql: string, params: BindParams = []): number {
    this.unsaved = true;
    const statement = this.statement(sql);
    try {
      statement.run(params);
    } finally {
      statement.reset();
      this.writeVersion++;
    }
    return this.db.getRowsModified();
  }

  /** Runs several statements of a script, without parameters. */
  exec(sql: string): void {
    this.unsaved = true;
    try {
      this.db.exec(sql);
    } finally {
      this.writeVersion++;
    }
  }

  /** Runs `work` in a transaction (a savepoint when nested): all of it is applied, or none. */
  transaction<T>(work: () => T): T {
    const savepoint = `sp${this.transactionDepth}`;
    this.db.exec(this.transactionDepth === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
    this.transactionDepth++;
    try {
      const result = work();
      this.transactionDepth--;
      this.db.exec(this.transactionDepth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
      this.writeVersion++;
      this.unsaved = true;
      return result;
    } catch (error) {
      this.transactionDepth--;
      this.db.exec(this.transactionDepth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
      this.writeVersion++;
      throw error;
    }
  }

  /**
   * Runs `work` as {@link transaction} does, leaving `version` as it was: for a write that
   * changes nothing a derived value is read from (see `keepDerived` in store.ts).
   */
  transactionKeepingVersion<T>(work: () => T): T {
    const version = this.writeVersion;
    try {
      return this.transaction(work);
    } finally {
      this.writeVersion = version;
    }
  }

  /**
   * Writes the database to its file atomically when something was written since it was read or
   * last persisted: a process that only read never rewrites a file of hundreds of MiB. A no-op
   * for an in-memory database.
   */
  persist(): void {
    if (!this.file || !this.unsaved) return;
    writeFileAtomically(this.file, this.db.export());
    this.unsaved = false;
  }

  /** Answers whether the database responds, for the health check. */
  isHealthy(): boolean {
    try {
      return this.value('SELECT 1') === 1;
    } catch {
      return false;
    }
  }

  close(): void {
    for (const statement of this.statements.values()) statement.free();
    this.statements.clear();
    this.db.close();
  }
}
