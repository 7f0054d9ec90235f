// What the sync's thread and its fetching thread (fetching-thread.ts, fetching-thread-worker.ts)
// say to each other. Types only: both sides import it.
import type { CollectionName } from '../../contracts/collections.js';
import type { Inventory } from '../../contracts/inventory.js';
import type { RemoteTenant } from '../remote/remote-tenant.js';
import type { SyncPolicy } from './sync-policy.js';

/** The pages of one list a sync asks for: offsets `from`, `from + stride`, … below `end`, each asked as `before + offset + after`. */
export interface ListRequest {
  collection: CollectionName;
  before: string;
  after: string;
  from: number;
  stride: number;
  end: number;
}

/** What the sync's thread tells the fetching thread. */
export type FetchingCommand =
  /**
   * A sync's first list of more than a page: its window of pages in flight (page-window.ts) lives
   * in the fetching thread until `close`; `heavy` when its pages of one page were let weigh up to
   * the bound of a body already (PageWindow.heavier).
   */
  | { type: 'open'; session: number; remote: RemoteTenant; policy: SyncPolicy; heavy: boolean }
  | { type: 'close'; session: number }
  /** Pages a list: its pages come back in order, each as soon as it and those before it arrived. */
  | { type: 'list'; session: number; list: number; request: ListRequest }
  /** The sync took a page of the list (its bytes are free), or stops the list (what is in flight is aborted, what is held freed). */
  | { type: 'took'; session: number; list: number }
  | { type: 'stop'; session: number; list: number }
  /** Pages of the smallest size were heavier than their share: the window lets heavier ones in (PageWindow.heavier), as the sync's own did. */
  | { type: 'heavier'; session: number };

/** A page as the fetching thread read and validated it. */
export interface FetchedPage<C extends CollectionName = CollectionName> {
  offset: number;
  /** The `total` it announced. */
  total: number;
  /** How many items it held, valid or not. */
  length: number;
  /** What its body weighed. */
  bytes: number;
  /** Its valid items, in order. */
  items: Inventory[C][number][];
  /** For each invalid item, its id lowercased, or null when it had none (or one longer than any id). */
  invalidIds: (string | null)[];
}

/** Why a page could not be had, as the sync's thread raises it again (sync-errors.ts, remote-pages.ts). */
export type FetchFailure =
  | { kind: 'sync-failed'; message: string }
  | { kind: 'refused'; message: string; status: number }
  | { kind: 'too-heavy'; message: string }
  | { kind: 'error'; name: string; message: string };

/** What the fetching thread tells the sync's thread. */
export type FetchingEvent =
  | { type: 'page'; session: number; list: number; page: FetchedPage }
  /** The list's next page failed: no page of it comes after. */
  | { type: 'failed'; session: number; list: number; failure: FetchFailure };
