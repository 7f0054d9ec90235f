import type { CollectionItem, CollectionName } from './collections.js';

/** All the data of one organization, as the v1 API returns it: what seeding and sync write. */
export type Inventory = { [C in CollectionName]: CollectionItem<C>[] };

/** The sizes of DESIGN section 8. */
export const datasetSizes = {
  demo: { endpoints: 500, remediationTargets: 5_000, findings: 20_000, scopes: 12 },
  medium: { endpoints: 5_000, remediationTargets: 50_000, findings: 200_000, scopes: 50 },
  large: { endpoints: 20_000, remediationTargets: 200_000, findings: 1_000_000, scopes: 200 },
} as const;
export type DatasetSize = keyof typeof datasetSizes;
