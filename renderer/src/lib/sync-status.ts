import type { SyncStatus as ConsoleSyncStatus } from '../../../contracts/console/sync';

/** A replica's sync in one word: running now, failed last time, or idle. */
export type SyncStateWord = 'running' | 'failed' | 'idle';

/** The word of a replica's sync status. */
export function syncStateWord(status: ConsoleSyncStatus): SyncStateWord {
  if (status.running) return 'running';
  return status.state.lastError ? 'failed' : 'idle';
}

const collectionLabels: Record<string, string> = {
  endpoints: 'Endpoints',
  remediationTargets: 'Remediation targets',
  scopes: 'Scopes',
  findings: 'Vulnerability findings',
};

/** What a running sync does now, in words: the collection and its items fetched out of the remote's total. */
export function describeProgress(progress: NonNullable<ConsoleSyncStatus['progress']>): string {
  if (progress.phase === 'checking') return 'Checking the remote tenant';
  if (progress.phase === 'writing') return 'Writing the replica';
  const collection = progress.collection ? (collectionLabels[progress.collection] ?? progress.collection) : 'Items';
  return `${collection}: ${progress.fetched.toLocaleString()} of ${progress.total.toLocaleString()}`;
}
