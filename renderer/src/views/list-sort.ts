import type { ListFilters } from '../api/list-pages';
import type { TableSort } from '../components/virtual-table';

/** A list's `sort` as the URL and the API spell it: a sort key, ascending, or with a leading `-` descending. */
export type SortOrder<K extends string> = K | `-${K}`;

/**
 * The order the server gives a console list without `sort` (`defaultSortKey` of
 * contracts/list-queries.ts, a zod module the renderer cannot import values from).
 */
const serverDefaultSort = 'created_at';

/** The order of the URL's `sort`; absent, the list's default. */
export function tableSort(sort: string | undefined, defaultSort: string): TableSort {
  const text = sort || defaultSort;
  return { key: text.replace(/^-/, ''), descending: text.startsWith('-') };
}

/**
 * The `sort` after a click on a column: the other way round if it is the current order, else
 * the column's first way (ascending, or descending for a figure whose largest values matter
 * most). Empty when that is the list's default, so that the URL of the default order stays bare.
 */
export function nextSort(current: TableSort, column: { sortKey: string; descendingFirst?: boolean }, defaultSort: string): string {
  const descending = current.key === column.sortKey ? !current.descending : Boolean(column.descendingFirst);
  const sort = `${descending ? '-' : ''}${column.sortKey}`;
  return sort === defaultSort ? '' : sort;
}

/**
 * The filters to ask the server for: the view's, and the list's default order when the URL
 * names none and that default is not the server's (the endpoints list shows the riskiest first;
 * the server's default stays the oldest first, for /v1 and every other client).
 */
export function requestFilters(filters: ListFilters, defaultSort: string): ListFilters {
  return filters.sort || defaultSort === serverDefaultSort ? filters : { ...filters, sort: defaultSort };
}
