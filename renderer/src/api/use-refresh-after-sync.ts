import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { syncOverviewQuery } from './console-queries';
import { queryKeys } from './query-keys';

/**
 * Follows the replicas' syncs (polling only while one runs) and, when one ends, marks that
 * organization's cached lists and aggregates stale: the views then show the synced data.
 * Mounted once, in the layout, so that each ended sync invalidates once.
 */
export function useRefreshAfterSync(): void {
  const overview = useQuery(syncOverviewQuery());
  const queryClient = useQueryClient();
  const wasRunning = useRef(new Set<string>());
  useEffect(() => {
    if (!overview.data) return;
    const running = new Set(overview.data.filter((status) => status.running).map((status) => status.org));
    for (const slug of wasRunning.current) {
      if (!running.has(slug)) void queryClient.invalidateQueries({ queryKey: queryKeys.organization(slug) });
    }
    wasRunning.current = running;
  }, [overview.data, queryClient]);
}
