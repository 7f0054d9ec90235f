import type { Response } from 'express';
import type { CollectionName } from '../../../contracts/collections.js';
import type { IdPage } from '../../store/basics/id-page.js';
import type { Store } from '../../store/store.js';

/**
 * The JSON of a page of ids, as the list envelope holds it: each item is the JSON of the v1
 * resource with the console's own fields (contracts/collections.ts, `consoleFields`), a
 * finding's age and whether it is overdue as of `asOf` (the instant the list was filtered at).
 */
export async function pageJson(
  store: Store,
  collection: CollectionName,
  orgRowId: number,
  page: IdPage,
  paging: { limit: number; offset: number },
  asOf = store.deadlines.asOf(),
): Promise<string> {
  const items = await store.consoleItems.get(collection, orgRowId, page.ids, asOf);
  return `{"data":[${items.join(',')}],"total":${page.total},"limit":${paging.limit},"offset":${paging.offset}}`;
}

/** Sends JSON the store has already serialized. */
export function sendJson(res: Response, json: string): void {
  res.type('application/json').send(json);
}
