import * as z from 'zod';
import { countSchema, severityCountsSchema } from '../common.js';
import { findingSeverities, osFamilies } from '../enums.js';
import { endpointContextQueryShape } from './endpoint-context-filters.js';

/** `GET /app/orgs/:slug/dashboard` query: the aggregates of the endpoints of a tag or a criticality. */
export const dashboardQuerySchema = z.object(endpointContextQueryShape);
export type DashboardQuery = z.output<typeof dashboardQuerySchema>;

/** `GET /app/orgs/:slug/dashboard`: the aggregates of one organization. */
export const dashboardSchema = z
  .object({
    totals: z.object({
      endpoints: countSchema,
      remediationTargets: countSchema,
      findings: countSchema,
      openFindings: countSchema,
      openKevFindings: countSchema,
      scopes: countSchema,
    }),
    /** Findings per severity, most severe first, split by status. */
    findingsBySeverity: z.array(z.object({ severity: z.enum(findingSeverities), open: countSchema, remediated: countSchema })),
    endpointsByOsFamily: z.array(z.object({ family: z.enum(osFamilies), count: countSchema })),
    agentCoverage: z.object({ withAgent: countSchema, withoutAgent: countSchema }),
    /** The ten products with the most open findings, through the findings' remediation targets. */
    topVulnerableProducts: z.array(
      z.object({ vendor: z.string().nullable(), product: z.string().nullable(), openFindings: countSchema, remediationTargets: countSchema }),
    ),
    /** Findings per month of first detection (`YYYY-MM`, as the timestamp writes it), per severity. */
    findingsOverTime: z.array(severityCountsSchema.extend({ month: z.string().meta({ example: '2026-03' }) })),
  })
  .meta({ id: 'Dashboard' });
export type Dashboard = z.infer<typeof dashboardSchema>;
