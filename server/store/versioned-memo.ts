import type { Database } from './database.js';

/**
 * Values computed from the database, kept until its next write (any change of
 * `Database.version` drops them all), at most `limit` of them: past that, the oldest kept is
 * dropped first.
 */
export class VersionedMemo {
  private readonly values = new Map<string, unknown>();
  private version = -1;

  constructor(
    private readonly db: Database,
    private readonly limit: number,
  ) {}

  /** The value kept under `key` at the current version, computed now if there is none. */
  get<T>(key: string, compute: () => T): T {
    if (this.version !== this.db.version) {
      this.values.clear();
      this.version = this.db.version;
    }
    if (this.values.has(key)) return this.values.get(key) as T;
    const value = compute();
    if (this.values.size >= this.limit) this.values.delete(this.values.keys().next().value!);
    this.values.set(key, value);
    return value;
  }
}
