import type { RemoteTenant } from '../remote/remote-tenant.js';
import type { Inventory } from '../../contracts/inventory.js';
import { PageTooHeavyError, type RawPage, fetchPage } from './remote-pages.js';
import { type CollectionName, collectionSchemas, collections } from '../../contracts/collections.js';
import { RemoteRefusedError, SyncFailedError, remoteFailureMessage } from './sync-errors.js';
import type { PageWindow } from './page-window.js';
import type { PageSize } from './page-size.js';
import type { SyncPolicy } from './sync-policy.js';
import { skippedIdsKept } from '../store/records/sync-run-records.js';
import { TimeSlices } from '../store/derived/time-slices.js';

/**
 * Where a pulled collection goes, a page at a time in the remote's order: staged in the store
 * by a full sync, kept in memory by an incremental one.
 */
export interface CollectionSink<C extends CollectionName> {
  /**
   * Takes the next page's valid items, and the ids of its invalid ones; answers an id it held
   * already (the remote's data shifted under the paging), or undefined.
   */
  add(items: Inventory[C][number][], invalidIds: string[]): Promise<string | undefined> | string | undefined;
  /** Takes in what it still holds once the last page was added; answers as {@link add} does. */
  end(): Promise<string | undefined> | string | undefined;
  /** Forgets everything added: the collection is read again from the start. */
  discard(): Promise<void> | void;
}

/** What pulling a collection found, besides the items its sink took. */
export interface PulledCollection {
  /** Valid items the sink took. */
  count: number;
  skippedCount: number;
  /** Ids of the skipped items that had one, the first {@link skippedIdsKept}. */
  skippedIds: string[];
}

/**
 * The pages one sync may still request of its lists ({@link SyncPolicy.pageBudget}), shared by
 * its pulls: a remote cannot keep a sync paging for ever, whatever totals it announces.
 */
export class PageBudget {
  private left: number;

  constructor(private readonly pages: number) {
    this.left = pages;
  }

  /** Takes `count` pages of the list at `path`, or fails saying the bound, before any is requested. */
  take(count: number, remote: RemoteTenant, path: string, what: () => string): void {
    if (count > this.left) {
      const problem = { kind: 'beyond-bound', what: `${what()}, past the ${this.pages.toLocaleString('en-US')} pages one sync may request` } as const;
      throw new SyncFailedError(remoteFailureMessage(remote, problem, path, 1));
    }
    this.left -= count;
  }
}

/** What pulling one collection needs. */
export interface PullOptions {
  remote: RemoteTenant;
  policy: SyncPolicy;
  /** The sync's page budget. */
  pages: PageBudget;
  /** The sync's pages in flight, shared by its pulls: what it learnt of the link carries over. */
  window: PageWindow;
  /** The page size the sync asks, shared by its pulls: a refused size is not asked again. */
  pageSize: PageSize;
  /** Only items updated at or after this time (the `updatedSince` extension). */
  updatedSince?: string;
  signal?: AbortSignal;
  onPage?: (fetched: number, total: number) => void;
}

/** The longest id of a skipped item that is remembered and reported: longer than a uuid's 36 characters, and bounded. */
const longestId = 64;

/** The remote's data changed while it was paged: the pages read do not make one consistent list. */
class ShiftedError extends Error {}

/** The remote refused the page size asked, or a page weighed more than its share: the collection is read again in smaller pages, or fewer heavier ones at a time. */
class SmallerPagesError extends Error {}

/**
 * Pages through one collection, validates every item and hands each page to `sink` in the
 * remote's order. When the remote's data shifts under the paging (the total changes, an id
 * comes twice, fewer items than the total arrive) the sink forgets what it took and the whole
 * collection is read again, a bounded number of times.
 */
export async function pullCollection<C extends CollectionName>(collection: C, sink: CollectionSink<C>, options: PullOptions): Promise<PulledCollection> {
  let reason = '';
  for (let attempt = 1; attempt <= options.policy.collectionAttempts; attempt++) {
    try {
      return await pullOnce(collection, sink, options);
    } catch (error) {
      // Smaller pages are asked once a sync at most (page-size.ts): that attempt does not count.
      if (error instanceof SmallerPagesError) attempt--;
      else if (error instanceof ShiftedError) reason = error.message;
      else throw error;
      await sink.discard();
    }
  }
  throw new SyncFailedError(
    `The remote's ${collection} changed while they were paged, ${options.policy.collectionAttempts} times in a row (last: ${reason})`,
  );
}

