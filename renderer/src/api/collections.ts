import type { Endpoint } from '../../../contracts/endpoint';
import type { RemediationTarget } from '../../../contracts/remediation-target';
import type { Scope } from '../../../contracts/scope';
import type { VulnerabilityFinding } from '../../../contracts/vulnerability-finding';

/** The four collections, by the path segment the API serves them under. */
export interface CollectionItems {
  endpoints: Endpoint;
  'remediation-targets': RemediationTarget;
  scopes: Scope;
  'vulnerability-findings': VulnerabilityFinding;
}
export type CollectionPath = keyof CollectionItems;

/** The list filters of the API as the URL and the API both spell them: name to value. */
export type ListFilters = Record<string, string>;

/** A page of a list, the envelope of DESIGN section 3. */
export interface ListPage<T> {
  data: T[];
  total: number;
  limit: number;
  offset: number;
}

/** Rows a list page holds: the API's maximum, so that scrolling fetches as few pages as it can. */
export const pageSize = 100;

/** The filter parameters each list takes, in the order the controls show them. */
export const filterNames: Record<CollectionPath, readonly string[]> = {
  endpoints: ['q', 'osFamily', 'hasAgent'],
  'remediation-targets': ['q', 'targetType', 'status', 'endpointId'],
  scopes: ['q', 'status'],
  'vulnerability-findings': ['q', 'cveId', 'severity', 'status', 'isKev', 'endpointId', 'remediationTargetId'],
};

/** The filters of a list read from URL search parameters: only the list's own, non-empty ones, in a stable order. */
export function listFiltersOf(collection: CollectionPath, search: URLSearchParams): ListFilters {
  const filters: ListFilters = {};
  for (const name of [...filterNames[collection], 'sort']) {
    const value = search.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}
