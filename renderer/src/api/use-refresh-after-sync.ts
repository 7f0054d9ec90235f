import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { syncOverviewQuery } from './console-queries';
import { queryKeys } from './query-keys';

/**
 * Follows the replicas' syncs and, when one ends (seen running, or seen by its new last success:
 * a background sync that ran between two polls of an idle console), marks that organization's
 * cached lists, aggregates and changes stale: the views then show the synced data. Mounted
 * once, in the layout, so that each ended sync invalidates once.
 */
export function useRefreshAfterSync(): void {
  const overview = useQuery(syncOverviewQuery());
  const queryClient = useQueryClient();
  const wasRunning = useRef(new Set<string>());
  const lastSuccess = useRef(new Map<string, string | null>());
  useEffect(() => {
    if (!overview.data) return;
    const running = new Set(overview.data.filter((status) => status.running).map((status) => status.org));
    const ended = new Set([...wasRunning.current].filter((slug) => !running.has(slug)));
    for (const { org, state } of overview.data) {
      const before = lastSuccess.current.get(org);
      if (before !== undefined && before !== state.lastSuccessAt) ended.add(org);
      lastSuccess.current.set(org, state.lastSuccessAt);
    }
    for (const slug of ended) void queryClient.invalidateQueries({ queryKey: queryKeys.organization(slug) });
    wasRunning.current = running;
  }, [overview.data, queryClient]);
}
