import { type ChangeKind, type ChangeVersions, type DerivedValue, kindsOf } from './change-kinds.js';

/**
 * Thrown where a value read at one version would be used, or kept, with values of another (a
 * write of their kinds, or an exception that expired, ended meanwhile): {@link onOneVersion}
 * reads them all again.
 */
export class VersionMoved extends Error {
  constructor() {
    super('The data changed while the values were read');
  }
}

/** The version a read of several derived values started at, by the values' own kinds. */
export class OneVersion {
  /** The version of the values' kinds when the read started: a key that values of this version are kept under may name it. */
  readonly version: number;
  /** The values' kinds together, gathered once: a list page asks whether they are current several times. */
  private readonly kinds: readonly ChangeKind[];

  constructor(
    private readonly versions: ChangeVersions,
    values: readonly DerivedValue[],
  ) {
    this.kinds = kindsOf(values);
    this.version = versions.written(this.kinds);
  }

  /** Whether no write of the values' kinds has ended since the read started. */
  get current(): boolean {
    return this.versions.written(this.kinds) === this.version;
  }

  /** Throws {@link VersionMoved} unless {@link current}: for a computation that would keep another version's values under this one's key. */
  check(): void {
    if (!this.current) throw new VersionMoved();
  }
}

/**
 * The consistency rule of the derived values, in one place: runs `read`, which awaits several
 * of `values` (by their definitions, which carry their kinds), and returns what it made only
 * if no write of their kinds ended meanwhile; else, or when `read` throws {@link VersionMoved},
 * reads again. Values of different versions would mix findings by index (the coverage columns
 * of one version, the excepted findings of another) or keep a value under a key it is not of.
 */
export async function onOneVersion<T>(versions: ChangeVersions, values: readonly DerivedValue[], read: (version: OneVersion) => Promise<T>): Promise<T> {
  for (;;) {
    const version = new OneVersion(versions, values);
    try {
      const value = await read(version);
      if (version.current) return value;
    } catch (error) {
      if (!(error instanceof VersionMoved)) throw error;
    }
  }
}
