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
 * - `threat-intel`: exploit intelligence imported from files (EPSS figures, KEV catalogs).
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
] as const;

/** One kind of change a write makes (see {@link changeKinds}). */
export type ChangeKind = (typeof changeKinds)[number];

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
 * version of the kinds it depends on ({@link version}); it changes exactly when a write of one
 * of them ends. While such a write is under way it follows the database's own version, so that
 * a value read inside the write is not kept past it; a statement run outside any named write
 * (none is expected) counts as a change of every kind.
 */
export class ChangeVersions {
  /** The caches of derived values built on these versions (`DerivedCache` adds itself). */
  readonly derived: DerivedValues[] = [];
  private readonly raised = new Map<ChangeKind, number>();
  /** The kinds of each write under way, outermost first (a write may run inside another). */
  private readonly open: (readonly ChangeKind[])[] = [];
  /** The database's version when the last named write ended. */
  private settled: number;

  constructor(private readonly database: VersionSource) {
    this.settled = database.version;
  }

  /** Runs `write`, which changes `kinds`, and raises their versions when it ends (however it ends). */
  during<T>(kinds: readonly ChangeKind[], write: () => T): T {
    this.catchUp();
    this.open.push(kinds);
    try {
      return write();
    } finally {
      this.open.pop();
      const version = this.database.version;
      for (const kind of kinds) this.raised.set(kind, version);
      if (this.open.length === 0) this.settled = version;
    }
  }

  /** A number that changes whenever a write of one of `kinds` does. */
  version(kinds: readonly ChangeKind[]): number {
    this.catchUp();
    if (this.open.some((changing) => changing.some((kind) => kinds.includes(kind)))) return this.database.version;
    let version = 0;
    for (const kind of kinds) version = Math.max(version, this.raised.get(kind) ?? 0);
    return version;
  }

  /**
   * A check that no write of `kinds` has ended since it was taken: what a reader calls after
   * awaiting several values derived from them, to know that they are of one version (and to ask
   * them again when not).
   */
  stillCurrent(kinds: readonly ChangeKind[]): () => boolean {
    const version = this.version(kinds);
    return () => this.version(kinds) === version;
  }

  /** The version of `kinds` as a source a cache follows. */
  of(kinds: readonly ChangeKind[]): VersionSource {
    const version = () => this.version(kinds);
    return {
      get version() {
        return version();
      },
    };
  }

  /** A statement run outside every named write changed the database: every kind counts as changed. */
  private catchUp(): void {
    if (this.open.length > 0 || this.database.version === this.settled) return;
    this.settled = this.database.version;
    for (const kind of changeKinds) this.raised.set(kind, this.settled);
  }
}
