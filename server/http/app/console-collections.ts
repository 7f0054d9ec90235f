import type { z } from 'zod';
import {
  consoleEndpointQuerySchema,
  consoleFindingQuerySchema,
  consoleScopeQuerySchema,
  consoleTargetQuerySchema,
} from '../../schemas/console-api.js';
import type { Collection } from '../../store/inventory-reads.js';

/** A collection as the console's API serves it. */
export interface ConsoleCollection<S extends z.ZodObject = z.ZodObject> {
  /** The path segment, the same as under /v1. */
  path: string;
  collection: Collection;
  resourceName: string;
  /** The query of its list: the v1 filters with `sort` and, for some, `q`. */
  schema: S;
}

/** The four collections of the console, in the order of the v1 API. */
export const consoleCollections = [
  { path: 'endpoints', collection: 'endpoints', resourceName: 'Endpoint', schema: consoleEndpointQuerySchema },
  { path: 'remediation-targets', collection: 'remediationTargets', resourceName: 'Remediation target', schema: consoleTargetQuerySchema },
  { path: 'scopes', collection: 'scopes', resourceName: 'Scope', schema: consoleScopeQuerySchema },
  { path: 'vulnerability-findings', collection: 'findings', resourceName: 'Vulnerability finding', schema: consoleFindingQuerySchema },
] as const satisfies ConsoleCollection[];
