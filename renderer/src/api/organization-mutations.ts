import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConnectOrganizationBody, ConsoleOrganization, UpdateOrganizationBody } from '../../../contracts/console/organizations';
import { consoleJson } from './console-fetch';
import { queryKeys } from './query-keys';

const orgPath = (slug: string) => `/orgs/${encodeURIComponent(slug)}`;

/** Connects a replica of a remote tenant; its first sync starts at once on the server. */
export function useConnectOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConnectOrganizationBody) => consoleJson<ConsoleOrganization>('/organizations', { method: 'POST', json: body }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.organizations() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.syncOverview() }),
      ]),
  });
}

/**
 * Changes an organization's name, or a replica's remote URL or key: the server checks a new
 * address or key against the remote before it saves anything, then starts a sync.
 */
export function useUpdateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, body }: { slug: string; body: UpdateOrganizationBody }) =>
      consoleJson<ConsoleOrganization>(orgPath(slug), { method: 'PATCH', json: body }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.organizations() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.syncOverview() }),
      ]),
  });
}

/** Disconnects a replica: its data and remote key are removed. */
export function useDisconnectOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (slug: string) => consoleJson<void>(orgPath(slug), { method: 'DELETE' }),
    onSuccess: (_answer, slug) => {
      queryClient.removeQueries({ queryKey: queryKeys.organization(slug) });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.organizations() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.syncOverview() }),
      ]);
    },
  });
}

/** Starts a sync of a replica (or joins the running one); the sync status query then polls it. */
export function useStartSync() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, full }: { slug: string; full: boolean }) => consoleJson<unknown>(`${orgPath(slug)}/sync${full ? '?full=true' : ''}`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.syncOverview() }),
  });
}
