import { cvssScoreSchema, dateTimeSchema, listEnvelopeSchema, uuidSchema } from './common.js';
import { findingSeverities } from './vulnerability-finding.js';
import { z } from './zod.js';

export const scopeStatuses = ['active', 'paused', 'archived'] as const;

export const subjectFilterSchema = z
  .object({
    subject_types: z.array(z.enum(['software', 'service', 'configuration'])).optional(),
    vendors: z.array(z.string()).optional(),
    products: z.array(z.string()).optional(),
    cpe_patterns: z.array(z.string()).optional(),
  })
  .openapi('SubjectFilter');

export const endpointFilterSchema = z
  .object({
    os_families: z.array(z.enum(['macos', 'windows', 'linux'])).optional(),
    endpoint_ids: z.array(z.string()).optional(),
    has_agent: z.boolean().optional(),
    tags: z.array(z.string()).optional(),
  })
  .openapi('EndpointFilter');

export const findingFilterSchema = z
  .object({
    finding_types: z
      .array(z.enum(['vulnerability', 'deprecation', 'compliance', 'licensing', 'standardization']))
      .optional(),
    min_severity: z.enum(findingSeverities).optional(),
    min_cvss_score: cvssScoreSchema.optional(),
    kev_only: z.boolean().optional(),
  })
  .openapi('FindingFilter');

/** Remediation scope, section 2.3 of the specification. */
export const scopeSchema = z
  .object({
    id: uuidSchema,
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(scopeStatuses),
    subject_filter: subjectFilterSchema,
    endpoint_filter: endpointFilterSchema,
    finding_filter: findingFilterSchema,
    created_at: dateTimeSchema,
    updated_at: dateTimeSchema,
  })
  .openapi('Scope');
export type Scope = z.infer<typeof scopeSchema>;

export const scopeInputSchema = scopeSchema;

export const scopeListSchema = listEnvelopeSchema(scopeSchema, 'ScopeList');
