import type { CollectionName } from '../../contracts/collections.js';

/** The collections in the order a sync pulls them: the small ones first, so that problems show early. */
export const syncOrder: readonly CollectionName[] = ['scopes', 'endpoints', 'remediationTargets', 'findings'];
