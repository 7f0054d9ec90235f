import type { Database } from '../engine/database.js';
import { RowsPerWrite, defaultWriteMs } from './rows-per-write.js';
import { nextTurn } from '../engine/next-turn.js';

/**
 * Compaction starts once free pages pass this share of the file: a full sync's collection frees
 * about half of it; the few pages an ordinary delete frees wait for the next writes to reuse them.
 */
const compactFromShare = 0.05;

/** The database's pages and those among them that are free. */
export function pageCounts(db: Database): { pages: number; free: number } {
  return { pages: Number(db.value('PRAGMA page_count')), free: Number(db.value('PRAGMA freelist_count')) };
}

/**
 * Gives the free pages back, once they pass {@link compactFromShare} of the file (after a full
 * sync's collection, the old inventory's pages): `PRAGMA incremental_vacuum` moves pages from
 * the end of the file into free ones and cuts the file after them, 256 to 8,192 pages per
 * write (as many as keep a write near 20 ms), with a turn of the event loop after each, so
 * that no request waits behind it (docs/decisions/sync/a-full-sync-gives-its-pages-back.md).
 * The store is in `auto_vacuum = INCREMENTAL` (Database.open). Each write is `write`'s: held,
 * not fsynced, as collection's own (a crash loses the slices not logged yet, and the next
 * collection compacts again). The change log carries each cut as a truncation, which the
 * checkpoint applies to the snapshot on disk. Stops between two writes once `isOpen` says no.
 * `writeMs`: how long a write aims to take (Inventories.collect's); the most pages a write moves grows with it.
 */
export async function compactFreePages(db: Database, write: (work: () => void) => void, isOpen: () => boolean, writeMs = defaultWriteMs): Promise<void> {
  const { pages, free } = pageCounts(db);
  if (free <= pages * compactFromShare) return;
  // Each cut hands the pages held before it to the log at once (held-pages.ts): collection's,
  // up to 128 MiB, go first, a slice per turn of the event loop.
  await db.settle();
  // The smallest step: 256 pages (1 MiB of 4 KiB pages), about 8 ms at the 30 µs a page moved measured on a small table.
  const pagesPerWrite = RowsPerWrite.paced(256, 8_192, writeMs);
  while (isOpen()) {
    const left = pageCounts(db).free;
    if (left === 0) return;
    const moved = Math.min(left, pagesPerWrite.size);
    const started = performance.now();
    write(() => db.exec(`PRAGMA incremental_vacuum(${moved})`));
    pagesPerWrite.took(performance.now() - started);
    await nextTurn();
  }
}
