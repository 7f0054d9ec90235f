import { cliCommandText } from '../../contracts/cli-command.js';
import fs from 'node:fs';
import path from 'node:path';
import { AgentSettingsRecords } from './records/agent-settings-records.js';
import { ReportRecords } from './records/report-records.js';
import { ApiKeyRecords } from './records/api-key-records.js';
import { SavedViewRecords } from './records/saved-view-records.js';
import { ConsoleItems } from './console/console-items.js';
import { ConsoleQueries } from './console/console-queries.js';
import { EndpointContext } from './context/endpoint-context.js';
import { DashboardAggregates } from './coverage/dashboard-aggregates.js';
import { FindingTimelines } from './basics/finding-timeline.js';
import { FixByFigures } from './ssvc/fix-by-figures.js';
import { DeadlineFigures } from './remediation/deadline-figures.js';
import { Exceptions } from './remediation/exceptions.js';
import { ExposureFiguresCache } from './exposure/exposure-figures.js';
import { dataDirectoryFiles } from './engine/data-directory.js';
import { type DataDirectoryLock, lockDataDirectory } from './engine/data-directory-lock.js';
import { type ChangeKind, ChangeVersions, type RecordWrite, type SettledRecordWrite } from './derived/change-kinds.js';
import type { Inventory } from '../../contracts/inventory.js';
import { Database } from './engine/database.js';
import { Inventories } from './inventory/inventories.js';
import { InventoryReads } from './inventory/inventory-reads.js';
import { InventoryWrites } from './inventory/inventory-writes.js';
import { ListTotals } from './inventory/list-totals.js';
import { OrganizationRecords } from './records/organization-records.js';
import { ReplicaComparison } from './records/replica-comparison.js';
import { ScopeCoverage } from './coverage/scope-coverage.js';
import { SoftwareQueries } from './exposure/software-queries.js';
import { SyncChangeRecords } from './records/sync-change-records.js';
import { SyncRecords } from './records/sync-run-records.js';
import { SyncSteps } from './sync-steps.js';
import { ThreatIntel } from './intel/threat-intel.js';
import { ExploitFigures } from './intel/exploit-figures.js';
import { FindingIntel } from './intel/finding-intel.js';
import { WorkPackages } from './remediation/work-packages.js';

/** How a store is opened. */
export interface StoreOptions {
  /** The data directory; without one the store lives in memory (tests). */
  dataDir?: string;
  /** What the process is, recorded in the lock so that a second process can name it. */
  command?: string;
  /** Open without taking the lock, for commands that only read; writes are then refused. */
  readOnly?: boolean;
  /** Room for a bulk load about to add this many bytes (see {@link Store.reserve}). */
  reserveBytes?: number;
  /**
   * Read the snapshot's pages as they are used rather than all at open (Database.open): for a
   * short command that holds the lock; ignored when read-only.
   */
  pagesOnDemand?: boolean;
  /**
   * Keep the pages of writes that need not be durable held, however many, until a durable write
   * or a settle logs each once (DurableFile): for a command line, which answers no request while
   * it writes; a bulk write (a full sync's staging or replacement) then logs each page it changed
   * once, not again each time it comes back to it.
   */
  holdWithoutBound?: boolean;
  /**
   * Keep SQLite's temporary files (the sorter's runs while an index is built, temporary tables)
   * in its heap (`PRAGMA temp_store = MEMORY`), not in Emscripten's in-memory file system, which
   * copies a file to a new array at each eighth it grows: for a command line, whose peak matters
   * more than a WebAssembly heap that never gives memory back.
   */
  temporaryInMemory?: boolean;
  /**
   * The time in milliseconds since the epoch, as deadlines, ages and exceptions' expiry read
   * it; the wall clock unless a test fixes it.
   */
  clock?: () => number;
}

/** How {@link Store.write} treats a write. */
export interface WriteOptions {
  /**
   * False for a write a crash may lose, with the writes after it but never one before: rows of
   * an inventory no organization points at yet (a full sync's staged pages, which the sync
   * stages again) or any more (a collection's deletes). Its pages are held in memory and logged
   * with the next write, once each and without an fsync of their own. Default true.
   */
  durable?: boolean;
  /**
   * True for a piece of a bulk job that changes most rows of a table: logged as its pages
   * (held ones once each) rather than its statements, which, piece after piece, would be more
   * bytes than the pages they all rewrite (Database.transaction). Default false.
   */
  asPages?: boolean;
  /**
   * What the write changes (derived/change-kinds.ts): the values derived from these kinds are
   * dropped when it ends, and the others stay, so that creating a key does not make the next
   * dashboard read a million findings again, nor a page a sync stages restart a computation in
   * chunks (coverage, the dashboard, a CSV export).
   */
  changes: readonly ChangeKind[];
}

