import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReportSummary } from '../../../contracts/console/reports';
import { consoleJson } from './console-fetch';
import { queryKeys } from './query-keys';

const reportsPath = (slug: string) => `/orgs/${encodeURIComponent(slug)}/reports`;

/** The organization's reports, newest first. */
export const reportsQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.reports(slug),
    queryFn: ({ signal }) => consoleJson<{ data: ReportSummary[] }>(reportsPath(slug), { signal }).then((answer) => answer.data),
  });

/** A report's file under /app, as it was made: the HTML (to open and print), its signature or its figures. */
export const reportFilePath = (slug: string, id: string, format: 'html' | 'p7s' | 'json' = 'html') =>
  `/app${reportsPath(slug)}/${encodeURIComponent(id)}${format === 'html' ? '' : `?format=${format}`}`;

/** Makes a report of a findings-list filter (its query string); the list of reports is asked again after. */
export function useCreateReport(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (filter: string) => consoleJson<ReportSummary>(reportsPath(slug), { method: 'POST', json: { filter, template: 'executive' } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.reports(slug) }),
  });
}
