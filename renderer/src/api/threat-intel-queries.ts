import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { EpssHistory, ThreatIntelImportAnswer, ThreatIntelImportList } from '../../../contracts/console/threat-intel';
import type { IntelChangeList, IntelSettings, KevAgreement } from '../../../contracts/console/threat-intel-changes';
import { consoleJson } from './console-fetch';
import { queryKeys } from './query-keys';

const org = (slug: string) => `/orgs/${encodeURIComponent(slug)}`;

/** Every import of an intelligence file, newest first, with FIRST's attribution line. */
export const intelImportsQuery = () =>
  queryOptions({
    queryKey: queryKeys.intelImports(),
    queryFn: ({ signal }) => consoleJson<ThreatIntelImportList>('/intel/imports', { signal }),
  });

/** The EPSS threshold whose crossings each import records. */
export const intelSettingsQuery = () =>
  queryOptions({
    queryKey: queryKeys.intelSettings(),
    queryFn: ({ signal }) => consoleJson<IntelSettings>('/intel/settings', { signal }),
  });

/** A CVE's kept EPSS history and its 7- and 30-day change. */
export const epssHistoryQuery = (cveId: string) =>
  queryOptions({
    queryKey: queryKeys.epssHistory(cveId),
    queryFn: ({ signal }) => consoleJson<EpssHistory>(`/intel/epss/${encodeURIComponent(cveId)}`, { signal }),
  });

/** What the imports changed for the organization, newest first. */
export const intelChangesQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.intelChanges(slug),
    queryFn: ({ signal }) => consoleJson<IntelChangeList>(`${org(slug)}/intel/changes`, { signal }).then((answer) => answer.data),
  });

/** Where the organization's `is_kev` and the imported catalogs disagree. */
export const kevAgreementQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.kevAgreement(slug),
    queryFn: ({ signal }) => consoleJson<KevAgreement>(`${org(slug)}/intel/kev-agreement`, { signal }),
  });

/**
 * Imports one file, its bytes as they are (gzip or plain: the server recognises the kind). Every
 * organization's figures may show it: the intelligence and every organization's queries are
 * invalidated.
 */
export function useImportThreatIntel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => consoleJson<ThreatIntelImportAnswer>('/intel/imports', { method: 'POST', body: file, headers: { 'content-type': 'application/octet-stream' } }),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.intel() }), queryClient.invalidateQueries({ queryKey: ['org'] })]),
  });
}

/** Saves the intelligence settings. */
export function useUpdateIntelSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: IntelSettings) => consoleJson<IntelSettings>('/intel/settings', { method: 'PUT', json: settings }),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.intelSettings(), saved),
  });
}
