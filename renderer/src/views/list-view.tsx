import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useCallback, useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import { collectionBasics } from '../../../contracts/collection-basics';
import type { CollectionName, ConsoleItem } from '../../../contracts/collections';
import { listPageQuery } from '../api/console-queries';
import { type ListFilters, pageSize } from '../api/list-pages';
import { BulkEndpointContext } from '../components/bulk-endpoint-context';
import { CsvExportButton } from '../components/csv-export-button';
import { ReportButton } from '../components/report-button';
import { FilterBar } from '../components/filter-bar';
import { VirtualTable, columnFields } from '../components/virtual-table';
import { openFromTable } from '../lib/opened-from-table';
import { paths } from '../lib/paths';
import { listDefinitions, shownColumns } from './list-definitions';
import { askedFilters } from './asked-filters';
import { nextSort, tableSort } from './list-sort';
import { anchorPageOffset, useTableUrl } from './use-table-url';

/**
 * The filters of a list read from URL search parameters: only the list's own (its filter bar's
 * controls, which are the registry's filters and `q`) and `sort`, non-empty, in a stable order.
 */
function listFiltersOf(collection: CollectionName, search: URLSearchParams): ListFilters {
  const filters: ListFilters = {};
  for (const name of [...Object.keys(listDefinitions[collection].filters), 'sort']) {
    const value = search.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

/** The pages a list view asks for first, from its URL: the first (its total) and the one its scroll position falls on. */
export function firstListPages(slug: string, collection: CollectionName, search: URLSearchParams) {
  const filters = askedFilters(collection, listFiltersOf(collection, search));
  const anchor = anchorPageOffset(search, pageSize);
  return [...new Set([0, anchor])].map((offset) => listPageQuery(slug, collection, filters, offset));
}

/**
 * A list of one collection: filters, sort, scroll position (`offset`) and selected row (`row`)
 * live in the URL, so that a view can be bookmarked and the back button restores it. `/` goes
 * to the search box and ↓ from there to the rows (see {@link VirtualTable} for their keys).
 */
export function ListView<C extends CollectionName>({ slug, collection }: { slug: string; collection: C }) {
  const { search, setParam: setFilter, initialTopRow, initialActiveRow, onViewChange } = useTableUrl();
  const navigate = useNavigate();
  const definition = listDefinitions[collection];
  const { labels } = collectionBasics[collection];
  const filters = useMemo(() => listFiltersOf(collection, search), [collection, search]);
  const filterKey = JSON.stringify(filters);
  // What the server is asked for: the URL's filters with the view's default ones, in the list's default order when the URL names none.
  const asked = useMemo(() => askedFilters(collection, filters), [collection, filters]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- filterKey stands for asked's filters: a new object with the same filters must not refetch.
  const pageQuery = useCallback((offset: number) => listPageQuery(slug, collection, asked, offset), [slug, collection, filterKey]);
  const first = useQuery(pageQuery(0));

  // Memoized: the rows render again when their columns change.
  const columns = useMemo(() => shownColumns(definition, asked), [definition, asked]);
  const sort = tableSort(filters.sort, definition.defaultSort);
  const onSort = (key: string) => {
    const field = definition.columns.flatMap(columnFields).find((candidate) => candidate.sortKey === key);
    setFilter('sort', nextSort(sort, { sortKey: key, descendingFirst: field?.descendingFirst }, definition.defaultSort));
  };
  const open = useCallback((item: ConsoleItem<C>) => navigate(paths.item(slug, collection, item.id), openFromTable), [navigate, slug, collection]);
  const section = useRef<HTMLElement>(null);
  const focusHandOff = useRef<Element | null>(null);
  // ↓ in the search box goes on to the rows, as from a search field to its results; while a new
  // search's rows are still to come, once they show (any other key first cancels it).
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown') focusHandOff.current = null;
    if (event.key !== 'ArrowDown' || !(event.target instanceof HTMLInputElement) || event.target.name !== 'q') return;
    event.preventDefault();
    const grid = section.current?.querySelector<HTMLElement>('[role=grid]');
    if (grid) grid.focus();
    else focusHandOff.current = event.target;
  };

  return (
    <section ref={section} className="view view--list" aria-labelledby="view-title" onKeyDown={onKeyDown}>
      <header className="view__header">
        <h1 id="view-title">{labels.title}</h1>
        {collection === 'findings' ? <ReportButton slug={slug} filters={filters} /> : null}
        <CsvExportButton slug={slug} collection={collection} filters={asked} total={first.data?.total} />
      </header>
      {/* What the view shows while its URL names none of its default filters and no order. */}
      {definition.defaultView && !filters.sort && Object.keys(definition.defaultView.filters).every((name) => !filters[name]) && (
        <p className="hint">{definition.defaultView.summary}</p>
      )}
      <FilterBar slug={slug} controls={definition.filters} values={filters} defaults={definition.defaultView?.filters} onChange={setFilter} />
      {collection === 'endpoints' ? <BulkEndpointContext slug={slug} filters={asked} total={first.data?.total} /> : null}
      <VirtualTable
        key={`${slug}/${collection}/${filterKey}`}
        label={labels.title}
        columns={columns}
        rowHeight={definition.rowHeight}
        pageQuery={pageQuery}
        initialTopRow={initialTopRow}
        initialActiveRow={initialActiveRow}
        onViewChange={onViewChange}
        onOpen={open}
        emptyMessage={`No ${labels.noun}s match these filters.`}
        sort={sort}
        onSort={onSort}
        focusHandOff={focusHandOff}
      />
    </section>
  );
}
