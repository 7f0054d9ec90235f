import type { SyncStatus as ConsoleSyncStatus } from '../../../contracts/console/sync';
import { describeProgress } from '../lib/sync-status';

/**
 * A running sync's progress bar with what it does: the collection fetched and how far; no
 * value (an indeterminate bar) while it checks the remote or writes the replica.
 */
export function SyncProgress({ slug, progress }: { slug: string; progress: ConsoleSyncStatus['progress'] }) {
  const text = progress ? describeProgress(progress) : 'Starting';
  const measurable = progress?.phase === 'fetching' && progress.total > 0;
  return (
    <div className="sync-progress">
      <progress
        aria-label={`Sync progress of ${slug}`}
        aria-valuetext={text}
        {...(measurable ? { value: progress.fetched, max: progress.total } : {})}
      />
      <span className="sync-progress__text" data-testid={`sync-progress-${slug}`}>
        {text}
      </span>
    </div>
  );
}
