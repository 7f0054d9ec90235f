import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReportSummary, ReportTemplate, reportFormats } from '../../../contracts/console/reports';
import { consoleJson } from './console-fetch';
import { queryKeys } from './query-keys';

const reportsPath = (slug: string) => `/orgs/${encodeURIComponent(slug)}/reports`;

/** The organization's reports, newest first. */
export const reportsQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.reports(slug),
    queryFn: ({ signal }) => consoleJson<{ data: ReportSummary[] }>(reportsPath(slug), { signal }).then((answer) => answer.data),
  });

/** A report's file under /app, as it was made: the HTML (to open and print), its signature, its figures, or a technical report's appendix. */
export const reportFilePath = (slug: string, id: string, format: (typeof reportFormats)[number] = 'html') =>
  `/app${reportsPath(slug)}/${encodeURIComponent(id)}${format === 'html' ? '' : `?format=${format}`}`;

/**
 * Makes a report of a findings-list filter (its query string) with a template (executive by
 * default), its delta against the previous report or between two syncs (their records' ids,
 * older first), of this organization alone or with the sections of others (their slugs, this
 * one first); the list of reports is asked again after.
 */
export function useCreateReport(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ filter, template = 'executive', compareSyncs, organizations }: { filter: string; template?: ReportTemplate; compareSyncs?: [number, number]; organizations?: string[] }) =>
      consoleJson<ReportSummary>(reportsPath(slug), {
        method: 'POST',
        json: { filter, template, ...(compareSyncs ? { compare_syncs: compareSyncs } : {}), ...(organizations ? { organizations } : {}) },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.reports(slug) }),
  });
}
