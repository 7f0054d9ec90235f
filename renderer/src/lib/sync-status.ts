import { collectionBasics } from '../../../contracts/collection-basics';
import type { SyncStatus as ConsoleSyncStatus } from '../../../contracts/console/sync';
import type { SyncMode } from '../../../contracts/enums';

/** The title of a sync by its mode, as the changes it recorded are listed. */
export const syncModeTitles: Record<SyncMode, string> = { full: 'Full sync', incremental: 'Incremental sync', reconcile: 'Reconcile' };

/** A replica's sync in one word: running now, failed last time, or idle. */
export type SyncStateWord = 'running' | 'failed' | 'idle';

/** The word of a replica's sync status. */
export function syncStateWord(status: ConsoleSyncStatus): SyncStateWord {
  if (status.running) return 'running';
  return status.state.lastError ? 'failed' : 'idle';
}

/** What a running sync does now, in words: the collection and its items fetched out of the remote's total. */
export function describeProgress(progress: NonNullable<ConsoleSyncStatus['progress']>): string {
  if (progress.phase === 'checking') return 'Checking the remote tenant';
  if (progress.phase === 'writing') return 'Writing the replica';
  const collection = progress.collection ? collectionBasics[progress.collection].labels.title : 'Items';
  return `${collection}: ${progress.fetched.toLocaleString()} of ${progress.total.toLocaleString()}`;
}
