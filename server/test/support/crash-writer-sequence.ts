/** The kinds of write the crash-safety test kills a process in. */
export type WriteKind = 'key' | 'secret' | 'sync' | 'staged' | 'merge' | 'remove' | 'checkpoint';

/** The crash writer's writes, in order (after it creates three organizations). */
export const sequence: readonly WriteKind[] = ['key', 'sync', 'secret', 'checkpoint', 'staged', 'merge', 'key', 'remove', 'secret', 'staged', 'sync', 'checkpoint', 'key', 'merge', 'remove'];
