/**
 * The query parameters of the four lists, as DESIGN section 3 decides them. Each schema takes
 * the raw single-valued strings of the query and yields the typed filter the store runs.
 */
import { targetStatuses, targetTypes } from './remediation-target.js';
import { scopeStatuses } from './scope.js';
import { findingSeverities, findingStatuses } from './vulnerability-finding.js';
import { z } from './zod.js';

const limitSchema = z
  .string()
  .regex(/^\d{1,3}$/, 'must be an integer from 1 to 100')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be an integer from 1 to 100').max(100, 'must be an integer from 1 to 100'))
  .optional()
  .transform((v) => v ?? 50)
  .openapi({ type: 'integer', minimum: 1, maximum: 100, default: 50, description: 'Page size, 1 to 100.' });

const offsetSchema = z
  .string()
  .regex(/^\d{1,15}$/, 'must be an integer of at least 0')
  .transform(Number)
  .optional()
  .transform((v) => v ?? 0)
  .openapi({ type: 'integer', minimum: 0, default: 0, description: 'Number of items to skip.' });

const booleanSchema = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((v) => v === 'true')
  .optional()
  .openapi({ type: 'boolean' });

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` }).optional();
}

const uuidFilter = z.guid({ error: 'must be a UUID' }).optional().openapi({ format: 'uuid' });

const updatedSinceSchema = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
  .optional()
  .openapi({
    description:
      'Extension for incremental sync: only items whose updated_at is at or after this time. ' +
      'Not part of the specification.',
  });

const paging = { limit: limitSchema, offset: offsetSchema, updatedSince: updatedSinceSchema };

export const endpointListQuerySchema = z.object({
  ...paging,
  osFamily: oneOf(['macos', 'windows', 'linux']),
  hasAgent: booleanSchema,
});
export type EndpointListQuery = z.output<typeof endpointListQuerySchema>;

export const remediationTargetListQuerySchema = z.object({
  ...paging,
  endpointId: uuidFilter,
  targetType: oneOf(targetTypes),
  status: oneOf(targetStatuses),
});
export type RemediationTargetListQuery = z.output<typeof remediationTargetListQuerySchema>;

export const scopeListQuerySchema = z.object({
  ...paging,
  status: oneOf(scopeStatuses),
});
export type ScopeListQuery = z.output<typeof scopeListQuerySchema>;

export const vulnerabilityFindingListQuerySchema = z.object({
  ...paging,
  endpointId: uuidFilter,
  remediationTargetId: uuidFilter,
  severity: oneOf(findingSeverities),
  status: oneOf(findingStatuses),
  isKev: booleanSchema,
  cveId: z.string().max(64, 'must be at most 64 characters').optional().openapi({
    description: 'CVE identifier, matched exactly but case-insensitively.',
  }),
});
export type VulnerabilityFindingListQuery = z.output<typeof vulnerabilityFindingListQuerySchema>;

/** The paging part every list query has. */
export interface Paging {
  limit: number;
  offset: number;
  updatedSince?: string | undefined;
}
