import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { RemediationPerformance, SlaPolicyAnswer } from '../../../contracts/console/deadlines';
import type { SlaPolicy } from '../../../contracts/remediation-deadlines';
import type { FixBySettings, FixBySettingsBody, FixBySummary } from '../../../contracts/console/fix-by';
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

/** The organization's deadline policy and fix-by settings: its own, or the defaults. */
export const fixBySettingsQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.fixBySettings(slug),
    queryFn: ({ signal }) => consoleJson<FixBySettings>(`${org(slug)}/fix-by-settings`, { signal }),
  });

/** The open findings due in the next 3, 14 and 60 days under the fix-by dates, and those that wait for an upgrade. */
export const fixBySummaryQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.fixBySummary(slug),
    queryFn: ({ signal }) => consoleJson<FixBySummary>(`${org(slug)}/fix-by-summary`, { signal }),
    staleTime: 60_000,
  });

/** Saves the organization's deadline policy and fix-by settings: its due dates and figures may all change, so its queries are invalidated. */
export function useUpdateFixBySettings(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: FixBySettingsBody) => consoleJson<FixBySettings>(`${org(slug)}/fix-by-settings`, { method: 'PUT', json: settings }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.fixBySettings(slug), saved);
      return queryClient.invalidateQueries({ queryKey: queryKeys.organization(slug) });
    },
  });
}
