import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateSavedViewBody, SavedView, SavedViewImportResult, SavedViewList, UpdateSavedViewBody } from '../../../contracts/saved-views';
import { consoleJson, consoleRequest } from './console-fetch';
import { queryKeys } from './query-keys';

const savedViewsPath = (slug: string) => `/orgs/${encodeURIComponent(slug)}/saved-views`;

/** The organization's saved views, by name. */
export const savedViewsQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.savedViews(slug),
    queryFn: ({ signal }) => consoleJson<SavedViewList>(savedViewsPath(slug), { signal }).then((answer) => answer.data),
  });

/** The path under /app of a views file: the view `id`, or every view of the organization. */
export const savedViewsExportPath = (slug: string, id?: string) => `/app${savedViewsPath(slug)}/export${id ? `?id=${encodeURIComponent(id)}` : ''}`;

/** A write of the saved views, after which their list is asked again (nothing else reads them). */
function useSavedViewMutation<V, R>(slug: string, mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.savedViews(slug) }) });
}

/** Saves a view's filters under a name. */
export function useCreateSavedView(slug: string) {
  return useSavedViewMutation(slug, (body: CreateSavedViewBody) => consoleJson<SavedView>(savedViewsPath(slug), { method: 'POST', json: body }));
}

/** Renames a view, or replaces its filters. */
export function useUpdateSavedView(slug: string) {
  return useSavedViewMutation(slug, ({ id, body }: { id: string; body: UpdateSavedViewBody }) =>
    consoleJson<SavedView>(`${savedViewsPath(slug)}/${encodeURIComponent(id)}`, { method: 'PATCH', json: body }),
  );
}

/** Deletes a view. */
export function useDeleteSavedView(slug: string) {
  return useSavedViewMutation(slug, (id: string) => consoleJson<void>(`${savedViewsPath(slug)}/${encodeURIComponent(id)}`, { method: 'DELETE' }));
}

/** Imports a views file, as its text: all or nothing. */
export function useImportSavedViews(slug: string) {
  return useSavedViewMutation(slug, async (text: string) => {
    const response = await consoleRequest(`${savedViewsPath(slug)}/import`, { method: 'POST', body: text, headers: { 'content-type': 'application/json' } });
    return (await response.json()) as SavedViewImportResult;
  });
}
