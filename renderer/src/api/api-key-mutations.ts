import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatedApiKey } from '../../../contracts/console/api-keys';
import { consoleJson } from './console-fetch';
import { queryKeys } from './query-keys';

/** Creates a local API key; the answer holds the key, shown this once. */
export function useCreateApiKey(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (label: string) => consoleJson<CreatedApiKey>(`/orgs/${encodeURIComponent(slug)}/api-keys`, { method: 'POST', json: { label } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys(slug) }),
  });
}

/** Revokes a local API key. */
export function useRevokeApiKey(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => consoleJson<void>(`/orgs/${encodeURIComponent(slug)}/api-keys/${encodeURIComponent(keyId)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys(slug) }),
  });
}
