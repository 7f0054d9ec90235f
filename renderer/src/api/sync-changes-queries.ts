import { queryOptions } from '@tanstack/react-query';
import type { SyncChangesList } from '../../../contracts/console/sync-changes';
import { consoleJson } from './console-fetch';
import { queryKeys } from './query-keys';

/**
 * What the syncs of a replica changed, newest first (the last ones that changed something).
 * A sync's end invalidates the organization's queries, this one with them.
 */
export const syncChangesQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.syncChanges(slug),
    queryFn: ({ signal }) => consoleJson<SyncChangesList>(`/orgs/${encodeURIComponent(slug)}/sync-changes`, { signal }).then((answer) => answer.data),
    staleTime: 60_000,
  });
