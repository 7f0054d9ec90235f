import { collectionSchemas } from '../../contracts/collections.js';
import type { FetchedPage, ListRequest } from './fetching-thread-channel.js';
import type { RawPage } from './remote-pages.js';

/** The longest id of a skipped item that is remembered and reported: longer than a uuid's 36 characters, and bounded. */
const longestId = 64;

/**
 * A page's items validated against their collection's input schema: the valid ones, and the
 * ids of the others (null for an id that is no string, or longer than any uuid: it is neither
 * remembered nor recorded). Where the page was fetched, the fetching thread or the sync's own.
 */
export function validatedPage(request: ListRequest, offset: number, raw: RawPage): FetchedPage {
  const schema = collectionSchemas[request.collection].input;
  const items: FetchedPage['items'] = [];
  const invalidIds: (string | null)[] = [];
  for (const item of raw.data) {
    const parsed = schema.safeParse(item);
    if (parsed.success) {
      items.push(parsed.data);
      continue;
    }
    const rawId = (item as { id?: unknown } | null)?.id;
    invalidIds.push(typeof rawId === 'string' && rawId.length <= longestId ? rawId.toLowerCase() : null);
  }
  return { offset, total: raw.total, length: raw.data.length, bytes: raw.bytes, items, invalidIds };
}
