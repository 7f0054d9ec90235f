import type { CollectionName } from '../../contracts/collections.js';
import type { SyncChangesSummary } from '../../contracts/console/sync-changes.js';
import { TimeSlices } from '../store/derived/time-slices.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import type { SyncSuccess } from '../store/records/sync-run-records.js';
import type { InventoryChange } from '../store/sync-steps.js';
import type { CollectionSink } from './pull-collection.js';
import { PulledChanges, TooManyChanges, betweenParts } from './pulled-changes.js';
import { SeqSet } from './seq-set.js';
import { syncOrder } from './sync-collections.js';

/**
 * What a reconcile finds, collection by collection, as the remote's pages arrive: the items the
 * replica does not hold as they are (new or different in any field, whatever their
 * `updated_at`), kept in memory until they are applied ({@link ReconcileDifferences.apply}), and
 * the replica's rows the remote sent (a bit per seq), to find afterwards the replica's items it
 * no longer has. Each page is compared
 * with the replica's rows of its ids (store/replica-comparison.ts); nothing else of the remote
 * is held. The differences are bounded as an incremental sync's changes are: past `maxItems`,
 * {@link TooManyChanges}, and a full sync (staged page by page) does it instead; or, for a full
 * sync that replaces the replica in place, they are dropped and only the rows sent noted.
 */
export class ReconcileDifferences {
  /** The new and changed items, merged as an incremental sync's changes are. */
  readonly changes: PulledChanges;
  /** The ids of the replica that the remote no longer has, per collection (stored, lowercase). */
  readonly removed: Record<CollectionName, string[]> = { endpoints: [], remediationTargets: [], scopes: [], findings: [] };
  /** The replica's rows of the valid items the remote sent, per collection, by seq: a bit each, not an id string. */
  private readonly sent = new Map<CollectionName, SeqSet>();
  private passedBound = false;
  /** Per collection, the replica's rows noted as sent and the items found differing, past the bound too. */
  private readonly noted = new Map<CollectionName, { sent: number; differing: number }>();

  /**
   * `noteBeyondBound`: past `maxItems` differences, drop them and go on noting the rows sent
   * ({@link beyondBound}), for a replacement in place, rather than throw {@link TooManyChanges}.
   */
  constructor(
    private readonly store: Store,
    private readonly organization: Organization,
    private readonly maxItems: number,
    private readonly noteBeyondBound = false,
  ) {
    this.changes = new PulledChanges(maxItems);
  }

  /** Whether the differences passed the bound and were dropped: only the rows sent are known (`noteBeyondBound`). */
  get beyondBound(): boolean {
    return this.passedBound;
  }

  /** How many of the replica's rows the remote sent (valid), and how many items differed from the replica, in all. */
  get tally(): { sent: number; differing: number } {
    let [sent, differing] = [0, 0];
    for (const counted of this.noted.values()) [sent, differing] = [sent + counted.sent, differing + counted.differing];
    return { sent, differing };
  }

  /** Whether the replica's row at `seq` was sent by the remote (valid), once the collection was pulled. */
  wasSent(collection: CollectionName, seq: number): boolean {
    const sent = this.sent.get(collection);
    if (!sent) throw new Error(`The reconcile did not pull the ${collection}`);
    return sent.has(seq);
  }

  /** How many items the reconcile changes: new, changed and removed. */
  get count(): number {
    return this.changes.count + syncOrder.reduce((sum, collection) => sum + this.removed[collection].length, 0);
  }

  /**
   * The sink of one collection: notes the replica's rows of each page's valid items, and keeps
   * the items that differ from the replica. An invalid item is not noted: the replica's row of
   * its id, if any, is removed, as a full sync would drop it (it is not sent valid). An id sent
   * twice is answered: within a page by the page's ids, across pages by the row noted already
   * (an item the replica holds) or by the changes kept (one it does not hold as it is).
   */
  sink<C extends CollectionName>(collection: C): CollectionSink<C> {
    let sent = new SeqSet();
    this.sent.set(collection, sent);
    const noted = { sent: 0, differing: 0 };
    this.noted.set(collection, noted);
    const changed = this.changes.sink(collection);
    return {
      add: (items, invalidIds) => {
        const page = idsOfPage(items, invalidIds);
        if ('repeatedId' in page) return page.repeatedId;
        const pageIds = page.ids;
        const { differing, held } = this.store.replicaComparison.differing(this.organization.rowId, collection, items, invalidIds);
        for (const { id, seq } of held) {
          if (!pageIds.has(id)) {
            // An invalid item's row: sent valid on an earlier page, its id came twice.
            if (sent.has(seq)) return id;
          } else if (!sent.add(seq)) return id;
          else noted.sent++;
        }
        noted.differing += differing.length;
        if (this.passedBound) return undefined;
        try {
          return changed.add(differing, invalidIds.map((id) => id.toLowerCase()));
        } catch (error) {
          if (!(error instanceof TooManyChanges) || !this.noteBeyondBound) throw error;
          this.passedBound = true;
          this.changes.forget();
          return undefined;
        }
      },
      end: () => undefined,
      discard: async () => {
        [noted.sent, noted.differing] = [0, 0];
        sent = new SeqSet();
        this.sent.set(collection, sent);
        await changed.discard();
      },
    };
  }

