import type { CollectionName } from '../../../contracts/collections.js';
import type { Database } from '../engine/database.js';
import { type InventoryTable, inventoryIdsIn, inventoryTables, tableOf } from '../basics/inventory-ids.js';
import type { InventoryWrites } from './inventory-writes.js';
import { compactFreePages } from './page-compaction.js';
import { RowsPerWrite, defaultWriteMs } from './rows-per-write.js';
import { type OrderingContext, copyInOrder, defaultOrderOf } from './staged-order.js';
import { nextTurn } from '../engine/next-turn.js';

/**
 * A write through `Store.write` that keeps the caches derived from the data and need not be
 * durable: it touches only rows no reader can reach (an inventory no organization points at),
 * and a crash that loses it leaves them to the next start's collection.
 */
export type QuietWrite = <T>(work: (writes: InventoryWrites) => T) => T;

/**
 * The store's inventories, beside the organizations that point at them: fresh ids for a new
 * organization or a sync to stage under, putting a staged collection in order, and collection:
 * the deletion, in the background, of the inventories nobody points at any more (replaced by a
 * full sync, of a removed organization, or staged by a sync that failed or died with its
 * process). Every chunk of that work is its own short write, with a turn of the event loop
 * after it, so that no request waits behind a million deletes.
 */
export class Inventories {
  /** The highest id handed out by this process: an id is never handed out twice. */
  private highest = 0;
  /** Ids that syncs of this process stage under: collection leaves them alone. */
  private readonly staging = new Set<number>();
  private collecting: Promise<void> | undefined;
  private collectAgain = false;
  /** Rows a move takes per write, and a delete outside collection. */
  private readonly rowsPerWrite = new RowsPerWrite(250, 4_000);

  constructor(
    private readonly db: Database,
    private readonly write: QuietWrite,
    private readonly isOpen: () => boolean,
  ) {}

  /** An id no organization points at and no row is stored under. */
  allocate(): number {
    let highest = Number(this.db.value('SELECT max(inventory_id) FROM organizations') ?? 0);
    for (const table of inventoryTables) highest = Math.max(highest, Number(this.db.value(`SELECT max(org_id) FROM ${table}`) ?? 0));
    this.highest = Math.max(this.highest, highest) + 1;
    return this.highest;
  }

  /** A fresh inventory for a full sync to stage under: collection leaves it alone until {@link release}. */
  stage(): number {
    const inventoryId = this.allocate();
    this.staging.add(inventoryId);
    return inventoryId;
  }

  /** Ends a staging: the inventory is then an organization's (after the swap), or left to collection. */
  release(inventoryId: number): void {
    this.staging.delete(inventoryId);
  }

  /** The inventories with rows that no organization points at and no sync of this process stages. */
  orphans(): number[] {
    const live = new Set((this.db.column('SELECT inventory_id FROM organizations') as number[]).concat([...this.staging]));
    const found = new Set(inventoryTables.flatMap((table) => inventoryIdsIn(this.db, table)));
    return [...found].filter((inventoryId) => !live.has(inventoryId));
  }

  /** Deletes an inventory's rows of the given collections, a chunk per write. */
  async delete(inventoryId: number, collections: readonly CollectionName[]): Promise<void> {
    for (const collection of collections) await this.deleteRows(tableOf[collection], inventoryId, this.rowsPerWrite);
  }

  /**
   * Deletes the rows of every orphan inventory (see {@link orphans}), then the CVE ids and texts
   * no finding uses any more, then gives the pages they held back (page-compaction.ts). One collection runs at a time: asked again meanwhile, it makes
   * another pass when done, and the promise resolves after it. A store that closes stops it
   * between two chunks; what is left goes at the next collection.
   *
   * `writeMs`: how long each of its writes aims to take. A process that answers requests meanwhile
   * keeps the default; the command line, which answers none, passes its sync's longer writes
   * (docs/decisions/sync/the-command-line-stages-in-writes-of-250-ms.md). A call that joins a
   * collection under way goes at that collection's pace.
   */
  collect(writeMs = defaultWriteMs): Promise<void> {
    if (this.collecting) {
      this.collectAgain = true;
      return this.collecting;
    }
    this.collecting = (async () => {
      // Past this await `collecting` is set, so the finally below always clears it.
      await Promise.resolve();
      try {
        const rowsPerWrite = RowsPerWrite.paced(250, 4_000, writeMs);
        do {
          this.collectAgain = false;
          if (!this.isOpen()) return;
          const orphans = this.orphans();
          for (const inventoryId of orphans) for (const table of inventoryTables) await this.deleteRows(table, inventoryId, rowsPerWrite);
          if (orphans.length > 0 && this.isOpen()) this.write((writes) => writes.dropUnusedTexts());
        } while (this.collectAgain);
        await compactFreePages(this.db, (work) => this.write(work), this.isOpen, writeMs);
      } finally {
        this.collecting = undefined;
      }
    })();
    return this.collecting;
  }

  /**
   * Puts a staged inventory's rows of a collection in the lists' default order, for a remote
   * whose pages did not come in it: copies them in order under a spare id, deletes the
   * originals and moves the copies back, a chunk per write (staged-order.ts). An aborted
   * `signal` stops it between two chunks.
   */
  async putInDefaultOrder(inventoryId: number, collection: CollectionName, signal?: AbortSignal): Promise<void> {
    const table = tableOf[collection];
    const pause = async () => {
      await nextTurn();
      signal?.throwIfAborted();
    };
    const context: OrderingContext = { db: this.db, write: (work) => this.write(() => work()), pause };
    const order = await defaultOrderOf(context, table, inventoryId);
    const spare = this.stage();
    try {
      await copyInOrder(context, table, order, spare);
      await this.deleteRows(table, inventoryId, this.rowsPerWrite);
      await this.moveRows(table, spare, inventoryId);
    } finally {
      this.release(spare);
    }
  }

  private async deleteRows(table: InventoryTable, inventoryId: number, rowsPerWrite: RowsPerWrite): Promise<void> {
    while (this.isOpen()) {
      const rows = rowsPerWrite.size;
      const deleted = this.timed(rowsPerWrite, () => this.db.run(`DELETE FROM ${table} WHERE seq IN (SELECT seq FROM ${table} WHERE org_id = ? LIMIT ?)`, [inventoryId, rows]));
      await nextTurn();
      if (deleted < rows) return;
    }
  }

  /** Moves an inventory's rows to another id, keeping their seq (and so their order). */
  private async moveRows(table: InventoryTable, from: number, to: number): Promise<void> {
    for (;;) {
      const rows = this.rowsPerWrite.size;
      const moved = this.timed(this.rowsPerWrite, () =>
        this.db.run(`UPDATE ${table} SET org_id = ? WHERE seq IN (SELECT seq FROM ${table} WHERE org_id = ? ORDER BY seq LIMIT ?)`, [to, from, rows]),
      );
      await nextTurn();
      if (moved < rows) return;
    }
  }

  /** A quiet write of `work`, its time told to `rowsPerWrite`. */
  private timed(rowsPerWrite: RowsPerWrite, work: () => number): number {
    const started = performance.now();
    const changed = this.write(work);
    rowsPerWrite.took(performance.now() - started);
    return changed;
  }
}
