/**
 * Remediation deadlines and performance of the console (`/app/orgs/:slug/sla-policy` and
 * `/app/orgs/:slug/remediation-performance`): the days to remediate per severity and for KEV
 * findings (the rule is remediation-deadlines.ts), and how the organization keeps to them.
 */
import * as z from 'zod';
import { countSchema, dateTimeSchema, severityCountsSchema } from '../common.js';
import { findingSeverities } from '../enums.js';
import { endpointContextQueryShape } from './endpoint-context-filters.js';
import { deadlinePolicies } from '../fix-by.js';
import { type SlaPolicy, ageBuckets, defaultSlaPolicy, performanceMonths, slaDaysBounds, slaPolicyKeys } from '../remediation-deadlines.js';

const daysMessage = `must be a whole number of days from ${slaDaysBounds.min} to ${slaDaysBounds.max}, or null for no deadline`;

/** The days of one deadline: a whole number of days, or null for none. */
const slaDaysSchema = z
  .number({ error: daysMessage })
  .int({ error: daysMessage })
  .min(slaDaysBounds.min, { error: daysMessage })
  .max(slaDaysBounds.max, { error: daysMessage })
  .nullable();

const describedDays = (key: (typeof slaPolicyKeys)[number]) =>
  slaDaysSchema.meta({
    description:
      key === 'kev'
        ? "Days to remediate a finding whose CVE is in CISA's KEV catalog, when sooner than its severity's; null for none."
        : `Days to remediate a ${key} finding; null for no deadline.`,
    example: defaultSlaPolicy[key],
  });

const policyShape = Object.fromEntries(slaPolicyKeys.map((key) => [key, describedDays(key)])) as Record<
  (typeof slaPolicyKeys)[number],
  ReturnType<typeof describedDays>
>;

/**
 * `PUT /app/orgs/:slug/sla-policy`: the whole policy, every key present (null for no deadline),
 * no other key.
 */
export const slaPolicyBodySchema = z.strictObject(policyShape).meta({ id: 'SlaPolicyUpdate' }) satisfies z.ZodType<SlaPolicy>;

/** `GET` and `PUT /app/orgs/:slug/sla-policy`: the organization's policy. */
export const slaPolicySchema = z
  .object({
    ...policyShape,
    updated_at: dateTimeSchema.nullable().meta({ description: 'When the policy was last saved; null while the organization has the defaults, never edited.' }),
  })
  .meta({ id: 'SlaPolicy' });
export type SlaPolicyAnswer = z.infer<typeof slaPolicySchema>;

/** Days, to one decimal; null where there is nothing to measure. */
const daysFigureSchema = z.number().min(0).nullable();

/** How the remediated findings of a group kept to their deadlines. */
const remediationShape = {
  remediated: countSchema.meta({ description: 'Remediated findings whose remediated_at is known.' }),
  remediated_with_deadline: countSchema.meta({ description: 'Those of them that had a deadline.' }),
  remediated_in_time: countSchema.meta({ description: 'Those of them remediated at or before their due date.' }),
  share_in_time: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .meta({ description: 'remediated_in_time / remediated_with_deadline, 0 to 1; null when none had a deadline.' }),
  median_days_to_remediate: daysFigureSchema.meta({
    description: 'The median of (remediated_at − first_detected_at) in days over the remediated findings (the mean of the two middle values for an even count), to one decimal.',
  }),
  mean_days_to_remediate: daysFigureSchema.meta({ description: 'Their mean, to one decimal.' }),
};

/** What is open in a group, and how late. */
const openShape = {
  open: countSchema,
  open_overdue: countSchema.meta({ description: 'Open findings past their due date, excepted ones left out.' }),
  open_overdue_excepted: countSchema.meta({ description: 'Open findings past their due date under an exception: left out of open_overdue.' }),
  median_open_age_days: daysFigureSchema.meta({ description: 'The median age of the open findings in days (as_of − first_detected_at), to one decimal.' }),
};

