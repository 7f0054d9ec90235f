/** The kinds of write the crash-safety test kills a process in. */
export type WriteKind = 'key' | 'secret' | 'sync' | 'staged' | 'merge' | 'remove' | 'checkpoint' | 'failed-checkpoint';

/**
 * The crash writer's writes, in order (after it creates three organizations). Two checkpoints
 * fail (a full disk) before the third: it folds three logs at once.
 */
export const sequence: readonly WriteKind[] = [
  'key', 'sync', 'secret', 'checkpoint', 'staged', 'merge', 'failed-checkpoint', 'key', 'remove', 'secret', 'failed-checkpoint', 'staged', 'sync', 'checkpoint', 'key', 'merge', 'remove',
];
