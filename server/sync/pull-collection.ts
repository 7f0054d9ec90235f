import type { RemoteTenant } from '../remote/remote-tenant.js';
import type { Inventory } from '../../contracts/inventory.js';
import { PageTooHeavyError } from './remote-pages.js';
import { type CollectionName, collections } from '../../contracts/collections.js';
import { RemoteRefusedError, SyncFailedError, remoteFailureMessage } from './sync-errors.js';
import type { ListPages, RemotePages } from './fetching-thread.js';
import type { FetchedPage, ListRequest } from './fetching-thread-channel.js';
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
  /** The sync's requests of the remote's lists, on the fetching thread: its window of pages in flight carries over from pull to pull. */
  remotePages: RemotePages;
  /** The page size the sync asks, shared by its pulls: a refused size is not asked again. */
  pageSize: PageSize;
  /** Only items updated at or after this time (the `updatedSince` extension). */
  updatedSince?: string;
  signal?: AbortSignal;
  onPage?: (fetched: number, total: number) => void;
}

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
  const { remote, remotePages, signal } = options;
  const { v1Path: path } = collections[collection];
  const since = options.updatedSince === undefined ? '' : `&updatedSince=${encodeURIComponent(options.updatedSince)}`;
  const limit = options.pageSize.limit;
  const request = (from: number, stride: number, end: number): ListRequest => ({ collection, before: `${path}?limit=${limit}&offset=`, after: since, from, stride, end });
  const nextOf = async (pages: ListPages): Promise<FetchedPage<C>> => {
    try {
      return (await pages.next()) as FetchedPage<C>;
    } catch (error) {
      const refused = (error instanceof RemoteRefusedError && error.status === 400) || error instanceof PageTooHeavyError;
      if (refused && options.pageSize.refused(limit)) throw new SmallerPagesError();
      if (error instanceof PageTooHeavyError && remotePages.heavier()) throw new SmallerPagesError();
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

  const take = async (page: FetchedPage<C>, total: number): Promise<void> => {
    const invalidIds: string[] = [];
    for (const id of page.invalidIds) {
      skippedCount++;
      if (id === null) continue;
      if (skippedSeen.has(id)) throw new ShiftedError(`the id ${id} came twice`);
      skippedSeen.add(id);
      invalidIds.push(id);
      if (skippedIds.length < skippedIdsKept) skippedIds.push(id);
    }
    // A valid item may repeat an invalid one of this page or of a page before.
    const early = skippedSeen.size === 0 ? undefined : page.items.find((item) => skippedSeen.has(item.id.toLowerCase()));
    if (early) throw new ShiftedError(`the id ${early.id.toLowerCase()} came twice`);
    const repeated = await sink.add(page.items, invalidIds);
    if (repeated !== undefined) throw new ShiftedError(`the id ${repeated} came twice`);
    count += page.items.length;
    fetched += page.length;
    options.onPage?.(fetched, total);
  };

  // The first page tells the total and the remote's page size (it may cap below ours).
  const listName = collections[collection].labels.title.toLowerCase();
  options.pages.take(1, remote, path, () => `the first page of ${listName}`);
  const firstPages = remotePages.list(request(0, 1, 1), signal);
  let first: FetchedPage<C>;
  try {
    first = await nextOf(firstPages);
  } finally {
    firstPages.stop();
  }
  const { total } = first;
  const stride = first.length;
  if (stride === 0 && total > 0) throw new ShiftedError(`the list ended after 0 of ${total} items`);
  if (stride > total) throw new ShiftedError(`${stride} items arrived where the total said ${total}`);
  const pagesLeft = stride === 0 ? 0 : Math.ceil((total - stride) / stride);
  options.pages.take(pagesLeft, remote, path, () => `${total} ${listName} in pages of ${stride} would take ${pagesLeft + 1} pages`);
  await take(first, total);
  if (pagesLeft === 0) return ended(sink, { count, skippedCount, skippedIds });

  // The rest is requested by the fetching thread as the sync's window allows (page-window.ts), so
  // that the remote's answer time, not our work, bounds a sync: pages arrive and are validated
  // there while this thread writes the ones before them, and come here in order. Each offset is
  // computed as its page is requested: a total, however large, allocates nothing.
  // Pages that arrived meanwhile are taken one after another in microtasks, never giving the
  // event loop a turn: a turn once a slice of the thread's time is spent, so that other requests
  // are answered between pages (a reconcile compares each page with the replica's rows).
  const rest = remotePages.list(request(stride, stride, total), signal);
  const slices = new TimeSlices(() => signal?.throwIfAborted());
  try {
    for (let offset = stride; offset < total; offset += stride) {
      const page = await nextOf(rest);
      if (page.total !== total) throw new ShiftedError(`the total went from ${total} to ${page.total}`);
      const expected = Math.min(stride, total - offset);
      if (page.length < expected) throw new ShiftedError(`the list ended after ${offset + page.length} of ${total} items`);
      if (page.length > expected) throw new ShiftedError(`more items arrived than the total of ${total}`);
      await take(page, total);
      await slices.pause();
    }
  } finally {
    // The pull ended (or failed): the pages still in flight are not wanted.
    rest.stop();
  }
  return ended(sink, { count, skippedCount, skippedIds });
}

/** Has the sink take in what it still holds: answers what was pulled, or fails when an id came twice. */
async function ended<C extends CollectionName>(sink: CollectionSink<C>, pulled: PulledCollection): Promise<PulledCollection> {
  const repeated = await sink.end();
  if (repeated !== undefined) throw new ShiftedError(`the id ${repeated} came twice`);
  return pulled;
}
