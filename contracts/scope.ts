import { cvssScoreSchema, dateTimeSchema, uuidSchema } from './common.js';
import { z } from 'zod';
import { filterableOsFamilies, findingSeverities, scopeFindingTypes, scopeStatuses, scopeSubjectTypes } from './enums.js';


export const subjectFilterSchema = z
  .object({
    subject_types: z.array(z.enum(scopeSubjectTypes)).optional(),
    vendors: z.array(z.string()).optional(),
    products: z.array(z.string()).optional(),
    cpe_patterns: z.array(z.string()).optional(),
  })
  .meta({ id: 'SubjectFilter' });

export const endpointFilterSchema = z
  .object({
    os_families: z.array(z.enum(filterableOsFamilies)).optional(),
    endpoint_ids: z.array(z.string()).optional(),
    has_agent: z.boolean().optional(),
    tags: z.array(z.string()).optional(),
  })
  .meta({ id: 'EndpointFilter' });

export const findingFilterSchema = z
  .object({
    finding_types: z.array(z.enum(scopeFindingTypes)).optional(),
    min_severity: z.enum(findingSeverities).optional(),
    min_cvss_score: cvssScoreSchema.optional(),
    kev_only: z.boolean().optional(),
  })
  .meta({ id: 'FindingFilter' });

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
  .meta({ id: 'Scope' });
export type Scope = z.infer<typeof scopeSchema>;

export const scopeInputSchema = scopeSchema;
