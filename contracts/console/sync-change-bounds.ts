/**
 * How much of a replica's sync changes is kept, written once for the store that bounds them,
 * the contract that documents them and the console that says so. Free of zod, for the
 * renderer's bundle.
 */

/** The syncs whose changes are kept per replica: the newest, older ones are deleted as a new one is recorded. */
export const syncChangesKept = 50;

/**
 * The findings a sync's changes list by id, per list (newly open critical or KEV, remediated):
 * the first of them, with the total beside, so that a full sync that changed a million findings
 * still records a few kilobytes.
 */
export const syncChangeFindingsListed = 100;

/**
 * The findings a sync's record keeps whole by id, the ones it opened and closed, for a report's
 * delta between two syncs: a sync that changed more records none of them, and no delta is taken
 * across it (a fifth of the `large` dataset's million findings; syncs of 1 % keep 10,000).
 */
export const syncFindingMovesKept = 200_000;