async function pullOnce<C extends CollectionName>(collection: C, sink: CollectionSink<C>, options: PullOptions): Promise<PulledCollection> {
  const { remote, policy, window, signal } = options;
  const { v1Path: path } = collections[collection];
  const schema = collectionSchemas[collection].input;
  const since = options.updatedSince === undefined ? '' : `&updatedSince=${encodeURIComponent(options.updatedSince)}`;
  const limit = options.pageSize.limit;
  const fetchAt = async (offset: number) => {
    try {
      return await fetchPage(remote, `${path}?limit=${limit}&offset=${offset}${since}`, policy, signal, window);
    } catch (error) {
      const refused = (error instanceof RemoteRefusedError && error.status === 400) || error instanceof PageTooHeavyError;
      if (refused && options.pageSize.refused(limit)) throw new SmallerPagesError();
      if (error instanceof PageTooHeavyError && window.heavier()) throw new SmallerPagesError();
      throw error;
    }
  };
  // Only the invalid items' ids are remembered here: the sink finds a valid id that comes twice
  // (the store's unique index, for a million findings), so no set of every id is held.
  const skippedSeen = new Set<string>();
  const skippedIds: string[] = [];
  let skippedCount = 0;
  let count = 0;
  let fetched = 0;

  const take = async (page: RawPage, total: number): Promise<void> => {
    const items: Inventory[C][number][] = [];
    const invalidIds: string[] = [];
    for (const raw of page.data) {
      const rawId = (raw as { id?: unknown } | null)?.id;
      // An id longer than any uuid is no id: it is neither remembered nor recorded.
      const id = typeof rawId === 'string' && rawId.length <= longestId ? rawId.toLowerCase() : undefined;
      if (id !== undefined && skippedSeen.has(id)) throw new ShiftedError(`the id ${id} came twice`);
      const parsed = schema.safeParse(raw);
      if (parsed.success) items.push(parsed.data);
      else {
        skippedCount++;
        if (id === undefined) continue;
        skippedSeen.add(id);
        invalidIds.push(id);
        if (skippedIds.length < skippedIdsKept) skippedIds.push(id);
      }
    }
    // An invalid item of this page may repeat a valid one before it in the page.
    const early = items.find((item) => skippedSeen.has(item.id.toLowerCase()));
    if (early) throw new ShiftedError(`the id ${early.id.toLowerCase()} came twice`);
    const repeated = await sink.add(items, invalidIds);
    if (repeated !== undefined) throw new ShiftedError(`the id ${repeated} came twice`);
    count += items.length;
    fetched += page.data.length;
    options.onPage?.(fetched, total);
  };

  // The first page tells the total and the remote's page size (it may cap below ours).
  const listName = collections[collection].labels.title.toLowerCase();
  options.pages.take(1, remote, path, () => `the first page of ${listName}`);
  window.enter();
  let first: RawPage | undefined;
  try {
    first = await fetchAt(0);
  } finally {
    window.leave(first !== undefined);
  }
  const { total } = first;
  const stride = first.data.length;
  if (stride === 0 && total > 0) throw new ShiftedError(`the list ended after 0 of ${total} items`);
  if (stride > total) throw new ShiftedError(`${stride} items arrived where the total said ${total}`);
  const pagesLeft = stride === 0 ? 0 : Math.ceil((total - stride) / stride);
  options.pages.take(pagesLeft, remote, path, () => `${total} ${listName} in pages of ${stride} would take ${pagesLeft + 1} pages`);
  await take(first, total);

  const fetchChecked = async (offset: number): Promise<RawPage> => {
    const page = await fetchAt(offset);
    if (page.total !== total) throw new ShiftedError(`the total went from ${total} to ${page.total}`);
    const expected = Math.min(stride, total - offset);
    if (page.data.length < expected) throw new ShiftedError(`the list ended after ${offset + page.data.length} of ${total} items`);
    if (page.data.length > expected) throw new ShiftedError(`more items arrived than the total of ${total}`);
    return page;
  };
  // Pages in flight as the window allows (page-window.ts), so that the remote's answer time, not
  // our work, bounds a sync; a page that arrives makes room for the next request at once, while
  // the pages before it are validated and staged. Pages are taken in order, from a queue of the
  // pages in flight and those arrived: at most the window's bound in all, which is what memory
  // holds. Each offset is computed as its page is requested: a total, however large, allocates nothing.
  const queue: Promise<RawPage>[] = [];
  let nextOffset = stride;
  let stopped = false;
  const fill = () => {
    while (!stopped && nextOffset < total && window.hasRoom && queue.length < window.bound) {
      window.enter();
      const page = fetchChecked(nextOffset);
      nextOffset += stride;
      // Its failure is also handled here: one after an earlier failure is no unhandled rejection.
      page.then(
        () => {
          window.leave(true);
          fill();
        },
        () => window.leave(false),
      );
      queue.push(page);
    }
  };
  // Pages that arrived meanwhile are taken one after another in microtasks, never giving the
  // event loop a turn: a turn once a slice of the thread's time is spent, so that other requests
  // are answered between pages (a reconcile compares each page with the replica's rows).
  const slices = new TimeSlices(() => signal?.throwIfAborted());
  try {
    fill();
    while (queue.length > 0) {
      const page = await queue.shift()!;
      fill();
      await take(page, total);
      await slices.pause();
    }
  } finally {
    // The pull ended (or failed): the pages still in flight ask for no more.
    stopped = true;
  }
  const repeated = await sink.end();
  if (repeated !== undefined) throw new ShiftedError(`the id ${repeated} came twice`);
  return { count, skippedCount, skippedIds };
}
