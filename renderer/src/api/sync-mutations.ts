import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SyncPaused, SyncSettings, SyncStatus as ConsoleSyncStatus } from '../../../contracts/console/sync';
import { consoleJson } from './console-fetch';
import { queryKeys } from './query-keys';

const syncPath = (slug: string) => `/orgs/${encodeURIComponent(slug)}/sync`;

/** Starts a reconcile of a replica (or joins its running sync); the sync status query then polls it. */
export function useReconcileNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (slug: string) => consoleJson<unknown>(`${syncPath(slug)}?reconcile=true`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.syncOverview() }),
  });
}

/** Pauses or resumes a replica's background syncs; pausing interrupts its running sync. */
export function useSetSyncPaused() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, paused }: { slug: string; paused: boolean }) =>
      consoleJson<ConsoleSyncStatus>(`${syncPath(slug)}/paused`, { method: 'PUT', json: { paused } satisfies SyncPaused }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.syncOverview() }),
  });
}

/** Saves a replica's sync settings (how often it is reconciled). */
export function useUpdateSyncSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, settings }: { slug: string; settings: SyncSettings }) =>
      consoleJson<ConsoleSyncStatus>(`${syncPath(slug)}/settings`, { method: 'PUT', json: settings }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.syncOverview() }),
  });
}
