/** The kinds of write the crash-safety test kills a process in. */
export type WriteKind = 'key' | 'secret' | 'sync' | 'merge' | 'remove' | 'checkpoint';

/** The crash writer's writes, in order (after it creates three organizations). */
export const sequence: readonly WriteKind[] = ['key', 'sync', 'secret', 'checkpoint', 'merge', 'key', 'remove', 'secret', 'sync', 'checkpoint', 'key', 'merge', 'remove'];
