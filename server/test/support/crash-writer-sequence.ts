/** The kinds of write the crash-safety test kills a process in. */
export type WriteKind = 'key' | 'secret' | 'sync' | 'staged' | 'merge' | 'remove' | 'checkpoint' | 'failed-checkpoint' | 'compaction';

/**
 * The crash writer's writes, in order (after it creates three organizations). Two checkpoints
 * fail (a full disk) before the third: it folds three logs at once. The compaction gives back
 * the pages of the inventories two full syncs and a removal left to collection.
 */
export const sequence: readonly WriteKind[] = [
  'key', 'sync', 'secret', 'checkpoint', 'staged', 'merge', 'failed-checkpoint', 'key', 'remove', 'secret', 'failed-checkpoint', 'staged', 'compaction', 'sync', 'checkpoint', 'key', 'merge', 'remove',
];
