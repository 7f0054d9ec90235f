import type { CollectionName } from '../../contracts/collections.js';
import type { Inventory } from '../../contracts/inventory.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import type { SyncChangesSummary } from '../../contracts/console/sync-changes.js';
import type { SyncChangeTally } from '../store/basics/change-tally.js';
import type { SyncSuccess } from '../store/records/sync-run-records.js';
import { type CollectionSink, type PullOptions, type PulledCollection, pullCollection } from './pull-collection.js';
import { RowsPerWrite } from '../store/inventory/rows-per-write.js';
import { reserveEstimate, reserveSampleItems } from './reserve-estimate.js';
import { nextTurn } from '../store/engine/next-turn.js';

/**
 * A full sync's new inventory, written into the store's inventory tables page by page as the
 * pages arrive, each page its own short write, under an id no organization points at: readers
 * go on seeing the replica as it was, and memory holds a few pages, not the collections. The
 * swap then makes it the organization's in one small transaction, with the sync's record. The
 * store's steps say what each write changes and how durable it is (store/sync-steps.ts): nobody
 * reads what the staging changes, and a crash may lose it, which the next sync does again, while
 * the swap is durable and carries it with it.
 */
export class StagedInventory {
  readonly inventoryId: number;
  /**
   * Rows per staged write, as the writes' time allows: from a page (100) up to 100 rows for
   * each millisecond a write may take (2,000 at 20 ms), about what a quick machine writes.
   */
  private readonly rowsPerWrite: RowsPerWrite;

  /** `writeMs`: how long one staged write aims to take (SyncPolicy.stagedWriteMs). */
  constructor(
    private readonly store: Store,
    writeMs: number,
  ) {
    this.inventoryId = store.inventories.stage();
    this.rowsPerWrite = RowsPerWrite.paced(100, 2_000, writeMs);
  }

  /**
   * Pulls a collection into the staged inventory. Pages are written in the order they came, as
   * many at a time as {@link rowsPerWrite} says; one that breaks the lists' default order (a
   * remote whose order differs from ours) has the collection put in order once it is all there,
   * so that `seq` is that order (migrations.ts). Once its first items tell how much room the
   * rest will take, that room is reserved.
   */
  async pull<C extends CollectionName>(collection: C, options: PullOptions): Promise<PulledCollection> {
    const { store, inventoryId } = this;
    let inOrder = true;
    const inUse = () => {
      const pages = store.pageBytes();
      return pages.bytes - pages.freeBytes;
    };
    const before = inUse();
    let total = 0;
    let staged = 0;
    let reserved = false;
    let held: Inventory[C][number][] = [];
    let heldInvalidIds: string[] = [];
    const write = (): string | undefined => {
      const [items, invalidIds] = [held, heldInvalidIds];
      [held, heldInvalidIds] = [[], []];
      const started = performance.now();
      const outcome = store.syncSteps.stage(inventoryId, collection, items, invalidIds);
      this.rowsPerWrite.took(performance.now() - started);
      inOrder &&= outcome.inOrder;
      staged += items.length;
      if (!reserved && staged >= reserveSampleItems) {
        reserved = true;
        const bytes = reserveEstimate(inUse() - before, staged, total, store.pageBytes().freeBytes);
        if (bytes > 0) store.reserve(bytes);
      }
      return outcome.repeatedId;
    };
    const sink: CollectionSink<C> = {
      add: async (items, invalidIds) => {
        held.push(...items);
        heldInvalidIds.push(...invalidIds);
        if (held.length < this.rowsPerWrite.size) return undefined;
        const repeated = write();
        // A turn of the event loop, else pages that arrived meanwhile would be written back to back.
        await nextTurn();
        return repeated;
      },
      end: () => (held.length > 0 || heldInvalidIds.length > 0 ? write() : undefined),
      discard: async () => {
        [held, heldInvalidIds] = [[], []];
        inOrder = true;
        staged = 0;
        await store.inventories.delete(inventoryId, [collection]);
      },
    };
    const onPage = (fetched: number, pageTotal: number) => {
      total = pageTotal;
      options.onPage?.(fetched, pageTotal);
    };
    const pulled = await pullCollection(collection, sink, { ...options, onPage });
    if (!inOrder) await store.inventories.putInDefaultOrder(inventoryId, collection, options.signal);
    return pulled;
  }

  /**
   * Makes the staged inventory the organization's and records the sync's success and what it
   * changed (`changes`), in one small transaction (SyncSteps.swap); the inventory it replaces is
   * then nobody's, left to collection. Fails when the organization was removed meanwhile.
   * Answers the changes recorded, in brief (none when nothing changed).
   */
  swap(organization: Organization, success: SyncSuccess, changes: SyncChangeTally): Promise<SyncChangesSummary | undefined> {
    return this.store.syncSteps.swap(organization, this.inventoryId, success, changes);
  }

  /** Ends the staging: after a swap the inventory is the organization's; otherwise collection takes it. */
  release(): void {
    this.store.inventories.release(this.inventoryId);
  }
}
