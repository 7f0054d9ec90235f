import type { z } from 'zod';
import {
  endpointListQuerySchema,
  remediationTargetListQuerySchema,
  scopeListQuerySchema,
  vulnerabilityFindingListQuerySchema,
} from '../../schemas/list-queries.js';
import type { Collection } from '../../store/inventory-reads.js';

/** A resource of the v1 API: its list at `/v1{path}`, and its gets at `/v1{path}/:{parameter}`. */
export interface V1Resource {
  path: string;
  collection: Collection;
  schema: z.ZodObject;
  /** The name of the id's path parameter, as error messages and the specification call it. */
  parameter: string;
  /** How a 404 answer names the resource. */
  name: string;
}

/** The four resources of the specification, section 4: the one table both the express routes and the fast path read. */
export const v1Resources: readonly V1Resource[] = [
  { path: '/endpoints', collection: 'endpoints', schema: endpointListQuerySchema, parameter: 'endpointId', name: 'Endpoint' },
  {
    path: '/remediation-targets',
    collection: 'remediationTargets',
    schema: remediationTargetListQuerySchema,
    parameter: 'targetId',
    name: 'Remediation target',
  },
  { path: '/scopes', collection: 'scopes', schema: scopeListQuerySchema, parameter: 'scopeId', name: 'Scope' },
  {
    path: '/vulnerability-findings',
    collection: 'findings',
    schema: vulnerabilityFindingListQuerySchema,
    parameter: 'findingId',
    name: 'Vulnerability finding',
  },
];
