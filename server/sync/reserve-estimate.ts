/** Items of a collection staged before their growth tells the bytes per item well enough. */
export const reserveSampleItems = 1_000;

/** Room on top of the estimate: indexes grow unevenly, and a page split costs a whole page. */
const margin = 1.15;

/**
 * The bytes to reserve (`Store.reserve`) for the rest of a collection a full sync is staging,
 * so that the store's in-memory file grows once rather than copying itself at every step of
 * its growth: the bytes the first {@link reserveSampleItems} items (or more) took in the
 * database, per item, times the items the remote's `total` says are still to come, with a
 * margin, less the free pages they will fill first. Zero until enough items were staged to
 * tell.
 */
export function reserveEstimate(grownBytes: number, stagedItems: number, totalItems: number, freeBytes = 0): number {
  if (stagedItems < reserveSampleItems || grownBytes <= 0) return 0;
  return Math.max(0, Math.ceil((grownBytes / stagedItems) * Math.max(0, totalItems - stagedItems) * margin - freeBytes));
}