/** One severity's figures. */
export const severityPerformanceSchema = z
  .object({
    severity: z.enum(findingSeverities),
    deadline_days: z.number().int().nullable().meta({ description: "The policy's days for the severity (a KEV finding's may be sooner)." }),
    ...openShape,
    ...remediationShape,
  })
  .meta({ id: 'SeverityPerformance' });
export type SeverityPerformance = z.infer<typeof severityPerformanceSchema>;

/** The open findings of the endpoints of one tag. */
export const tagPerformanceSchema = z
  .object({
    tag: z.string(),
    endpoints: countSchema.meta({ description: 'Endpoints carrying the tag (set on them or given by a tag rule).' }),
    ...openShape,
  })
  .meta({ id: 'TagPerformance' });
export type TagPerformance = z.infer<typeof tagPerformanceSchema>;

/** `GET /app/orgs/:slug/remediation-performance` query: the figures of the endpoints of a tag or a criticality. */
export const remediationPerformanceQuerySchema = z.object(endpointContextQueryShape);
export type RemediationPerformanceQuery = z.output<typeof remediationPerformanceQuerySchema>;

/** One calendar month (UTC) of the series. */
export const monthlyPerformanceSchema = z
  .object({
    month: z.string().meta({ example: '2026-10', description: 'The month, YYYY-MM in UTC.' }),
    ...remediationShape,
    end_at: dateTimeSchema.meta({ description: "The month's end, or as_of for the current month: the instant of the two counts below." }),
    open_at_end: countSchema.meta({ description: 'Findings detected by end_at and not remediated by then.' }),
    overdue_at_end: countSchema.meta({ description: 'Of those, the ones past their due date at end_at (exceptions left aside: their past is not recorded).' }),
  })
  .meta({ id: 'MonthlyPerformance' });
export type MonthlyPerformance = z.infer<typeof monthlyPerformanceSchema>;

/** Open findings of one age group. */
export const ageBucketSchema = z
  .object({
    label: z.enum(ageBuckets.map((bucket) => bucket.label) as [string, ...string[]]),
    min_days: countSchema,
    max_days: countSchema.nullable().meta({ description: 'Included; null for no upper bound.' }),
    open: countSchema,
    by_severity: severityCountsSchema,
  })
  .meta({ id: 'AgeBucket' });
export type AgeBucket = z.infer<typeof ageBucketSchema>;

/** `GET /app/orgs/:slug/remediation-performance`. */
export const remediationPerformanceSchema = z
  .object({
    as_of: dateTimeSchema.meta({ description: 'The instant ages and overdue findings are computed at: now, to the minute.' }),
    deadline_policy: z.enum(deadlinePolicies).meta({
      description: '`severity-days` (the days below), `bod-26-04` (each finding due by the end of its fix-by day) or `kev-due-date` (by the end of CISA\'s KEV due date, the days below where a CVE has none).',
    }),
    policy: z.object(policyShape).meta({ description: 'The days per severity (applied under `severity-days`, and `kev-due-date` where a CVE has no due date).' }),
    severities: z.array(severityPerformanceSchema).meta({ description: 'Per severity, most severe first.' }),
    totals: z.object({ ...openShape, ...remediationShape }),
    monthly: z.array(monthlyPerformanceSchema).meta({ description: `The last ${performanceMonths} months, oldest first, the current one last; remediated findings by the month of remediated_at.` }),
    age_buckets: z.array(ageBucketSchema).meta({ description: 'Open findings by age in whole days since first detection.' }),
    tags: z.array(tagPerformanceSchema).meta({ description: "Per tag of the organization's endpoints (sorted without case): their open findings, the overdue ones, their median age." }),
  })
  .meta({ id: 'RemediationPerformance' });
export type RemediationPerformance = z.infer<typeof remediationPerformanceSchema>;
