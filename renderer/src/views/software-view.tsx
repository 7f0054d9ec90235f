import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import type { SoftwareListProduct } from '../../../contracts/console/software';
import { riskScoreExplanation } from '../../../contracts/risk-score';
import { type ListFilters, pageSize } from '../api/list-pages';
import { softwareCsvPath, softwarePageQuery } from '../api/software-queries';
import { CsvDownloadButton } from '../components/csv-export-button';
import { endpointContextControls } from '../components/endpoint-context-controls';
import { FilterBar, type FilterControls } from '../components/filter-bar';
import { type TableSort, VirtualTable } from '../components/virtual-table';
import { openFromTable } from '../lib/opened-from-table';
import { paths } from '../lib/paths';
import { productColumns } from './software-columns';
import { anchorPageOffset, useTableUrl } from './use-table-url';

const searchControls: FilterControls = { q: { kind: 'text', label: 'Search', placeholder: 'Vendor or product contains…' }, ...endpointContextControls };

/** The server's order when the URL names none: the riskiest first. */
const defaultSort = '-risk_score';
/** The sort keys of text; the others are figures, which a first click orders largest first. */
const textSortKeys = new Set(['vendor', 'product']);

/** The search, sort and filters by endpoint context of the software list, from URL search parameters: non-empty, in a stable order. */
function softwareFiltersOf(search: URLSearchParams): ListFilters {
  const filters: ListFilters = {};
  for (const name of ['q', 'sort', ...Object.keys(endpointContextControls)]) {
    const value = search.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

/** The order of the URL's `sort` (`key` or `-key`); absent, the riskiest first. */
function tableSort(sort: string | undefined): TableSort {
  const text = sort ?? defaultSort;
  return { key: text.replace(/^-/, ''), descending: text.startsWith('-') };
}

/**
 * The `sort` after a click on a header: the other way round if it is the current one; else
 * text A to Z and figures largest first (the fewest findings first is rarely what one looks for).
 * The default order leaves the URL without `sort`.
 */
function nextSort(current: TableSort, key: string): string {
  const descending = current.key === key ? !current.descending : !textSortKeys.has(key);
  const sort = `${descending ? '-' : ''}${key}`;
  return sort === defaultSort ? '' : sort;
}

/** The pages the software view asks for first, from its URL: the first (its total) and the one its scroll position falls on. */
export function firstSoftwarePages(slug: string, search: URLSearchParams) {
  const filters = softwareFiltersOf(search);
  return [...new Set([0, anchorPageOffset(search, pageSize)])].map((offset) => softwarePageQuery(slug, filters, offset));
}

/**
 * The software of an organization: remediation targets grouped by vendor and product, with what
 * their open findings expose, searchable and sortable, riskiest first. Search, sort, scroll
 * position and selected row live in the URL, as in the list views.
 */
export function SoftwareView({ slug }: { slug: string }) {
  const url = useTableUrl();
  const navigate = useNavigate();
  const filters = useMemo(() => softwareFiltersOf(url.search), [url.search]);
  const filterKey = JSON.stringify(filters);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- filterKey stands for filters: a new object with the same filters must not refetch.
  const pageQuery = useCallback((offset: number) => softwarePageQuery(slug, filters, offset), [slug, filterKey]);
  const first = useQuery(pageQuery(0));
  const sort = tableSort(filters.sort);
  const columns = useMemo(() => productColumns(slug), [slug]);
  const open = useCallback((product: SoftwareListProduct) => navigate(paths.softwareProduct(slug, product.id), openFromTable), [navigate, slug]);

  return (
    <section className="view view--list view--software" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Software</h1>
        <CsvDownloadButton path={softwareCsvPath(slug, filters)} suggestedName={`${slug}-software.csv`} total={first.data?.total} />
      </header>
      <p className="hint">
        Remediation targets by vendor and product, with their open findings. {riskScoreExplanation}
      </p>
      <FilterBar slug={slug} controls={searchControls} values={filters} onChange={url.setParam} />
      <VirtualTable
        key={`${slug}/${filterKey}`}
        label="Software"
        columns={columns}
        pageQuery={pageQuery}
        initialTopRow={url.initialTopRow}
        initialActiveRow={url.initialActiveRow}
        onViewChange={url.onViewChange}
        onOpen={open}
        emptyMessage={filters.q || filters.tag || filters.criticality ? 'No vendor or product matches these filters.' : 'This organization has no software yet.'}
        sort={sort}
        onSort={(key) => url.setParam('sort', nextSort(sort, key))}
      />
    </section>
  );
}
