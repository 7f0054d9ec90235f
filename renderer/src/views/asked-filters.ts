import type { CollectionName } from '../../../contracts/collections';
import type { ListFilters } from '../api/list-pages';
import { withDefaultFilters } from '../lib/default-filters';
import { listDefinitions } from './list-definitions';
import { requestFilters } from './list-sort';

/**
 * What a list of a collection asks the server for: its filters with the view's default ones
 * (open findings), in the list's default order when they name none. The list view and a detail
 * page's related list both ask through it, so a related list and the list its link opens count
 * the same items.
 */
export function askedFilters(collection: CollectionName, filters: ListFilters): ListFilters {
  const { defaultView, defaultSort } = listDefinitions[collection];
  return requestFilters(withDefaultFilters(filters, defaultView?.filters ?? {}), defaultSort);
}
