import { endpointInputSchema } from '../schemas/endpoint.js';
import type { Inventory } from '../schemas/inventory.js';
import { remediationTargetInputSchema } from '../schemas/remediation-target.js';
import { scopeInputSchema } from '../schemas/scope.js';
import { vulnerabilityFindingInputSchema } from '../schemas/vulnerability-finding.js';
import type { z } from '../schemas/zod.js';

/** One of the four collections a sync pulls, named as in {@link Inventory}. */
export type SyncCollection = keyof Inventory;

/** Where each collection is listed and how each item of it is validated. */
export const syncCollections: { [C in SyncCollection]: { path: string; schema: z.ZodType<Inventory[C][number], unknown> } } = {
  endpoints: { path: '/v1/endpoints', schema: endpointInputSchema },
  remediationTargets: { path: '/v1/remediation-targets', schema: remediationTargetInputSchema },
  scopes: { path: '/v1/scopes', schema: scopeInputSchema },
  findings: { path: '/v1/vulnerability-findings', schema: vulnerabilityFindingInputSchema },
};

/** The collections in the order a sync pulls them: the small ones first, so that problems show early. */
export const syncOrder: readonly SyncCollection[] = ['scopes', 'endpoints', 'remediationTargets', 'findings'];
