import { boundedText, cvssScoreSchema, dateTimeSchema, uuidSchema } from './common.js';
import * as z from 'zod';
import { filterableOsFamilies, findingSeverities, scopeFindingTypes, scopeStatuses, scopeSubjectTypes } from './enums.js';
import { listBounds, textBounds } from './text-bounds.js';

/** A list of a scope's filter of values each at most `max` characters, at most `count` of them. */
const values = (max: number, count: number = listBounds.filterValues) => z.array(boundedText(max)).max(count);
/** A list of a scope's filter of fixed values. */
const choices = <T extends readonly [string, ...string[]]>(allowed: T) => z.array(z.enum(allowed)).max(listBounds.choices);

export const subjectFilterSchema = z
  .object({
    subject_types: choices(scopeSubjectTypes).optional(),
    vendors: values(textBounds.short).optional(),
    products: values(textBounds.short).optional(),
    cpe_patterns: values(textBounds.path).optional(),
  })
  .meta({ id: 'SubjectFilter' });

export const endpointFilterSchema = z
  .object({
    os_families: choices(filterableOsFamilies).optional(),
    endpoint_ids: values(textBounds.short, listBounds.endpointIds).optional(),
    has_agent: z.boolean().optional(),
    tags: values(textBounds.short).optional(),
  })
  .meta({ id: 'EndpointFilter' });

export const findingFilterSchema = z
  .object({
    finding_types: choices(scopeFindingTypes).optional(),
    min_severity: z.enum(findingSeverities).optional(),
    min_cvss_score: cvssScoreSchema.optional(),
    kev_only: z.boolean().optional(),
  })
  .meta({ id: 'FindingFilter' });

/** Remediation scope, section 2.3 of the specification. */
export const scopeSchema = z
  .object({
    id: uuidSchema,
    name: boundedText(textBounds.title),
    description: boundedText(textBounds.long).nullable(),
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
