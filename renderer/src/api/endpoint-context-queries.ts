import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  BulkUpdateEndpointContextInput,
  BulkUpdateEndpointContextResult,
  CreateTagRuleInput,
  EndpointContext,
  EndpointContextImportResult,
  EndpointTagListResponse,
  TagRule,
  UpdateEndpointContextBody,
  UpdateTagRuleBody,
} from '../../../contracts/console/endpoint-context';
import { consoleJson, consoleRequest } from './console-fetch';
import { queryKeys } from './query-keys';

const orgPath = (slug: string) => `/orgs/${encodeURIComponent(slug)}`;
const rulesPath = (slug: string) => `${orgPath(slug)}/tag-rules`;

/** One endpoint's tags (with where each comes from) and criticality. */
export const endpointContextQuery = (slug: string, endpointId: string) =>
  queryOptions({
    queryKey: queryKeys.endpointContext(slug, endpointId),
    queryFn: ({ signal }) => consoleJson<EndpointContext>(`${orgPath(slug)}/endpoints/${encodeURIComponent(endpointId)}/context`, { signal }),
  });

/** The organization's tags with their counts, whether it has any, and its endpoints per criticality. */
export const endpointTagsQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.endpointTags(slug),
    queryFn: ({ signal }) => consoleJson<EndpointTagListResponse>(`${orgPath(slug)}/endpoint-tags`, { signal }),
  });

/** The organization's tag rules, oldest first. */
export const tagRulesQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.tagRules(slug),
    queryFn: ({ signal }) => consoleJson<{ data: TagRule[] }>(rulesPath(slug), { signal }).then((answer) => answer.data),
  });

/** The path of the endpoint context CSV under /app, for the save-download path. */
export const endpointContextExportPath = (slug: string) => `/app${orgPath(slug)}/endpoint-context/export.csv`;

/**
 * Tags and criticality change what the organization's lists, filters, coverage and risk
 * figures answer: every answer of the organization is asked again after a change.
 */
function useContextMutation<V, R>(slug: string, mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.organization(slug) }) });
}

/** Sets one endpoint's tags (those set on it) and criticality. */
export function useUpdateEndpointContext(slug: string, endpointId: string) {
  return useContextMutation(slug, (body: UpdateEndpointContextBody) =>
    consoleJson<EndpointContext>(`${orgPath(slug)}/endpoints/${encodeURIComponent(endpointId)}/context`, { method: 'PUT', json: body }),
  );
}

/** Adds or removes tags and sets the criticality of every endpoint a filter of the endpoints list selects. */
export function useBulkUpdateEndpointContext(slug: string) {
  return useContextMutation(slug, (body: BulkUpdateEndpointContextInput) =>
    consoleJson<BulkUpdateEndpointContextResult>(`${orgPath(slug)}/endpoint-context/bulk`, { method: 'POST', json: body }),
  );
}

/** Imports a CSV file of tags and criticality, as its text: all or nothing. */
export function useImportEndpointContext(slug: string) {
  return useContextMutation(slug, async (text: string) => {
    const response = await consoleRequest(`${orgPath(slug)}/endpoint-context/import`, { method: 'POST', body: text, headers: { 'content-type': 'text/csv' } });
    return (await response.json()) as EndpointContextImportResult;
  });
}

/** Makes a tag rule. */
export function useCreateTagRule(slug: string) {
  return useContextMutation(slug, (body: CreateTagRuleInput) => consoleJson<TagRule>(rulesPath(slug), { method: 'POST', json: body }));
}

/** Changes a tag rule. */
export function useUpdateTagRule(slug: string) {
  return useContextMutation(slug, ({ id, body }: { id: string; body: UpdateTagRuleBody }) =>
    consoleJson<TagRule>(`${rulesPath(slug)}/${encodeURIComponent(id)}`, { method: 'PATCH', json: body }),
  );
}

/** Deletes a tag rule. */
export function useDeleteTagRule(slug: string) {
  return useContextMutation(slug, (id: string) => consoleJson<void>(`${rulesPath(slug)}/${encodeURIComponent(id)}`, { method: 'DELETE' }));
}
