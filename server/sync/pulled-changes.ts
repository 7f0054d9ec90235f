import type { CollectionName } from '../../contracts/collections.js';
import type { Inventory } from '../../contracts/inventory.js';
import type { CollectionSink } from './pull-collection.js';
import { nextTurn } from '../store/engine/next-turn.js';

/** Changes looked up in the store at a time: a few milliseconds. */
const checkedPerTurn = 500;

/** A turn of the event loop between two parts of a merge (SyncSteps.applyInParts); an aborted sync stops there, the parts before it applied. */
export async function betweenParts(signal?: AbortSignal): Promise<void> {
  await nextTurn();
  signal?.throwIfAborted();
}

/** An incremental sync found more changes than it keeps in memory: a full sync (staged) does it instead. */
export class TooManyChanges extends Error {}

/**
 * The changes an incremental sync pulls, kept in memory for the merge that applies them in one
 * transaction. Bounded: past `maxItems` the sync turns into a full one, which stages its pages
 * in the store, so that a remote where everything changed never puts a whole collection here.
 */
export class PulledChanges {
  readonly inventory: Inventory = { endpoints: [], remediationTargets: [], scopes: [], findings: [] };

  constructor(private readonly maxItems: number) {}

  /** Drops every change kept: a reconcile past the bound notes only the rows sent (ReconcileDifferences). */
  forget(): void {
    this.inventory.endpoints = [];
    this.inventory.remediationTargets = [];
    this.inventory.scopes = [];
    this.inventory.findings = [];
  }

  /** How many valid changes were pulled. */
  get count(): number {
    const { endpoints, remediationTargets, scopes, findings } = this.inventory;
    return endpoints.length + remediationTargets.length + scopes.length + findings.length;
  }

  /**
   * Whether any change is new: one `unchanged` does not name (by lowercase id). Asks it about
   * {@link checkedPerTurn} items at a time, with a turn of the event loop between, and stops at
   * the first slice holding a new one: a sync that brought only what the last one merged (its
   * margin) looks each up, one that brought changes looks up a slice, and its merge leaves the
   * rest out as it reads each row anyway (InventoryWrites.merge, `skipUnchanged`).
   */
  async anyNew(unchanged: (collection: CollectionName, items: readonly Inventory[CollectionName][number][]) => Set<string>): Promise<boolean> {
    for (const collection of Object.keys(this.inventory) as CollectionName[]) {
      const items = this.inventory[collection] as Inventory[CollectionName][number][];
      for (let start = 0; start < items.length; start += checkedPerTurn) {
        const slice = items.slice(start, start + checkedPerTurn);
        if (unchanged(collection, slice).size < slice.length) return true;
        await nextTurn();
      }
    }
    return false;
  }

  /**
   * The changes in parts of at most `itemsPerPart` items, in the order the merge takes them
   * (collection after collection, each in the order pulled); one part when they fit in one.
   */
  parts(itemsPerPart: number): Inventory[] {
    const parts: Inventory[] = [];
    let part: Inventory = { endpoints: [], remediationTargets: [], scopes: [], findings: [] };
    let size = 0;
    for (const collection of Object.keys(this.inventory) as CollectionName[]) {
      for (const item of this.inventory[collection]) {
        if (size === itemsPerPart) {
          parts.push(part);
          part = { endpoints: [], remediationTargets: [], scopes: [], findings: [] };
          size = 0;
        }
        (part[collection] as unknown[]).push(item);
        size++;
      }
    }
    parts.push(part);
    return parts;
  }

  /**
   * How many rows each collection would gain by the merge: the changes whose id `held` does not
   * find (it answers how many of a slice's ids the replica holds), asked {@link checkedPerTurn}
   * at a time, a turn of the event loop between.
   */
  async added(held: (collection: CollectionName, ids: readonly string[]) => number): Promise<Record<CollectionName, number>> {
    const added: Record<CollectionName, number> = { endpoints: 0, remediationTargets: 0, scopes: 0, findings: 0 };
    for (const collection of Object.keys(this.inventory) as CollectionName[]) {
      const items = this.inventory[collection] as readonly { id: string }[];
      for (let start = 0; start < items.length; start += checkedPerTurn) {
        const ids = items.slice(start, start + checkedPerTurn).map((item) => item.id.toLowerCase());
        added[collection] += ids.length - held(collection, ids);
        await nextTurn();
      }
    }
    return added;
  }

  /** The sink of one collection's changes. */
  sink<C extends CollectionName>(collection: C): CollectionSink<C> {
    const ids = new Set<string>();
    return {
      add: (items, invalidIds) => {
        const kept = this.inventory[collection] as Inventory[C][number][];
        for (const item of items) {
          const id = item.id.toLowerCase();
          if (ids.has(id)) return id;
          ids.add(id);
          kept.push(item);
        }
        if (this.count > this.maxItems) throw new TooManyChanges(`More than ${this.maxItems} changes`);
        return invalidIds.find((id) => ids.has(id));
      },
      end: () => undefined,
      discard: () => {
        ids.clear();
        (this.inventory[collection] as unknown[]) = [];
      },
    };
  }
}
