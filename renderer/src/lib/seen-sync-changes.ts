import { useSyncExternalStore } from 'react';

/**
 * The sync changes whose news the user has seen (dismissed the banner, or opened the replica's
 * Changes view), remembered in this browser's localStorage, so that the banner does not come
 * back at each start. Keyed by the replica, the changes' id and when that sync finished: ids are
 * unique within a data directory, and another data directory may be served at the same origin.
 */
const storageKey = 'remediation-console:seen-sync-changes';
/** Keys kept, the oldest forgotten first: far more than the replicas anyone follows. */
const keysKept = 200;

/** The key of a replica's recorded changes. */
export function seenKey(slug: string, changes: { id: number; finishedAt: string }): string {
  return `${slug}/${changes.id}/${changes.finishedAt}`;
}

function read(): readonly string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(storageKey) ?? '[]');
    return Array.isArray(value) ? value.filter((key): key is string => typeof key === 'string') : [];
  } catch {
    return [];
  }
}

let seen = read();
const listeners = new Set<() => void>();

/** Remembers that the user has seen these changes; the banners that show them go. */
export function markSeen(key: string): void {
  if (seen.includes(key)) return;
  seen = [...seen, key].slice(-keysKept);
  try {
    localStorage.setItem(storageKey, JSON.stringify(seen));
  } catch {
    // Storage full or refused: remembered for this page only.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  // Another tab of the console marked some: take its list.
  const fromOtherTab = (event: StorageEvent) => {
    if (event.key !== storageKey) return;
    seen = read();
    listener();
  };
  listeners.add(listener);
  window.addEventListener('storage', fromOtherTab);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', fromOtherTab);
  };
}

/** The keys of the changes the user has seen, re-rendering when one is added. */
export function useSeenSyncChanges(): readonly string[] {
  return useSyncExternalStore(subscribe, () => seen);
}
