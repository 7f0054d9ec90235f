import type { CollectionName } from '../../contracts/collections.js';
import type { Inventory } from '../../contracts/inventory.js';
import type { SyncChangesSummary } from '../../contracts/console/sync-changes.js';
import type { Organization } from '../store/records/organization-records.js';
import type { SyncSuccess } from '../store/records/sync-run-records.js';
import type { Store } from '../store/store.js';
import type { PartsInProgress } from '../store/sync-steps.js';
import type { CollectionSink } from './pull-collection.js';
import { type ReconcileDifferences, idsOfPage } from './reconcile.js';
import { betweenParts } from './pulled-changes.js';
import { SeqSet } from './seq-set.js';
import { syncOrder } from './sync-collections.js';

/**
 * The replica's rows one part of the removal reads, deleting those the remote no longer has; and
 * the most items one part of the merge writes. A part's rows touch a leaf of each index apiece,
 * and SQLite's journal (in memory) keeps each page a transaction changes: the WebAssembly heap
 * grows to the largest part's and never gives the memory back.
 */
const rowsPerPart = 256;

/**
 * A full sync's replacement of a replica in place, past the differences a sync keeps in memory
 * (SyncPolicy.replaceInPlace). The comparison that passed the bound noted which of the replica's
 * rows the remote sent (ReconcileDifferences, `noteBeyondBound`); the replacement deletes the
 * others first, then takes the remote's pages again and merges each page's differences, each
 * step a part of its own (SyncSteps.beginParts, logged as pages). Memory and the file hold one
 * inventory: the pages of the rows deleted first take the rows merged after. New rows go after
 * the others as they come; a collection whose default order that breaks (a remote that sent new
 * items among older ones) is put in order once it is all there, by a copy of it. Until the last
 * write the organization's readers in this process wait; a failure leaves the replica partly
 * replaced, never without an item the remote still had at the comparison and the replica held.
 */
export class ReplicaReplacement {
  private readonly parts: PartsInProgress;
  /** The collections whose rows the merge left out of the default order. */
  private readonly outOfOrder = new Set<CollectionName>();
  /** The statements that recreate the indexes a bulk replacement dropped, until they are recreated. */
  private droppedIndexes: string[] = [];

  /** `rebuildIndexesFromRows`: SyncPolicy's. */
  constructor(
    private readonly store: Store,
    private readonly organization: Organization,
    private readonly compared: ReconcileDifferences,
    private readonly rebuildIndexesFromRows: number,
  ) {
    this.parts = store.syncSteps.beginParts(organization, 'replacement');
  }

  /**
   * Deletes the replica's rows that the comparison did not note as sent, collection by
   * collection, {@link rowsPerPart} rows read a part, a turn of the event loop between two.
   * When the rows it deletes and the items that differ are `rebuildIndexesFromRows` or more, it
   * first drops the inventory tables' indexes but those by id, which {@link finish} builds
   * again from the rows, one a part: each row deleted or written then changes a leaf of two
   * b-trees, not of up to fifteen.
   */
  async removeUnsent(signal?: AbortSignal): Promise<void> {
    const { store, compared, organization } = this;
    const held = Object.values(await store.inventory.counts(organization.rowId)).reduce((sum, rows) => sum + rows, 0);
    const { sent, differing } = compared.tally;
    if (held - sent + differing >= this.rebuildIndexesFromRows) this.droppedIndexes = this.parts.part((writes) => writes.dropIndexes({ keepIds: true }));
    for (const collection of syncOrder) {
      const sent = (seq: number) => compared.wasSent(collection, seq);
      for (let after: number | undefined = Number.MIN_SAFE_INTEGER; after !== undefined; ) {
        const from: number = after;
        after = this.parts.part((_writes, inventoryId, tally): number | undefined => store.replicaComparison.removeUnsent(inventoryId, collection, sent, from, rowsPerPart, tally));
        await betweenParts(signal);
      }
    }
  }

