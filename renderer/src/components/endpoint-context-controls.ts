import { useCallback, useMemo } from 'react';
import { setOrRemove, useUrlSearch } from '../lib/use-url-search';
import type { endpointContextFilters } from '../../../contracts/console/endpoint-context-filters';
import { endpointCriticalities, filterableOsFamilies } from '../../../contracts/enums';
import type { ListFilters } from '../api/list-pages';
import type { FilterControl, FilterControls } from './filter-bar';

/**
 * The controls of the filters by endpoint context (contracts' endpointContextFilters), one per
 * filter: the lists of endpoints, findings and targets, and the views built on the figures
 * (dashboard, software, remediation plan and performance) show these.
 */
export const endpointContextControls = {
  tag: { kind: 'tag', label: 'Tag' },
  criticality: { kind: 'choice', label: 'Criticality', values: endpointCriticalities },
} as const satisfies { [P in keyof typeof endpointContextFilters]: FilterControl };

/** The control of the filter by an endpoint's OS family: the endpoints' lists', and the remediation plan's. */
export const osFamilyControl = { kind: 'choice', label: 'OS family', values: filterableOsFamilies } as const satisfies FilterControl;

/**
 * The filters by context a URL names (or those of `controls`, a view's with more), non-empty, in a
 * stable order: what a figures view asks the server for.
 */
export function endpointContextFiltersOf(search: URLSearchParams, controls: FilterControls = endpointContextControls): ListFilters {
  const filters: ListFilters = {};
  for (const name of Object.keys(controls)) {
    const value = search.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

/**
 * The filters by context of a figures view (dashboard, remediation plan and performance), or
 * those of `controls` (the plan's add the BOD 26-04 outcome), kept in its URL: what it asks the
 * server for, and how a control sets one (empty removes it).
 */
export function useEndpointContextFilters(controls: FilterControls = endpointContextControls): { filters: ListFilters; setFilter: (name: string, value: string) => void } {
  const { search, changeSearch } = useUrlSearch();
  const filters = useMemo(() => endpointContextFiltersOf(search, controls), [search, controls]);
  const setFilter = useCallback(
    (name: string, value: string) => changeSearch((next) => setOrRemove(next, name, value)),
    [changeSearch],
  );
  return { filters, setFilter };
}