  /**
   * Finds the replica's items the remote did not send, once every collection was pulled: a walk
   * over the replica's ids in slices of the event loop's time. Throws {@link TooManyChanges}
   * when the differences would pass `maxItems`.
   */
  async findRemoved(signal?: AbortSignal): Promise<void> {
    const slices = new TimeSlices(() => signal?.throwIfAborted());
    for (const collection of syncOrder) {
      const sent = this.sent.get(collection);
      if (!sent) throw new Error(`The reconcile did not pull the ${collection}`);
      const room = this.maxItems - this.count;
      const missing = await this.store.replicaComparison.missing(this.organization.rowId, collection, (seq) => sent.has(seq), room, slices);
      if (missing.length > room) throw new TooManyChanges(`More than ${this.maxItems} differences`);
      this.removed[collection] = missing;
    }
  }

  /**
   * Applies the differences with the sync's record and what it changed (counted as the merge and
   * the deletes go): in one transaction, or past `itemsPerWrite` of them in parts, the deletions
   * first, that the organization's readers wait for (SyncSteps.applyInParts). Finding none, it
   * writes the record alone, keeping the caches derived from the data. Answers the changes
   * recorded, in brief.
   */
  async apply(success: SyncSuccess, itemsPerWrite: number, signal?: AbortSignal): Promise<SyncChangesSummary | undefined> {
    const { store, organization } = this;
    const recorded: SyncSuccess = { ...success, reconcileChanged: this.count };
    if (this.count === 0) return store.syncSteps.recordUnchanged(organization, recorded);
    // Texts and CVE ids no finding uses any more stay, as after an incremental sync's merge, until
    // a full sync replaces the inventory: dropping them is a pass over every text and CVE.
    if (this.count <= itemsPerWrite) {
      return store.syncSteps.apply(organization, recorded, (writes, inventoryId, tally) => {
        for (const collection of syncOrder) store.replicaComparison.remove(inventoryId, collection, this.removed[collection], tally);
        writes.merge(inventoryId, this.changes.inventory, tally);
      });
    }
    const removals = syncOrder.flatMap((collection) =>
      inSlices(this.removed[collection], itemsPerWrite).map((ids): InventoryChange => (_writes, inventoryId, tally) => store.replicaComparison.remove(inventoryId, collection, ids, tally)),
    );
    const merges = this.changes.parts(itemsPerWrite).map((part): InventoryChange => (writes, inventoryId, tally) => void writes.merge(inventoryId, part, tally));
    return store.syncSteps.applyInParts(organization, recorded, [...removals, ...merges], () => betweenParts(signal));
  }
}

/** `items` in consecutive slices of at most `size`. */
function inSlices<T>(items: readonly T[], size: number): T[][] {
  const slices: T[][] = [];
  for (let start = 0; start < items.length; start += size) slices.push(items.slice(start, start + size));
  return slices;
}

/**
 * A page's ids as stored (lowercase), or the first that comes twice in it: among its valid items,
 * or an invalid item's id that a valid one has too.
 */
export function idsOfPage(items: readonly { id: string }[], invalidIds: readonly string[]): { ids: Set<string> } | { repeatedId: string } {
  const ids = new Set<string>();
  for (const item of items) {
    const id = item.id.toLowerCase();
    if (ids.has(id)) return { repeatedId: id };
    ids.add(id);
  }
  const repeatedId = invalidIds.find((id) => ids.has(id.toLowerCase()));
  return repeatedId === undefined ? { ids } : { repeatedId };
}
