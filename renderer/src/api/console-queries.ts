import { queryOptions } from '@tanstack/react-query';
import { collectionBasics } from '../../../contracts/collection-basics';
import type { CollectionName, ConsoleItem } from '../../../contracts/collections';
import type { ListPage } from '../../../contracts/common';
import type { ConsoleApiKey } from '../../../contracts/console/api-keys';
import type { ConsoleOrganization } from '../../../contracts/console/organizations';
import type { ConsoleCredential, ConsoleSession } from '../../../contracts/console/session';
import type { SyncStatus as ConsoleSyncStatus } from '../../../contracts/console/sync';
import type { CoverageGaps, ScopeCoverage } from '../../../contracts/console/coverage';
import type { Dashboard } from '../../../contracts/console/dashboard';
import { consoleJson } from './console-fetch';
import { type ListFilters, pageSize } from './list-pages';
import { queryKeys } from './query-keys';

const org = (slug: string) => `/orgs/${encodeURIComponent(slug)}`;
/** The path of a collection's list in an organization, under /app. */
const collectionPath = (slug: string, collection: CollectionName) => `${org(slug)}/${collectionBasics[collection].path}`;

/** The query string of a list page: its filters, then paging. */
export function listSearch(filters: ListFilters, paging?: { offset: number; limit: number }): string {
  const search = new URLSearchParams(filters);
  if (paging) {
    search.set('limit', String(paging.limit));
    search.set('offset', String(paging.offset));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Where local tools reach the loopback API, and how secrets are sealed. */
export const sessionQuery = () =>
  queryOptions({ queryKey: queryKeys.session(), queryFn: () => consoleJson<ConsoleSession>('/session'), staleTime: Infinity });

/** How the server seals secrets at rest (null where it stores none): a part of the session, from its one cached request. */
export const secretStorageQuery = () => queryOptions({ ...sessionQuery(), select: (session) => session.secretStorage });

/** The browser sessions and script tokens of the data directory, the oldest first, this one marked `current`. */
export const sessionsQuery = () =>
  queryOptions({
    queryKey: queryKeys.sessions(),
    queryFn: ({ signal }) => consoleJson<{ data: ConsoleCredential[] }>('/sessions', { signal }).then((answer) => answer.data),
  });

/** The organizations of the store. */
export const organizationsQuery = () =>
  queryOptions({
    queryKey: queryKeys.organizations(),
    queryFn: () => consoleJson<{ data: ConsoleOrganization[] }>('/organizations').then((answer) => answer.data),
  });

/** How often the sync status is asked while a sync runs. */
export const syncPollMs = 1_000;
/**
 * How often it is asked while none runs, and only while the console's page is visible: a
 * background sync (every 15 minutes) is then seen within a minute, its data refreshed and its
 * new critical or KEV findings shown in the banner.
 */
export const syncIdlePollMs = 60_000;

/**
 * The sync status of every replica, with the running syncs' progress and each one's latest
 * recorded changes. Polled every second while a sync runs, once a minute otherwise (the interval
 * is a function of the last answer).
 */
export const syncOverviewQuery = () =>
  queryOptions({
    queryKey: queryKeys.syncOverview(),
    queryFn: ({ signal }) => consoleJson<{ data: ConsoleSyncStatus[] }>('/sync', { signal }).then((answer) => answer.data),
    refetchInterval: (query) => (query.state.data?.some((status) => status.running) ? syncPollMs : syncIdlePollMs),
  });

/** One page of a list, `offset` a multiple of the page size. */
export const listPageQuery = <C extends CollectionName>(slug: string, collection: C, filters: ListFilters, offset: number, limit = pageSize) =>
  queryOptions({
    queryKey: queryKeys.listPage(slug, collection, filters, offset, limit),
    queryFn: ({ signal }) =>
      consoleJson<ListPage<ConsoleItem<C>>>(`${collectionPath(slug, collection)}${listSearch(filters, { offset, limit })}`, { signal }),
    // Pages do not change until a sync or seed: keep them while the user scrolls back and forth.
    staleTime: 60_000,
  });

/** One item of a collection, as the console answers it (an endpoint with its exposure, a finding with its hostname). */
export const itemQuery = <C extends CollectionName>(slug: string, collection: C, id: string) =>
  queryOptions({
    queryKey: queryKeys.item(slug, collection, id),
    queryFn: ({ signal }) => consoleJson<ConsoleItem<C>>(`${collectionPath(slug, collection)}/${encodeURIComponent(id)}`, { signal }),
    staleTime: 60_000,
  });

/** The collections a list filter picks an item of by name (`endpointId`, `remediationTargetId`). */
export type ChosenCollection = 'endpoints' | 'remediationTargets';

/** How many suggestions a filter offers: enough to choose from, few enough to read. */
export const suggestionLimit = 10;

/** Suggestions in an order a person scans: by the name they typed part of. */
const suggestionOrder: Record<ChosenCollection, string> = { endpoints: 'hostname', remediationTargets: 'product' };

/**
 * The first items of a collection whose search (`q`: an endpoint's hostname or IP, a target's
 * vendor, product or package) contains `text`, among those `within` selects (a target filter's
 * suggestions, the endpoint's targets once an endpoint is chosen): what a filter suggests as the
 * user types.
 */
export const suggestionsQuery = <C extends ChosenCollection>(slug: string, collection: C, text: string, within: ListFilters = {}) =>
  queryOptions({
    queryKey: queryKeys.suggestions(slug, collection, text, within),
    queryFn: ({ signal }) =>
      consoleJson<ListPage<ConsoleItem<C>>>(
        `${collectionPath(slug, collection)}${listSearch({ ...within, q: text, sort: suggestionOrder[collection] }, { offset: 0, limit: suggestionLimit })}`,
        { signal },
      ),
    staleTime: 60_000,
  });

/** The dashboard aggregates of an organization. */
export const dashboardQuery = (slug: string, filters: ListFilters = {}) =>
  queryOptions({
    queryKey: queryKeys.dashboard(slug, filters),
    queryFn: ({ signal }) => consoleJson<Dashboard>(`${org(slug)}/dashboard${listSearch(filters)}`, { signal }),
    staleTime: 60_000,
  });

const coveragePath = (slug: string, scopeId: string) => `${org(slug)}/scopes/${encodeURIComponent(scopeId)}/coverage`;

/** A scope's coverage: its counts and what could not be evaluated (with the first page of covered findings). */
export const scopeCoverageQuery = (slug: string, scopeId: string) =>
  queryOptions({
    queryKey: queryKeys.scopeCoverage(slug, scopeId),
    queryFn: ({ signal }) => consoleJson<ScopeCoverage>(coveragePath(slug, scopeId), { signal }),
    staleTime: 60_000,
  });

/** One page of the findings a scope covers, narrowed by status. */
export const scopeCoveredFindingsQuery = (slug: string, scopeId: string, filters: ListFilters, offset: number) =>
  queryOptions({
    queryKey: queryKeys.scopeCoveredFindingsPage(slug, scopeId, filters, offset),
    queryFn: ({ signal }) =>
      consoleJson<ScopeCoverage>(`${coveragePath(slug, scopeId)}${listSearch(filters, { offset, limit: pageSize })}`, {
        signal,
      }).then((coverage) => coverage.findings),
    staleTime: 60_000,
  });

/** The coverage gaps of an organization: counts and the first page. */
export const coverageGapsQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.coverageGaps(slug),
    queryFn: ({ signal }) => consoleJson<CoverageGaps>(`${org(slug)}/coverage-gaps`, { signal }),
    staleTime: 60_000,
  });

/** One page of the coverage gaps. */
export const coverageGapsPageQuery = (slug: string, offset: number) =>
  queryOptions({
    queryKey: queryKeys.coverageGapsPage(slug, offset),
    queryFn: ({ signal }) =>
      consoleJson<CoverageGaps>(`${org(slug)}/coverage-gaps${listSearch({}, { offset, limit: pageSize })}`, {
        signal,
      }).then((gaps) => gaps.findings),
    staleTime: 60_000,
  });

/** An organization's local API keys. */
export const apiKeysQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.apiKeys(slug),
    queryFn: ({ signal }) => consoleJson<{ data: ConsoleApiKey[] }>(`${org(slug)}/api-keys`, { signal }).then((answer) => answer.data),
  });

/** The path of a list's CSV export under /app, with the list's filters. */
export function csvExportPath(slug: string, collection: CollectionName, filters: ListFilters): string {
  return `/app${org(slug)}/export/${collectionBasics[collection].path}.csv${listSearch(filters)}`;
}
