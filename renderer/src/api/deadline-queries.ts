import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { RemediationPerformance, SlaPolicyAnswer } from '../../../contracts/console/deadlines';
import type { SlaPolicy } from '../../../contracts/remediation-deadlines';
import { listSearch } from './console-queries';
import { consoleJson } from './console-fetch';
import type { ListFilters } from './list-pages';
import { queryKeys } from './query-keys';

const org = (slug: string) => `/orgs/${encodeURIComponent(slug)}`;

/** The organization's remediation deadlines: its own, or the defaults. */
export const slaPolicyQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.slaPolicy(slug),
    queryFn: ({ signal }) => consoleJson<SlaPolicyAnswer>(`${org(slug)}/sla-policy`, { signal }),
  });

/** How the organization's findings keep to its deadlines, as of now (to the minute). */
export const remediationPerformanceQuery = (slug: string, filters: ListFilters = {}) =>
  queryOptions({
    queryKey: queryKeys.remediationPerformance(slug, filters),
    queryFn: ({ signal }) => consoleJson<RemediationPerformance>(`${org(slug)}/remediation-performance${listSearch(filters)}`, { signal }),
    // The figures change with the minute, a sync or a saved policy (which invalidates them).
    staleTime: 60_000,
  });

/**
 * Saves the organization's deadlines. Every due date, overdue flag and figure of the
 * organization may change with them: its queries are all invalidated.
 */
export function useUpdateSlaPolicy(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (policy: SlaPolicy) => consoleJson<SlaPolicyAnswer>(`${org(slug)}/sla-policy`, { method: 'PUT', json: policy }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.slaPolicy(slug), saved);
      return queryClient.invalidateQueries({ queryKey: queryKeys.organization(slug) });
    },
  });
}
