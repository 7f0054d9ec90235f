import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { DoneCheckList, StatusMapping, StatusMappingEdit, TicketStatusImportResult, WorkPackage, WorkPackageEdit, WorkPackageList } from '../../../contracts/console/work-packages';
import type { WorkPackageExportFormat } from '../../../contracts/console/work-package-basics';
import { listSearch } from './console-queries';
import { consoleJson, consoleRequest } from './console-fetch';
import type { ListFilters } from './list-pages';
import { queryKeys } from './query-keys';

const org = (slug: string) => `/orgs/${encodeURIComponent(slug)}`;

/** The plan's steps as work packages, for the plan's filters (and a status, when given). */
export const workPackagesQuery = (slug: string, filters: ListFilters = {}) =>
  queryOptions({
    queryKey: queryKeys.workPackages(slug, filters),
    queryFn: ({ signal }) => consoleJson<WorkPackageList>(`${org(slug)}/work-packages${listSearch(filters)}`, { signal }),
  });

/** The checks after syncs that found done steps still vulnerable, newest first: entries of the change feed. */
export const workPackageChecksQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.workPackageChecks(slug),
    queryFn: ({ signal }) => consoleJson<DoneCheckList>(`${org(slug)}/work-packages/checks`, { signal }),
  });

/** The path (with /app) of an export of the work packages in `format`, for the plan's filters, or of one step. */
export function workPackageExportPath(slug: string, format: WorkPackageExportFormat, filters: ListFilters, step?: string): string {
  return `/app${org(slug)}/export/work-packages${listSearch({ ...filters, format, ...(step === undefined ? {} : { step }) })}`;
}

/** Sets a step's owner and note. */
export function useUpdateWorkPackage(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ externalId, edit }: { externalId: string; edit: WorkPackageEdit }) =>
      consoleJson<WorkPackage>(`${org(slug)}/work-packages/${encodeURIComponent(externalId)}`, { method: 'PUT', json: edit }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.workPackages(slug) }),
  });
}

/** Imports a Jira or ServiceNow CSV export of the tickets, as its text: all or nothing. */
export function useImportTicketStatus(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (text: string) => {
      const response = await consoleRequest(`${org(slug)}/work-packages/status-import`, { method: 'POST', body: text, headers: { 'content-type': 'text/csv' } });
      return (await response.json()) as TicketStatusImportResult;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.workPackages(slug) }),
  });
}

/** The organization's own ticket status names, which a status import reads first. */
export const statusMappingQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.statusMapping(slug),
    queryFn: ({ signal }) => consoleJson<StatusMapping>(`${org(slug)}/work-packages/status-mapping`, { signal }),
  });

/** Replaces the organization's own ticket status names: the packages stay as they are until the next import. */
export function useSaveStatusMapping(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (edit: StatusMappingEdit) => consoleJson<StatusMapping>(`${org(slug)}/work-packages/status-mapping`, { method: 'PUT', json: edit }),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.statusMapping(slug), saved),
  });
}
