import type { QueryKey } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { type CollectionItems, type CollectionPath, listFiltersOf, pageSize } from '../api/collections';
import { listPageQuery } from '../api/console-queries';
import { CsvExportButton } from '../components/csv-export-button';
import { FilterBar } from '../components/filter-bar';
import { type TableSort, VirtualTable } from '../components/virtual-table';
import { useQuery } from '@tanstack/react-query';
import { paths } from '../lib/paths';
import { listDefinitions } from './list-definitions';

const wholeNumber = (value: string | null) => (value && /^\d{1,9}$/.test(value) ? Number(value) : undefined);

/** The order of the URL's `sort` (`key` or `-key`); absent, the lists' default, oldest first. */
function tableSort(sort: string | undefined): TableSort {
  const text = sort ?? 'created_at';
  return { key: text.replace(/^-/, ''), descending: text.startsWith('-') };
}

/** The `sort` after a click on a column: the other way round if it is the current one, else ascending. */
function nextSort(current: TableSort, key: string): string {
  const descending = current.key === key && !current.descending;
  return key === 'created_at' && !descending ? '' : `${descending ? '-' : ''}${key}`;
}

/** The pages a list view asks for first, from its URL: the first (its total) and the one its scroll position falls on. */
export function firstListPages(slug: string, collection: CollectionPath, search: URLSearchParams) {
  const filters = listFiltersOf(collection, search);
  const anchor = Math.floor((wholeNumber(search.get('offset')) ?? 0) / pageSize) * pageSize;
  return [...new Set([0, anchor])].map((offset) => listPageQuery(slug, collection, filters, offset));
}

/**
 * A list of one collection: filters, sort, scroll position (`offset`) and selected row (`row`)
 * live in the URL, so that a view can be bookmarked and the back button restores it.
 */
export function ListView<C extends CollectionPath>({ slug, collection }: { slug: string; collection: C }) {
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const definition = listDefinitions[collection];
  const filters = useMemo(() => listFiltersOf(collection, search), [collection, search]);
  const filterKey = JSON.stringify(filters);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- filterKey stands for filters: a new object with the same filters must not refetch.
  const pageQuery = useCallback((offset: number) => listPageQuery(slug, collection, filters, offset), [slug, collection, filterKey]);
  const first = useQuery(pageQuery(0));

  const setFilter = useCallback(
    (name: string, value: string) =>
      setSearch((previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set(name, value);
        else next.delete(name);
        next.delete('offset');
        next.delete('row');
        return next;
      }),
    [setSearch],
  );
  const onViewChange = useCallback(
    ({ topRow, activeRow }: { topRow: number; activeRow: number | undefined }) => {
      // Read the address bar itself: this runs from a timer, and a filter may have changed the URL since.
      const current = new URLSearchParams(window.location.search);
      const next = new URLSearchParams(current);
      if (topRow > 0) next.set('offset', String(topRow));
      else next.delete('offset');
      if (activeRow !== undefined) next.set('row', String(activeRow));
      if (next.toString() !== current.toString()) setSearch(next, { replace: true });
    },
    [setSearch],
  );
  const sort = tableSort(filters.sort);
  const onSort = (key: string) => setFilter('sort', nextSort(sort, key));
  const open = useCallback((item: CollectionItems[C]) => navigate(paths.item(slug, collection, item.id)), [navigate, slug, collection]);

  return (
    <section className="view view--list" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">{definition.title}</h1>
        <CsvExportButton slug={slug} collection={collection} filters={filters} total={first.data?.total} />
      </header>
      <FilterBar controls={definition.filters} values={filters} onChange={setFilter} />
      <VirtualTable<CollectionItems[C], QueryKey>
        key={`${slug}/${collection}/${filterKey}`}
        label={definition.title}
        columns={definition.columns as never}
        pageQuery={pageQuery as never}
        initialTopRow={wholeNumber(search.get('offset'))}
        initialActiveRow={wholeNumber(search.get('row'))}
        onViewChange={onViewChange}
        onOpen={open}
        emptyMessage={`No ${definition.noun}s match these filters.`}
        sort={sort}
        onSort={onSort}
      />
    </section>
  );
}