  /**
   * The sink of one collection's second pull: each page's items that the replica does not hold
   * as they are, merged in a part; the replica's row of an invalid item's id deleted, as a full
   * sync drops it. An id sent twice is answered as a reconcile answers it, by the seq of its row
   * noted once merged or found as it is.
   */
  sink<C extends CollectionName>(collection: C): CollectionSink<C> {
    const { store, organization } = this;
    let merged = new SeqSet();
    return {
      add: async (items, invalidIds) => {
        const page = idsOfPage(items, invalidIds);
        if ('repeatedId' in page) return page.repeatedId;
        const pageIds = page.ids;
        const { differing, held } = store.replicaComparison.differing(organization.rowId, collection, items, invalidIds);
        const invalidRows: string[] = [];
        for (const { id, seq } of held) {
          if (pageIds.has(id)) {
            if (!merged.add(seq)) return id;
          } else if (merged.has(seq)) return id;
          else invalidRows.push(id);
        }
        if (invalidRows.length > 0) this.parts.part((_writes, inventoryId, tally) => store.replicaComparison.remove(inventoryId, collection, invalidRows, tally));
        for (let start = 0; start < differing.length; start += rowsPerPart) {
          const change: Inventory = { endpoints: [], remediationTargets: [], scopes: [], findings: [] };
          (change[collection] as Inventory[C][number][]) = differing.slice(start, start + rowsPerPart);
          if (!this.parts.part((writes, inventoryId, tally) => writes.mergeAtEnd(inventoryId, change, tally)[collection])) this.outOfOrder.add(collection);
        }
        // Where the merged rows landed (new ones, and those placed again): an id sent again later is told by them.
        const mergedIds = differing.map((item) => item.id.toLowerCase());
        for (const seq of store.replicaComparison.seqsOf(organization.rowId, collection, mergedIds)) merged.add(seq);
        await betweenParts();
        return undefined;
      },
      end: () => undefined,
      // A collection read again merges again what differs: what a part merged stays merged.
      discard: () => {
        merged = new SeqSet();
      },
    };
  }

  /**
   * Puts in the default order the collections the merge left out of it, then records the sync's
   * success and what the whole replacement changed, with the texts and CVE ids no finding uses
   * any more dropped, in its last write. Answers the changes recorded, in brief.
   */
  async finish(success: SyncSuccess, signal?: AbortSignal): Promise<SyncChangesSummary | undefined> {
    const { store, organization } = this;
    // Ordering reads an inventory's rows by seq along its own index.
    await this.recreateIndexes(signal);
    for (const collection of this.outOfOrder) {
      const { inventoryId } = store.organizations.byRowId(organization.rowId) ?? organization;
      await store.inventories.putInDefaultOrder(inventoryId, collection, signal);
    }
    return this.parts.finish(success);
  }

  /**
   * Ends the replacement, done or failed: the indexes it dropped are built again if it failed
   * before its last write, and the organization's readers go on.
   */
  release(): void {
    try {
      // A failure between two parts: the indexes at once, before the failure is recorded.
      while (this.droppedIndexes.length > 0) this.recreateIndex();
    } finally {
      this.parts.release();
    }
  }

  /**
   * Builds again the indexes a bulk replacement dropped, each in a part of its own: SQLite
   * journals the free pages an index takes and sorts its keys in memory, so one transaction of
   * them all grew the WebAssembly heap by about 120 MiB on `large`.
   */
  private async recreateIndexes(signal?: AbortSignal): Promise<void> {
    while (this.droppedIndexes.length > 0) {
      this.recreateIndex();
      await betweenParts(signal);
    }
  }

  private recreateIndex(): void {
    const statement = this.droppedIndexes[0]!;
    this.parts.part((writes) => writes.recreateIndexes([statement]));
    this.droppedIndexes.shift();
  }
}
