import { queryOptions } from '@tanstack/react-query';
import type { EndpointTagListResponse } from '../../../contracts/console/endpoint-context';
import { consoleJson } from './console-fetch';
import { queryKeys } from './query-keys';

/** The organization's tags with their endpoints, whether it has any, and its endpoints per criticality: what the tag filter offers. */
export const endpointTagsQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.endpointTags(slug),
    queryFn: ({ signal }) => consoleJson<EndpointTagListResponse>(`/orgs/${encodeURIComponent(slug)}/endpoint-tags`, { signal }),
    // Tags change with a write of context or a sync, which invalidate the organization's queries.
    staleTime: 60_000,
  });
