import type { CollectionName } from '../../contracts/collections.js';
import type { Inventory } from '../../contracts/inventory.js';
import type { CollectionSink } from './pull-collection.js';
import { nextTurn } from '../store/engine/next-turn.js';

/** Changes looked up in the store at a time: a few milliseconds. */
const checkedPerTurn = 500;

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

  /** How many valid changes were pulled. */
  get count(): number {
    const { endpoints, remediationTargets, scopes, findings } = this.inventory;
    return endpoints.length + remediationTargets.length + scopes.length + findings.length;
  }

  /**
   * Keeps only the changes `unchanged` does not name (by lowercase id), asking it about
   * {@link checkedPerTurn} items at a time with a turn of the event loop between.
   */
  async dropUnchanged(unchanged: (collection: CollectionName, items: readonly Inventory[CollectionName][number][]) => Set<string>): Promise<void> {
    for (const collection of Object.keys(this.inventory) as CollectionName[]) {
      const items = this.inventory[collection] as Inventory[CollectionName][number][];
      const held = new Set<string>();
      for (let start = 0; start < items.length; start += checkedPerTurn) {
        for (const id of unchanged(collection, items.slice(start, start + checkedPerTurn))) held.add(id);
        await nextTurn();
      }
      if (held.size > 0) (this.inventory[collection] as unknown[]) = items.filter((item) => !held.has(item.id.toLowerCase()));
    }
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
