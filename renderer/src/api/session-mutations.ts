import { useMutation, useQueryClient } from '@tanstack/react-query';
import { consoleJson } from './console-fetch';
import { queryKeys } from './query-keys';

/**
 * Signs this browser out (`DELETE /app/session` revokes its session everywhere and drops its
 * cookie), then reloads the page, which finds no session and says how to open one again:
 * nothing of the session stays in the page's memory.
 */
export function useEndSession() {
  return useMutation({
    mutationFn: () => consoleJson<void>('/session', { method: 'DELETE' }),
    onSuccess: () => window.location.reload(),
  });
}

/** Revokes a browser session or script token; revoking this browser's own signs it out, as the Sign out button does. */
export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; current: boolean }) => consoleJson<void>(`/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_answer, { current }) => {
      if (current) window.location.reload();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions() }),
  });
}

/** Signs out every browser session but this one; answers how many ended. */
export function useSignOutOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => consoleJson<{ revoked: number }>('/sessions/sign-out-others', { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions() }),
  });
}
