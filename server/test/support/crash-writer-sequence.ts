/** The kinds of write the crash-safety test kills a process in. */
export type WriteKind = 'key' | 'secret' | 'sync' | 'staged' | 'replacement' | 'merge' | 'slow-merge' | 'remove' | 'checkpoint' | 'failed-checkpoint' | 'compaction';

/**
 * The crash writer's writes, in order (after it creates three organizations). Two slow merges in
 * a row pass the replay budget, twice: their pages are folded as deltas. Two checkpoints
 * fail (a full disk) before the third: it folds three logs at once. The compaction, last, gives
 * back the pages of the inventories two full syncs and two removals left to collection: its
 * writes are as many as its chunks, which follow their time, and sql.js stamps each file write
 * with the clock the crash writer counts, so a write after it would not write the same twice.
 */
export const sequence: readonly WriteKind[] = [
  'key', 'sync', 'secret', 'checkpoint', 'slow-merge', 'slow-merge', 'staged', 'merge', 'failed-checkpoint', 'key', 'remove', 'secret', 'failed-checkpoint', 'staged', 'sync', 'checkpoint', 'key', 'replacement', 'slow-merge', 'slow-merge', 'merge', 'remove', 'compaction',
];