/**
 * The sql.js store: every SQL statement of the product lives in this folder. Writes go through
 * {@link Store.write}, which applies them in one transaction and appends what it changed to the
 * change log before it returns, so that the files on disk always hold the state before or after
 * a write, and a write costs what it changes (docs/decisions/the-engine-sqljs-on-disk/a-log-of-pages-not-of-statements.md, "A log of pages, not of
 * statements").
 */
export class Store {
  readonly organizations: OrganizationRecords;
  readonly apiKeys: ApiKeyRecords;
  readonly inventory: InventoryReads;
  /** The console's reads: lists with sort and search. */
  readonly console: ConsoleQueries;
  /** Items as the console answers them, with its own fields. */
  readonly consoleItems: ConsoleItems;
  /** The software view and the remediation plan. */
  readonly software: SoftwareQueries;
  /** The dashboard's aggregates, counted over the coverage columns. */
  readonly dashboards: DashboardAggregates;
  /** Remediation deadlines per organization, and what is overdue and how fast findings are remediated. */
  readonly deadlines: DeadlineFigures;
  /** Fix-by dates: each finding's BOD 26-04 outcome, Coordinator decision, date and path, and the organization's settings. */
  readonly fixBy: FixByFigures;
  /** Scope coverage and coverage gaps, evaluated in memory per database version. */
  readonly coverage: ScopeCoverage;
  /**
   * The organizations' exceptions (accepted risks): their records, each change a write of the
   * `exceptions` kind, and the findings those in force now leave
   * out of the gaps and the risk figures (`exceptions.excepted`, an ExceptedFindingsSource).
   */
  readonly exceptions: Exceptions;
  /**
   * The organizations' agent settings (what their agent configuration files tell agents): local
   * records, each save a write of the `agent-settings` kind.
   */
  readonly agentSettings: AgentSettingsRecords;
  /** Saved views: a console view's filters under a name, per organization. */
  readonly savedViews: SavedViewRecords;
  /**
   * The organizations' endpoint context: tags and criticality set per endpoint id, tag rules,
   * and what they give every endpoint (`endpointContext.effective`), kept across syncs. Its
   * writes are store writes of the `endpoint-context` kind: a value read from tags or
   * criticality (figures, filters, coverage) depends on that kind.
   */
  readonly endpointContext: EndpointContext;
  /** What the store remembers of replicas' syncs; written by {@link Store.syncSteps}. */
  readonly sync: SyncRecords;
  /** What each sync of a replica changed; recorded by the sync's last step ({@link Store.syncSteps}). */
  readonly syncChanges: SyncChangeRecords;
  /** The writes of a replica's syncs, by step, each with its change kinds and durability (sync-steps.ts). */
  readonly syncSteps: SyncSteps;
  /** A reconcile's comparison of a replica with its remote, and its deletes (inside the reconcile's {@link SyncSteps.apply}). */
  readonly replicaComparison: ReplicaComparison;
  /**
   * Exploit intelligence imported from files (EPSS, KEV catalogs): local, kept across syncs;
   * its writes are store writes of the `threat-intel` kind.
   */
  readonly intel: ThreatIntel;
  /**
   * The plan's steps as work packages for IT, and what the console keeps of each (owner, note,
   * ticket status, the check after a sync): its records' writes are of the `work-packages` kind.
   */
  readonly workPackages: WorkPackages;
  /** The reports made, frozen (issue 40): their writes are of the `reports` kind, which nothing derived reads. */
  readonly reports: ReportRecords;
  /** Inventory ids, staging and the background collection of inventories nobody points at. */
  readonly inventories: Inventories;
  /** The version of each kind of change a write names, and the caches of derived values that follow them. */
  readonly changes: ChangeVersions;
  private readonly inventoryWrites: InventoryWrites;
  private closed = false;

