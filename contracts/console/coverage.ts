import * as z from 'zod';
import { collections } from '../collections.js';
import { countSchema, severityCountsSchema, uuidSchema } from '../common.js';
import { findingStatuses } from '../enums.js';
import { limitSchema, offsetSchema } from '../list-queries.js';

/** Paging of the coverage answers; `status` narrows the covered findings listed. */
export const coveragePageQuerySchema = z.object({
  limit: limitSchema,
  offset: offsetSchema,
  status: z.enum(findingStatuses, { error: `must be one of ${findingStatuses.join(', ')}` }).optional(),
});
export type CoveragePageQuery = z.output<typeof coveragePageQuerySchema>;

/** Paging of the coverage gaps. */
export const coverageGapQuerySchema = coveragePageQuerySchema.pick({ limit: true, offset: true });
export type CoverageGapQuery = z.output<typeof coverageGapQuerySchema>;

/** A part of a scope's filters that the replica cannot evaluate, and why. */
export const unevaluatedCriterionSchema = z.object({ field: z.string(), reason: z.string() }).meta({ id: 'UnevaluatedCriterion' });
export type UnevaluatedCriterion = z.infer<typeof unevaluatedCriterionSchema>;

/** Counts of the findings a scope (or the set of gaps) holds. */
export const coverageCountsSchema = z
  .object({
    findings: countSchema,
    openFindings: countSchema,
    endpoints: countSchema,
    remediationTargets: countSchema,
    bySeverity: severityCountsSchema,
  })
  .meta({ id: 'CoverageCounts' });
export type CoverageCounts = z.infer<typeof coverageCountsSchema>;

/** `GET /app/orgs/:slug/scopes/:scopeId/coverage`. */
export const scopeCoverageSchema = z
  .object({
    scopeId: uuidSchema,
    counts: coverageCountsSchema,
    /** Criteria that were not applied; the counts are as if they were absent. */
    unevaluated: z.array(unevaluatedCriterionSchema),
    /** The covered findings, in the lists' default order, narrowed by `status` when given. */
    findings: collections.findings.consoleList,
  })
  .meta({ id: 'ScopeCoverage' });
export type ScopeCoverage = z.infer<typeof scopeCoverageSchema>;

/** `GET /app/orgs/:slug/coverage-gaps`. */
export const coverageGapsSchema = z
  .object({
    /** Open findings that are critical, high or KEV: the ones a scope should cover. */
    candidates: countSchema,
    /** The active scopes the candidates were checked against. */
    activeScopes: countSchema,
    /** The uncovered findings, less those active exceptions leave out: the ones listed. */
    counts: coverageCountsSchema,
    /** The uncovered findings, those under an active exception included. */
    countsBeforeExceptions: coverageCountsSchema,
    unevaluated: z.array(unevaluatedCriterionSchema.extend({ scopeId: uuidSchema, scopeName: z.string() })),
    findings: collections.findings.consoleList,
  })
  .meta({ id: 'CoverageGaps' });
export type CoverageGaps = z.infer<typeof coverageGapsSchema>;
