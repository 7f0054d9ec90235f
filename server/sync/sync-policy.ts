import { listTotalBound, pageBodyMaxBytes, pagesHeldMaxBytes, syncPageBudget } from '../remote/remote-bounds.js';
import { bulkLoadRows } from '../store/basics/bulk-load.js';

/** How a sync talks to a remote and when it gives up; every figure can be set for tests. */
export interface SyncPolicy {
  /** How long one request may take, body included. */
  requestTimeoutMs: number;
  /** Attempts of one request before the sync fails (network errors, timeouts, 429, 5xx, malformed pages). */
  requestAttempts: number;
  /** First backoff delay; it doubles with each attempt, with jitter. */
  backoffBaseMs: number;
  /** Longest backoff delay. */
  backoffMaxMs: number;
  /** Longest wait a Retry-After header can impose: a remote cannot stall a sync for hours. */
  retryAfterMaxMs: number;
  /** Attempts of a whole collection whose data shifted while it was paged. */
  collectionAttempts: number;
  /**
   * A reconcile runs after this many incremental syncs, so that deletions reach the replica
   * (a full sync did, before reconciles: it writes the whole inventory again, a reconcile what differs).
   */
  fullSyncEvery: number;
  /** Subtracted from the last success's start for incremental syncs: clock skew and slow commits. */
  incrementalMarginMs: number;
  /**
   * Most changes an incremental sync (or differences a reconcile) holds in memory and merges (in
   * one transaction, or in parts past {@link mergeItemsPerWrite}); past it the sync turns full,
   * which stages page by page, so that memory stays bounded whatever the change.
   */
  incrementalMaxItems: number;
  /**
   * The page size asked first: larger than the specification's maximum, for a remote that allows
   * it (fewer round trips); a remote that refuses it is asked {@link specPageSize} (page-size.ts).
   */
  pageSize: number;
  /** The specification's maximum `limit`, asked once a remote refused {@link pageSize}. */
  specPageSize: number;
  /** Pages in flight when a sync starts; the window grows from there as the throughput does (page-window.ts). */
  pagesInFlightAtFirst: number;
  /**
   * The most pages in flight at once, ever: polite to the remote. A pull holds up to twice
   * as many, in flight and arrived, within {@link pagesHeldMaxBytes} together (page-window.ts).
   */
  pagesInFlightBound: number;
  /** The largest `total` a list may announce (remote-bounds.ts). */
  listTotalBound: number;
  /** The most pages one sync requests of its lists, over every collection and every attempt of one. */
  pageBudget: number;
  /** The most bytes of one page's body. */
  pageMaxBytes: number;
  /**
   * The most bytes of the pages a sync holds at once, in flight and arrived: each page's cap is
   * this over the pages in flight, until a page of the smallest size needs more (page-window.ts).
   */
  pagesHeldMaxBytes: number;
  /**
   * How long one write of a full sync's staging aims to take (rows-per-write.ts). A process that
   * answers requests while it syncs (`serve`, the desktop app) makes them wait no longer than
   * this; a longer write rewrites the index pages its rows share fewer times in all.
   */
  stagedWriteMs: number;
  /**
   * The most changes (or differences) one write of a sync's merge applies: past it the merge
   * goes in parts, a turn of the event loop between them, its organization's readers held until
   * the last (SyncSteps.applyInParts). At about 80 µs an item in `serve` on `large`, 250 keeps a
   * part near 20 ms; the command line, which answers no request, merges in one transaction.
   */
  mergeItemsPerWrite: number;
  /**
   * Past {@link incrementalMaxItems} differences, a full sync of a replica that holds data
   * replaces it in place (replica-replacement.ts): it deletes the rows the remote no longer has,
   * then pulls the remote again and merges it page by page, so that memory and the file hold one
   * inventory, not a staged copy beside it. Its readers would wait for the whole of it, and a
   * failure leaves the replica partly synced, so only a process that answers no request does it:
   * the command line. Otherwise it stages.
   */
  replaceInPlace: boolean;
  /**
   * From this many rows deleted and items differing on, a replacement in place drops the
   * inventory tables' indexes but those by id, and builds them again once the rows are merged.
   */
  rebuildIndexesFromRows: number;
}

/** The product's policy. */
export const defaultSyncPolicy: SyncPolicy = {
  requestTimeoutMs: 30_000,
  requestAttempts: 6,
  backoffBaseMs: 500,
  backoffMaxMs: 30_000,
  retryAfterMaxMs: 120_000,
  collectionAttempts: 3,
  fullSyncEvery: 10,
  incrementalMarginMs: 10 * 60_000,
  incrementalMaxItems: 50_000,
  pageSize: 1_000,
  specPageSize: 100,
  pagesInFlightAtFirst: 4,
  pagesInFlightBound: 16,
  listTotalBound,
  pageBudget: syncPageBudget,
  pageMaxBytes: pageBodyMaxBytes,
  pagesHeldMaxBytes,
  stagedWriteMs: 20,
  mergeItemsPerWrite: 250,
  replaceInPlace: false,
  rebuildIndexesFromRows: bulkLoadRows,
};

/**
 * How long a bulk write of the command line's collection aims to take (the deletes of a replaced
 * inventory, the pages given back): its process answers no request meanwhile, so its writes
 * take 250 ms each rather than 20; docs/decisions/sync/the-command-line-stages-in-writes-of-250-ms.md.
 */
export const commandLineWriteMs = 250;

/**
 * How long a write of the command line's staging aims to take. At 250 ms, the staging's rows
 * and the pages each write dirties set the command's peak; since the pages are fetched on a
 * thread of their own, 100 ms takes as long (a full sync of `large` 56.0–61.0 s against
 * 55.0–56.0 s) with a peak 35–50 MiB lower (1,033–1,037 MiB against 1,068–1,089);
 * docs/decisions/sync/the-command-line-stages-in-writes-of-250-ms.md, "Since".
 */
export const commandLineStagedWriteMs = 100;

/**
 * What the command line changes in the product's policy: its staging's pace,
 * {@link commandLineStagedWriteMs}, a merge in one transaction whatever its size, and a full
 * sync past the differences a sync keeps in memory that replaces the replica in place (no reader
 * waits on either).
 */
export const commandLineSyncPolicy: Partial<SyncPolicy> = { stagedWriteMs: commandLineStagedWriteMs, mergeItemsPerWrite: Number.POSITIVE_INFINITY, replaceInPlace: true };

/** The delay before retry number `attempt` (1 = first retry): exponential, with "equal jitter". */
export function backoffDelay(attempt: number, policy: SyncPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** (attempt - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}

/**
 * The wait a Retry-After header asks for, in milliseconds (seconds or an HTTP date), capped by
 * the policy; undefined when the header is absent or unreadable.
 */
export function retryAfterDelay(header: string | null, policy: SyncPolicy, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, policy.retryAfterMaxMs);
}

/** Waits, or rejects as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