  private constructor(
    private readonly db: Database,
    private readonly lock: DataDirectoryLock | undefined,
    readonly readOnly: boolean,
    private readonly clock: () => number,
  ) {
    const versions = new ChangeVersions(db);
    this.changes = versions;
    // Each record names the kinds its own writes change (RecordWrite).
    const recordWrite: RecordWrite = (kinds, work) => this.write(() => work(), { changes: kinds });
    // Logged with the next durable write: a crash loses it with those after it, never without them.
    const heldWrite: RecordWrite = (kinds, work) => this.write(() => work(), { changes: kinds, durable: false });
    this.inventories = new Inventories(
      db,
      (work) => this.write(work, { changes: ['staged-inventory'], durable: false }),
      () => !this.closed,
    );
    this.organizations = new OrganizationRecords(db, this.inventories, recordWrite);
    this.apiKeys = new ApiKeyRecords(db, recordWrite);
    const totals = new ListTotals(db, versions);
    this.inventory = new InventoryReads(db, versions, totals);
    const excepted = (orgRowId: number) => this.exceptions.excepted(orgRowId);
    // Tags and criticality of endpoints, which coverage, the figures and the filters read.
    const context = (orgRowId: number) => this.endpointContext.effective(orgRowId);
    this.coverage = new ScopeCoverage(db, versions, excepted, context);
    this.exceptions = new Exceptions(db, versions, this.coverage, clock, recordWrite);
    const exposure = new ExposureFiguresCache(db, versions, this.coverage, excepted, context);
    const timelines = new FindingTimelines(db, versions, this.coverage);
    // The imported intelligence as findings, endpoints and plan steps read it.
    const findingIntel = new FindingIntel(db, versions);
    this.fixBy = new FixByFigures(db, versions, findingIntel, timelines, context, () => this.now(), recordWrite, heldWrite);
    this.deadlines = new DeadlineFigures(db, versions, this.coverage, excepted, () => this.now(), context, recordWrite, timelines, this.fixBy);
    const exploit = new ExploitFigures(db, versions, findingIntel, (orgRowId) => exposure.columns(orgRowId), excepted, context);
    this.console = new ConsoleQueries(db, versions, totals, exposure, this.deadlines, this.exceptions, context, findingIntel, exploit, this.fixBy);
    this.consoleItems = new ConsoleItems(db, versions, exposure, this.deadlines, this.exceptions, context, findingIntel, exploit, this.fixBy);
    this.software = new SoftwareQueries(db, versions, exposure, exploit, this.fixBy);
    this.workPackages = new WorkPackages(db, versions, exposure, this.software, this.deadlines, excepted, context, () => this.now(), recordWrite);
    this.dashboards = new DashboardAggregates(db, versions, this.coverage, context);
    this.agentSettings = new AgentSettingsRecords(db, clock, recordWrite);
    this.savedViews = new SavedViewRecords(db, clock, recordWrite);
    const settledWrite: SettledRecordWrite = (kinds, work) => this.writeSettled(() => work(), { changes: kinds });
    this.reports = new ReportRecords(db, recordWrite, heldWrite, settledWrite);
    this.endpointContext = new EndpointContext(db, versions, (work) => this.write(() => work(), { changes: ['endpoint-context'] }), clock);
    this.sync = new SyncRecords(db);
    this.syncChanges = new SyncChangeRecords(db);
    this.syncSteps = new SyncSteps({
      write: (work, options) => this.write(work, options),
      writeSettled: (work, options) => this.writeSettled(work, options),
      settle: () => this.settle(),
      organizations: this.organizations,
      sync: this.sync,
      syncChanges: this.syncChanges,
    });
    this.replicaComparison = new ReplicaComparison(db);
    this.inventoryWrites = new InventoryWrites(db);
    this.intel = new ThreatIntel(
      db,
      {
        write: recordWrite,
        held: heldWrite,
        heldAsPages: (kinds, work) => this.write(() => work(), { changes: kinds, durable: false, asPages: true }),
        settled: settledWrite,
      },
      clock,
    );
  }

