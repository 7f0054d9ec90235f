import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { syncOverviewQuery } from '../api/console-queries';
import { paths } from '../lib/paths';
import { syncStateWord } from '../lib/sync-status';

/** The top bar's word on the replicas' syncs: which run, which failed; nothing without replicas. */
export function SyncIndicator({ slug }: { slug: string }) {
  const overview = useQuery(syncOverviewQuery());
  const statuses = overview.data ?? [];
  const running = statuses.filter((status) => syncStateWord(status) === 'running').map((status) => status.org);
  const failed = statuses.filter((status) => syncStateWord(status) === 'failed').map((status) => status.org);
  const text = running.length
    ? `Syncing ${running.join(', ')}…`
    : failed.length
      ? `Sync failed: ${failed.join(', ')}`
      : statuses.length
        ? 'Replicas synced'
        : '';
  const tone = running.length ? 'running' : failed.length ? 'failed' : 'idle';
  return (
    <p className={`sync-indicator sync-indicator--${tone}`} aria-live="polite" data-testid="sync-indicator">
      {text ? (
        <Link to={paths.organizations(slug)} title={text}>
          {text}
        </Link>
      ) : null}
    </p>
  );
}
