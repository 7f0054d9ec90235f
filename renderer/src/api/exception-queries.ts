import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ExceptionState } from '../../../contracts/console/exception-basics';
import type { ConsoleException, CreateExceptionInput, ExceptionImportResult, UpdateExceptionBody } from '../../../contracts/console/exceptions';
import { consoleJson, consoleRequest } from './console-fetch';
import { queryKeys } from './query-keys';

const exceptionsPath = (slug: string) => `/orgs/${encodeURIComponent(slug)}/exceptions`;

/** The organization's exceptions, newest first; those in `state` now when given. */
export const exceptionsQuery = (slug: string, state?: ExceptionState) =>
  queryOptions({
    queryKey: queryKeys.exceptions(slug, state ?? 'all'),
    queryFn: ({ signal }) =>
      consoleJson<{ data: ConsoleException[] }>(`${exceptionsPath(slug)}${state ? `?state=${state}` : ''}`, { signal }).then((answer) => answer.data),
  });

/** The path of the exceptions file under /app, for the save-download path. */
export const exceptionsExportPath = (slug: string) => `/app${exceptionsPath(slug)}/export`;

/**
 * An exception changes what the organization's figures leave out (gaps, risk, marks of
 * findings): every answer of the organization is asked again after one.
 */
function useExceptionMutation<V, R>(slug: string, mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.organization(slug) }) });
}

/** Creates an exception; the server records its local user as who made it. */
export function useCreateException(slug: string) {
  return useExceptionMutation(slug, (body: CreateExceptionInput) => consoleJson<ConsoleException>(exceptionsPath(slug), { method: 'POST', json: body }));
}

/** Edits an exception's reason, note or expiry. */
export function useUpdateException(slug: string) {
  return useExceptionMutation(slug, ({ id, body }: { id: string; body: UpdateExceptionBody }) =>
    consoleJson<ConsoleException>(`${exceptionsPath(slug)}/${encodeURIComponent(id)}`, { method: 'PATCH', json: body }),
  );
}

/** Revokes an exception: its findings count again; the record stays. */
export function useRevokeException(slug: string) {
  return useExceptionMutation(slug, (id: string) => consoleJson<ConsoleException>(`${exceptionsPath(slug)}/${encodeURIComponent(id)}/revoke`, { method: 'POST' }));
}

/** Imports an exceptions file, as its text: all or nothing, the server says how many it created, updated and skipped. */
export function useImportExceptions(slug: string) {
  return useExceptionMutation(slug, async (text: string) => {
    const response = await consoleRequest(`${exceptionsPath(slug)}/import`, { method: 'POST', body: text, headers: { 'content-type': 'application/json' } });
    return (await response.json()) as ExceptionImportResult;
  });
}