  /** Opens (creating when needed) the store of a data directory, or an in-memory one. */
  static async open(options: StoreOptions = {}): Promise<Store> {
    const { dataDir, readOnly = false } = options;
    const clock = options.clock ?? Date.now;
    if (!dataDir) return new Store(await Database.open(), undefined, false, clock);
    const lock = readOnly ? undefined : await lockDataDirectory(dataDir, options.command ?? process.argv.slice(1).join(' '));
    try {
      const file = dataDirectoryFiles(dataDir).database;
      // Only the lock holder writes: a temporary file left beside the database is from an earlier version's writer killed mid-persist.
      if (lock) removeStaleTemporaryFiles(file);
      if (readOnly && !fs.existsSync(file)) throw new Error(`No store in ${dataDir} yet: run ${cliCommandText('serve')} or ${cliCommandText('orgs create --slug SLUG --name NAME')} first.`);
      return new Store(await Database.open(file, { readOnly, reserveBytes: options.reserveBytes, pagesOnDemand: options.pagesOnDemand, holdWithoutBound: options.holdWithoutBound, temporaryInMemory: options.temporaryInMemory }), lock, readOnly, clock);
    } catch (error) {
      lock?.release();
      throw error;
    }
  }

  /** The time now (ms since the epoch) by the store's clock (see {@link StoreOptions.clock}). */
  now(): number {
    return this.clock();
  }

  /** A number that changes whenever the store's data does. */
  get version(): number {
    return this.db.version;
  }

  /**
   * Applies `work` as one transaction and, unless `options.durable` is false, makes it durable
   * (its pages appended to the change log and fsynced) before returning. `work` receives the writer of inventory rows;
   * organization and key records are written through their own objects.
   */
  write<T>(work: (inventory: InventoryWrites) => T, options: WriteOptions): T {
    if (this.readOnly) throw new Error('This store was opened read-only');
    return this.changes.during(options.changes, () => this.db.transaction(() => work(this.inventoryWrites), { durable: options.durable, asPages: options.asPages }));
  }

  /** Replaces an inventory's rows with `inventory` (a seed of a local organization), in one write of the `inventory` kind. */
  replaceInventory(inventoryId: number, inventory: Inventory): void {
    this.write((writes) => writes.replace(inventoryId, inventory), { changes: ['inventory'] });
  }

  /**
   * The bytes of the database's pages, and of those among them that are free (left by deletes,
   * filled again before the file grows): what a bulk load measures its growth by.
   */
  pageBytes(): { bytes: number; freeBytes: number } {
    const pageSize = Number(this.db.value('PRAGMA page_size'));
    return { bytes: Number(this.db.value('PRAGMA page_count')) * pageSize, freeBytes: Number(this.db.value('PRAGMA freelist_count')) * pageSize };
  }

  /**
   * Makes room in memory for a bulk load of about `bytes` more, before it starts: the in-memory
   * file then grows once instead of by an eighth at a time, each step copying it whole.
   */
  reserve(bytes: number): void {
    this.db.reserve(bytes);
  }

  /**
   * Logs the pages that writes with `durable: false` left held, a slice per turn of the event
   * loop, and fsyncs them in the thread pool: call it before the durable write that ends a bulk
   * job (a staged sync's swap), which would otherwise log them all at once, on the thread that
   * answers requests.
   */
  settle(): Promise<void> {
    return this.db.settle();
  }

  /**
   * Applies `work` as one transaction, as {@link write} does, and resolves once it is durable,
   * its pages logged and fsynced in the thread pool rather than on the thread that answers
   * requests: for the write that ends a sync. An fsync can take a while after heavy I/O (the
   * first one after a checkpoint folded a full sync's logs held the thread past the 100 ms
   * rule). Readers see the write at once; a crash before it resolves may lose it, with the
   * writes after it, never one before, as for a write that is not durable.
   */
  async writeSettled<T>(work: (inventory: InventoryWrites) => T, options: Omit<WriteOptions, 'durable'>): Promise<T> {
    const result = this.write(work, { ...options, durable: false });
    await this.settle();
    return result;
  }

  /** Folds the change logs into the database file between requests (it also happens by itself). */
  checkpoint(): Promise<void> {
    return this.db.checkpoint();
  }

  /** Answers whether the store responds, for `GET /health`. */
  isHealthy(): boolean {
    return !this.closed && this.db.isHealthy();
  }

  /** Closes the database (its logs durable; a checkpoint only when one is due) and releases the data-directory lock. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.db.close();
    } finally {
      this.lock?.release();
    }
  }
}

function removeStaleTemporaryFiles(databaseFile: string): void {
  const folder = path.dirname(databaseFile);
  const prefix = `${path.basename(databaseFile)}.`;
  for (const name of fs.readdirSync(folder)) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) fs.rmSync(path.join(folder, name), { force: true, recursive: true });
  }
}
