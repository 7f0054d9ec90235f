/**
 * From this many rows written or deleted at once, dropping an inventory table's indexes and
 * building them again once from the rows is cheaper than changing a leaf of each per row: a
 * replace (InventoryWrites.replace), and a sync's replacement of a replica in place.
 */
export const bulkLoadRows = 100_000;
