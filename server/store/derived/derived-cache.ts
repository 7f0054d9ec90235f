import type { VersionSource } from '../engine/database.js';
import type { ChangeKind, ChangeVersions, DerivedValue, DerivedValues } from './change-kinds.js';

/**
 * How much a cache keeps: a number of entries, or a total weight (bytes, rows...) with the
 * weight of each entry. Past it, the least recently used entries are dropped; a value heavier
 * than the whole bound is answered but not kept.
 */
export type CacheBound<V> = { entries: number } | { weight: number; weigh: (value: V, key: string) => number };

/** A cache's bound, and whether it keeps a value only from its second request (what it holds and is read from: its {@link DerivedValue}). */
export interface DerivedCacheOptions<V> {
  bound: CacheBound<V>;
  /**
   * Keep a value only when it is computed a second time, its key remembered among the last
   * `remembered` keys computed once: values asked once each (a client reading every page once)
   * then do not push out the ones asked again and again.
   */
  keepFromSecondRequest?: { remembered: number };
}

/** Thrown by a computation's checkpoint when the data changed under it; the cache starts it again. */
class StaleComputation extends Error {}

/**
 * Values computed from the data at one version of the kinds of change they depend on, each
 * under a key: all of them are dropped at the first use after a write of one of those kinds,
 * so that the write is seen by the very next read, and a write of another kind keeps them.
 * The one cache of everything the store and the API derive from the data (answers, totals,
 * skip positions, sorted orders, key lookups, coverage, the dashboard); each is built from the
 * definition of the value it holds ({@link DerivedValue}: its name and kinds, declared once
 * beside it) and states its bound.
 */
export class DerivedCache<V> implements DerivedValues {
  readonly name: string;
  readonly dependsOn: readonly ChangeKind[];
  /** What it holds and is read from: what a reader names to read it with other values on one version (one-version.ts). */
  readonly definition: DerivedValue;
  /** How many computations it has started (see {@link DerivedValues.computations}). */
  computations = 0;
  private readonly source: VersionSource;
  /** In least recently used order: a Map iterates in insertion order, and a hit is moved to the end. */
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private readonly askedOnce = new Set<string>();
  /**
   * The keys added to {@link askedOnce}, oldest first from `askedFrom`, with some since asked
   * again (gone from it): the oldest is dropped by walking this list, not the set, whose
   * iteration from its start skips every key deleted before (at 50,000 keys, 15 µs for each
   * key asked once).
   */
  private asked: string[] = [];
  private askedFrom = 0;
  /** The computations of {@link settled} under way, by key, with the version each started at. */
  private readonly computing = new Map<string, { version: number; value: Promise<V> }>();
  private heldWeight = 0;
  private version: number;

  constructor(
    versions: ChangeVersions,
    definition: DerivedValue,
    private readonly options: DerivedCacheOptions<V>,
  ) {
    this.definition = definition;
    this.name = definition.name;
    this.dependsOn = definition.dependsOn;
    this.source = versions.of(definition);
    this.version = this.source.version;
    versions.derived.push(this);
  }

  /** The value kept under `key` at the data's current version. */
  get(key: string): V | undefined {
    this.dropIfStale();
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * The value under `key`, computed now from the data as it is when there is none. A
   * computation that finds nothing (undefined) is not kept, so that looking up what does not
   * exist fills nothing.
   */
  getOrCompute(key: string, compute: () => V): V {
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    const version = this.source.version;
    this.computations++;
    const value = compute();
    this.offer(key, value, version);
    return value;
  }

  /**
   * The value under `key`, computed asynchronously once however many callers wait for it, then
   * kept as a value (so that a bound in weight weighs it). A computation that pauses (reading in
   * chunks, giving other requests a turn) calls `checkpoint` after each pause: when the data
   * changed meanwhile it throws, and the computation starts again on the new data, so that a
   * value is always of one version. A failed computation is not kept: the next call starts it
   * again.
   */
  async settled(key: string, compute: (checkpoint: () => void) => Promise<V>): Promise<V> {
    for (;;) {
      const kept = this.get(key);
      if (kept !== undefined) return kept;
      const version = this.source.version;
      let run = this.computing.get(key);
      if (run?.version !== version) {
        this.computations++;
        const started = {
          version,
          value: compute(() => {
            if (this.source.version !== version) throw new StaleComputation();
          }),
        };
        run = started;
        this.computing.set(key, started);
        // Kept, and no longer under way, before the callers waiting for it resume (handlers run
        // in the order they were added): a value the bound does not keep is computed again.
        const done = () => {
          if (this.computing.get(key) === started) this.computing.delete(key);
        };
        started.value.then((value) => {
          done();
          this.offer(key, value, version);
        }, done);
      }
      try {
        const value = await run.value;
        if (this.source.version === version) return value;
      } catch (error) {
        if (!(error instanceof StaleComputation)) throw error;
      }
    }
  }

  /** What the kept values weigh in all: their number for a bound in entries. */
  get weight(): number {
    return this.heldWeight;
  }

  /** Keeps a value computed at `version` if that is still the data's version and the bound allows. */
  private offer(key: string, value: V, version: number): void {
    this.dropIfStale();
    if (value === undefined || version !== this.version || !this.admits(key)) return;
    const { bound } = this.options;
    const [maxWeight, weight] = 'entries' in bound ? [bound.entries, 1] : [bound.weight, bound.weigh(value, key)];
    if (weight > maxWeight) return;
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    this.entries.set(key, { value, weight });
    this.heldWeight += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.heldWeight <= maxWeight) break;
      this.remove(oldest, entry);
    }
  }

  /** Whether a value is kept now: always, or from its key's second request. */
  private admits(key: string): boolean {
    const { keepFromSecondRequest } = this.options;
    if (!keepFromSecondRequest || this.askedOnce.delete(key)) return true;
    const { remembered } = keepFromSecondRequest;
    while (this.askedOnce.size >= remembered) this.askedOnce.delete(this.asked[this.askedFrom++]!);
    this.askedOnce.add(key);
    this.asked.push(key);
    // Walked past, or asked again: past twice the keys kept, the list starts again from the set.
    if (this.askedFrom >= remembered || this.asked.length > 2 * remembered) {
      this.asked = [...this.askedOnce];
      this.askedFrom = 0;
    }
    return false;
  }

  private remove(key: string, entry: { weight: number }): void {
    this.entries.delete(key);
    this.heldWeight -= entry.weight;
  }

  private dropIfStale(): void {
    if (this.version === this.source.version) return;
    this.entries.clear();
    this.askedOnce.clear();
    this.asked = [];
    this.askedFrom = 0;
    this.heldWeight = 0;
    this.version = this.source.version;
  }
}
