import type { VersionSource } from '../engine/database.js';

/**
 * What a write can change, as the write names it (`Store.write`'s `changes`); each derived
 * value names the kinds it is read from, and is dropped when a write changes one of them.
 * - `inventory`: the rows an organization shows (a sync's merge or swap, a reconcile, a seed);
 * - `staged-inventory`: rows of an inventory no organization points at (a full sync's staging,
 *   the collection of inventories no longer shown): nothing derived reads them;
 * - `exceptions`, `deadline-policies` (SLA policies), `api-keys`, `agent-settings`: the
 *   organization's local records of each;
 * - `sync-records`: a replica's sync settings, runs and what each changed;
 * - `organizations`: the organizations' rows (created, removed, renamed, their secrets, their
 *   remote, the inventory each shows);
 * - `endpoint-context`: what the console adds to an endpoint (tags, criticality, tag rules);
 * - `threat-intel`: exploit intelligence imported from files (EPSS figures, KEV catalogs,
 *   Vulnrichment records);
 * - `fix-by-changes`: what each change of endpoint context or fix-by settings did to the
 *   findings' outcomes and dates, recorded after it: nothing derived reads them.
 * - `work-packages`: the plan steps' local owner, note, ticket status and the check after a sync.
 * - `saved-views`: an organization's saved views (a console view's filters under a name).
 * - `reports`: the reports made, frozen: nothing derived reads them.
 */
export const changeKinds = [
  'inventory',
  'staged-inventory',
  'exceptions',
  'deadline-policies',
  'api-keys',
  'agent-settings',
  'sync-records',
  'organizations',
  'endpoint-context',
  'threat-intel',
  'fix-by-changes',
  'work-packages',
  'saved-views',
  'reports',
] as const;

/** One kind of change a write makes (see {@link changeKinds}). */
export type ChangeKind = (typeof changeKinds)[number];

/**
 * How a record of the store writes: `work` as one store transaction (`Store.write`) that
 * changes `kinds`. Each record (API keys, agent settings, deadline policies, exceptions,
 * organizations) names the kinds of its own writes, beside them, so that no caller does.
 */
export type RecordWrite = <T>(kinds: readonly ChangeKind[], work: () => T) => T;

/**
 * A write of a record, as {@link RecordWrite}, that resolves once it and those before it are
 * durable, its pages logged in slices and fsynced off the thread (Store.writeSettled): for a
 * write of megabytes, whose log and fsync would hold the thread answering requests.
 */
export type SettledRecordWrite = <T>(kinds: readonly ChangeKind[], work: () => T) => Promise<T>;

declare const declared: unique symbol;

/**
 * What a derived value is: its name and the kinds of change it is read from, declared once,
 * where the value is defined (made only by {@link derivedValue}). Its cache is built from it
 * (`new DerivedCache(versions, definition, ...)`), and a reader of several values names their
 * definitions to read them on one version (`onOneVersion`, one-version.ts): no reader writes a
 * list of kinds by hand, so none can check other kinds than the value's own.
 */
export interface DerivedValue {
  /** What it holds, for a reader of {@link ChangeVersions.derived}. */
  readonly name: string;
  /**
   * The kinds of change it is read from: a write of one of them drops it. A value read from the
   * exceptions in force or a deadline policy names them in its key instead
   * (`ExceptedFindings.key`, `StoredSlaPolicy.key`), since the clock changes what is in force
   * or overdue with no write; a write of those records then changes the key, not the version.
   */
  readonly dependsOn: readonly ChangeKind[];
  readonly [declared]: true;
}

/** The definition of a derived value (see {@link DerivedValue}): declare it once, beside the value, and read its kinds from it. */
export function derivedValue(name: string, dependsOn: readonly ChangeKind[]): DerivedValue {
  return Object.freeze({ name, dependsOn: Object.freeze([...dependsOn]) }) as unknown as DerivedValue;
}

/** A cache of derived values as {@link ChangeVersions} lists it. */
export interface DerivedValues {
  /** What it holds, for a reader of the list. */
  readonly name: string;
  /** The kinds of change its values are read from. */
  readonly dependsOn: readonly ChangeKind[];
  /** How many computations it has started: a value computed, or computed again. */
  readonly computations: number;
}

/**
 * The version of each kind of change, from the database's own version (raised by every
 * statement and commit): a write names what it changes ({@link during}), and a kind's version
 * is where the database's stood when the last write of that kind ended. A reader asks the
 * version of the values it reads ({@link version}, by their definitions); it changes exactly
 * when a write of one of their kinds ends. While such a write is under way it follows the
 * database's own version, so that a value read inside the write is not kept past it; a
 * statement run outside any named write (none is expected) counts as a change of every kind.
 * A write inside another (a record's write inside a sync's) raises its kinds again when the
 * outermost ends, committed or rolled back.
 */
export class ChangeVersions {
  /** The caches of derived values built on these versions (`DerivedCache` adds itself). */
  readonly derived: DerivedValues[] = [];
  private readonly raised = new Map<ChangeKind, number>();
  /** The kinds of each write under way, outermost first (a write may run inside another). */
  private readonly open: (readonly ChangeKind[])[] = [];
  /** The database's version when the last named write ended. */
  private settled: number;
  /** The kinds changed by the writes under way and those that ended inside them. */
  private readonly touched = new Set<ChangeKind>();

  constructor(private readonly database: VersionSource) {
    this.settled = database.version;
  }

  /** Runs `write`, which changes `kinds`, and raises their versions when it ends (however it ends). */
  during<T>(kinds: readonly ChangeKind[], write: () => T): T {
    this.catchUp();
    this.open.push(kinds);
    for (const kind of kinds) this.touched.add(kind);
    try {
      return write();
    } finally {
      this.open.pop();
      const version = this.database.version;
      for (const kind of this.open.length === 0 ? this.touched : kinds) this.raised.set(kind, version);
      if (this.open.length === 0) {
        this.settled = version;
        this.touched.clear();
      }
    }
  }

  /** A number that changes whenever a write of one of the kinds `values` are read from does. */
  version(values: DerivedValue | readonly DerivedValue[]): number {
    return this.kindsVersion(kindsOf(values));
  }

  /**
   * The version writes of `kinds` left: for what watches writes (a test, a log), not for a
   * reader of derived values, which reads {@link version} by their definitions.
   */
  written(kinds: readonly ChangeKind[]): number {
    return this.kindsVersion(kinds);
  }

  /** The version of a value's kinds as a source its cache follows. */
  of(value: DerivedValue): VersionSource {
    const version = () => this.kindsVersion(value.dependsOn);
    return {
      get version() {
        return version();
      },
    };
  }

  private kindsVersion(kinds: readonly ChangeKind[]): number {
    this.catchUp();
    if (this.open.some((changing) => changing.some((kind) => kinds.includes(kind)))) return this.database.version;
    let version = 0;
    for (const kind of kinds) version = Math.max(version, this.raised.get(kind) ?? 0);
    return version;
  }

  /** A statement run outside every named write changed the database: every kind counts as changed. */
  private catchUp(): void {
    if (this.open.length > 0 || this.database.version === this.settled) return;
    this.settled = this.database.version;
    for (const kind of changeKinds) this.raised.set(kind, this.settled);
  }
}

/** The kinds of change `values` are read from, together. */
export function kindsOf(values: DerivedValue | readonly DerivedValue[]): readonly ChangeKind[] {
  return 'dependsOn' in values ? values.dependsOn : [...new Set(values.flatMap((value) => value.dependsOn))];
}
