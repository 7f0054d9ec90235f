import type { Response } from 'express';
import type { CollectionName } from '../../../contracts/collections.js';
import type { IdPage } from '../../store/console-queries.js';
import type { Store } from '../../store/store.js';

/**
 * The JSON of a page of ids, as the v1 list envelope holds it: each item is the JSON of the
 * v1 resource, so the console sees exactly what local tools see.
 */
export function pageJson(store: Store, collection: CollectionName, orgRowId: number, page: IdPage, paging: { limit: number; offset: number }): string {
  const items = page.ids.map((id) => store.inventory.get(collection, orgRowId, id)).filter((json) => json !== undefined);
  return `{"data":[${items.join(',')}],"total":${page.total},"limit":${paging.limit},"offset":${paging.offset}}`;
}

/** Sends JSON the store has already serialized. */
export function sendJson(res: Response, json: string): void {
  res.type('application/json').send(json);
}
