import type { RemoteTenant } from '../remote/remote-tenant.js';
import type { Inventory } from '../../contracts/inventory.js';
import { type RawPage, fetchPage } from './remote-pages.js';
import { type CollectionName, collectionSchemas, collections } from '../../contracts/collections.js';
import { SyncFailedError } from './sync-errors.js';
import type { SyncPolicy } from './sync-policy.js';

/** A collection as pulled: valid items, and what was skipped as invalid. */
export interface PulledCollection<C extends CollectionName> {
  items: Inventory[C];
  skippedCount: number;
  /** Ids of the skipped items that had one. */
  skippedIds: string[];
}

/** What pulling one collection needs. */
export interface PullOptions {
  remote: RemoteTenant;
  policy: SyncPolicy;
  /** Only items updated at or after this time (the `updatedSince` extension). */
  updatedSince?: string;
  signal?: AbortSignal;
  onPage?: (fetched: number, total: number) => void;
}

/** The remote's data changed while it was paged: the pages read do not make one consistent list. */
class ShiftedError extends Error {}

/**
 * Pages through one collection and validates every item. When the remote's data shifts under
 * the paging (the total changes, an id comes twice, fewer items than the total arrive) the
 * whole collection is read again, a bounded number of times.
 */
export async function pullCollection<C extends CollectionName>(collection: C, options: PullOptions): Promise<PulledCollection<C>> {
  let reason = '';
  for (let attempt = 1; attempt <= options.policy.collectionAttempts; attempt++) {
    try {
      return await pullOnce(collection, options);
    } catch (error) {
      if (!(error instanceof ShiftedError)) throw error;
      reason = error.message;
    }
  }
  throw new SyncFailedError(
    `The remote's ${collection} changed while they were paged, ${options.policy.collectionAttempts} times in a row (last: ${reason})`,
  );
}

async function pullOnce<C extends CollectionName>(collection: C, options: PullOptions): Promise<PulledCollection<C>> {
  const { v1Path: path } = collections[collection];
  const schema = collectionSchemas[collection].input;
  const since = options.updatedSince === undefined ? '' : `&updatedSince=${encodeURIComponent(options.updatedSince)}`;
  const fetchAt = (offset: number) =>
    fetchPage(options.remote, `${path}?limit=${options.policy.pageSize}&offset=${offset}${since}`, options.policy, options.signal);
  const seen = new Set<string>();
  const skippedIds: string[] = [];
  let skippedCount = 0;
  let fetched = 0;

  const accept = (page: RawPage): Inventory[C][number][] => {
    const items: Inventory[C][number][] = [];
    for (const raw of page.data) {
      const rawId = (raw as { id?: unknown } | null)?.id;
      const id = typeof rawId === 'string' ? rawId.toLowerCase() : undefined;
      if (id !== undefined) {
        if (seen.has(id)) throw new ShiftedError(`the id ${id} came twice`);
        seen.add(id);
      }
      const parsed = schema.safeParse(raw);
      if (parsed.success) items.push(parsed.data);
      else {
        skippedCount++;
        if (id !== undefined) skippedIds.push(id);
      }
    }
    fetched += page.data.length;
    return items;
  };

  // The first page tells the total and the remote's page size (it may cap below ours).
  const first = await fetchAt(0);
  const { total } = first;
  const stride = first.data.length;
  const pages = [accept(first)];
  options.onPage?.(fetched, total);
  if (stride === 0 && total > 0) throw new ShiftedError(`the list ended after 0 of ${total} items`);
  if (stride > total) throw new ShiftedError(`${stride} items arrived where the total said ${total}`);
  const offsets: number[] = [];
  for (let offset = stride; offset < total; offset += stride) offsets.push(offset);

  // Several pages in flight: a remote's answer time, not our work, bounds a sync.
  const rest = await inParallel(offsets, options.policy.parallelPages, async (offset) => {
    const page = await fetchAt(offset);
    if (page.total !== total) throw new ShiftedError(`the total went from ${total} to ${page.total}`);
    const expected = Math.min(stride, total - offset);
    if (page.data.length < expected) throw new ShiftedError(`the list ended after ${offset + page.data.length} of ${total} items`);
    if (page.data.length > expected) throw new ShiftedError(`more items arrived than the total of ${total}`);
    const items = accept(page);
    options.onPage?.(fetched, total);
    return items;
  });
  pages.push(...rest);
  return { items: pages.flat() as Inventory[C], skippedCount, skippedIds };
}

/** Runs `work` on every input with at most `width` at a time; the first failure stops the rest. */
async function inParallel<T, R>(inputs: readonly T[], width: number, work: (input: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(inputs.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < inputs.length) {
      const index = next++;
      try {
        results[index] = await work(inputs[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, inputs.length) }, worker));
  return results;
}
