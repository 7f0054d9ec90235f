/**
 * The software view and the remediation plan of the console (`/app/orgs/:slug/software…` and
 * `/app/orgs/:slug/remediation-plan`): remediation targets grouped by vendor and product, then
 * by version, each with what its open findings expose (a finding belongs to the product and
 * version of its remediation target), and the products in the order that closes the most open
 * critical or KEV findings for the fewest endpoints touched.
 */
import * as z from 'zod';
import { countSchema, listEnvelopeSchema } from '../common.js';
import { targetStatuses } from '../enums.js';
import { limitSchema, offsetSchema, sortSchema, textSchema } from '../list-queries.js';
import { endpointContextQueryShape, planSelectionQueryShape } from './endpoint-context-filters.js';
import { findingFixByFilters, planStepFixByShape } from './fix-by.js';
import { exposureShape, exposureSortKinds } from './exposure.js';
import { endpointIntelShape, planStepIntelShape } from './exploit-intel.js';
import { versionToUpdateToSchema, versionToUpdateToSummarySchema } from './version-to-update-to.js';

/**
 * The id of a product or of a version in the console's URLs: base64url of the JSON array
 * `[vendor, product]` or `[vendor, product, version]` (any of them may be null).
 */
export const softwareIdSchema = z
  .string()
  .max(1024, 'must be at most 1,024 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'must be a software id as the software list gives it')
  .meta({ description: 'A product or version id, as the software list and a product answer give it.' });

/** A product: the remediation targets of one vendor and product, across versions. */
export const softwareProductSchema = z
  .object({
    id: softwareIdSchema,
    vendor: z.string().nullable(),
    product: z.string().nullable(),
    versions: countSchema.meta({ description: 'How many distinct versions its remediation targets have.' }),
    endpoints: countSchema.meta({ description: 'How many endpoints have a remediation target of it that is not resolved.' }),
    ...exposureShape,
    ...endpointIntelShape,
  })
  .meta({ id: 'SoftwareProduct' });
export type SoftwareProduct = z.infer<typeof softwareProductSchema>;

/** One version of a product, with the same figures. */
export const softwareVersionSchema = z
  .object({
    id: softwareIdSchema,
    version: z.string().nullable(),
    endpoints: countSchema.meta({ description: 'How many endpoints have a remediation target of this version that is not resolved.' }),
    ...exposureShape,
  })
  .meta({ id: 'SoftwareVersion' });
export type SoftwareVersion = z.infer<typeof softwareVersionSchema>;

/** How the software list sorts, besides the exposure's keys. */
export const softwareSortKinds = { vendor: 'text', product: 'text', versions: 'value', endpoints: 'value', ...exposureSortKinds } as const;
export type SoftwareSortKey = keyof typeof softwareSortKinds;
/** The software list's sort keys. */
export const softwareSortKeys = Object.keys(softwareSortKinds) as SoftwareSortKey[];

/**
 * `GET /app/orgs/:slug/software`: paging, a search of vendor and product, a sort (by default the
 * riskiest first), and the endpoints by context whose installs and findings count.
 */
export const softwareListQuerySchema = z.object({
  limit: limitSchema,
  offset: offsetSchema,
  q: textSchema.meta({ description: 'Vendor or product contains this text (case-insensitive).' }),
  sort: sortSchema(softwareSortKeys, '-risk_score'),
  ...endpointContextQueryShape,
});
export type SoftwareListQuery = z.output<typeof softwareListQuerySchema>;

/** A product of the software list: the product with the version to update it to. */
export const softwareListProductSchema = softwareProductSchema.extend({ update_to: versionToUpdateToSummarySchema }).meta({ id: 'SoftwareListProduct' });
export type SoftwareListProduct = z.infer<typeof softwareListProductSchema>;

/** `GET /app/orgs/:slug/software`. */
export const softwareListSchema = listEnvelopeSchema(softwareListProductSchema, 'SoftwareList');
export type SoftwareList = z.infer<typeof softwareListSchema>;

/** `GET /app/orgs/:slug/software/:productId`: the product, its versions, riskiest first, and the version to update it to. */
export const softwareDetailSchema = z
  .object({ product: softwareProductSchema, versions: z.array(softwareVersionSchema), update_to: versionToUpdateToSchema })
  .meta({ id: 'SoftwareDetail' });
export type SoftwareDetail = z.infer<typeof softwareDetailSchema>;

/** One remediation target of a version: its endpoint and what the target's open findings expose. */
export const softwareInstallSchema = z
  .object({
    target_id: z.string(),
    target_status: z.enum(targetStatuses),
    endpoint_id: z.string().nullable(),
    /** Null when the replica does not hold the endpoint. */
    hostname: z.string().nullable(),
    ...exposureShape,
  })
  .meta({ id: 'SoftwareInstall' });
export type SoftwareInstall = z.infer<typeof softwareInstallSchema>;

/** Paging of a version's remediation targets. */
export const softwareVersionQuerySchema = z.object({ limit: limitSchema, offset: offsetSchema });

/** `GET /app/orgs/:slug/software/:productId/versions/:versionId`: the version and its targets, riskiest first, then by hostname. */
export const softwareVersionDetailSchema = z
  .object({
    product: softwareProductSchema,
    version: softwareVersionSchema,
    installs: listEnvelopeSchema(softwareInstallSchema, 'SoftwareInstallList'),
  })
  .meta({ id: 'SoftwareVersionDetail' });
export type SoftwareVersionDetail = z.infer<typeof softwareVersionDetailSchema>;

/** One product of the plan, with what it closes and what the plan has closed once it is done. */
export const remediationPlanStepSchema = z
  .object({
    /** Its place in the plan's order, from 1: kept when the steps are sorted otherwise. */
    rank: z.number().int().min(1).meta({ description: "The step's place in the plan (the greedy order), from 1; the same whatever the sort." }),
    product_id: softwareIdSchema,
    vendor: z.string().nullable(),
    product: z.string().nullable(),
    /** Open critical or KEV findings of the product: updating it closes them. */
    closes: countSchema,
    /** The endpoints those findings are on: the work of updating it. */
    endpoints: countSchema,
    cumulative_closed: countSchema,
    /** Distinct endpoints touched by this step and the ones before. */
    cumulative_endpoints: countSchema,
    /** `cumulative_closed` over all open critical or KEV findings, from 0 to 1. */
    cumulative_share: z.number().min(0).max(1),
    ...planStepIntelShape,
    ...planStepFixByShape,
  })
  .meta({ id: 'RemediationPlanStep' });
export type RemediationPlanStep = z.infer<typeof remediationPlanStepSchema>;

/** The shares of open critical and KEV findings the plan states a sentence for. */
export const remediationPlanGoals = [0.5, 0.8, 0.95] as const;

/** What reaching one goal takes. */
export const remediationPlanMilestoneSchema = z
  .object({
    goal: z.number().min(0).max(1),
    /** False when updating every product still closes less than the goal. */
    reached: z.boolean(),
    products: countSchema,
    endpoints: countSchema,
    /** The share closed by those products, at least the goal when reached. */
    share: z.number().min(0).max(1),
    /** "Update these N products on M endpoints to close X % of open critical and KEV findings." */
    sentence: z.string(),
  })
  .meta({ id: 'RemediationPlanMilestone' });
export type RemediationPlanMilestone = z.infer<typeof remediationPlanMilestoneSchema>;

/** How the plan's steps may be listed: in the plan's order (`plan`), or by their earliest fix-by date. */
export const remediationPlanSortKeys = ['plan', 'fix_by'] as const;
export type RemediationPlanSortKey = (typeof remediationPlanSortKeys)[number];

/**
 * `GET /app/orgs/:slug/remediation-plan` query: the plan for the endpoints of a tag, a
 * criticality or an OS family, and of the open findings the findings list's fix-by filters keep (an outcome, a
 * decision, due on or before a day).
 */
export const remediationPlanQuerySchema = z.object({
  ...planSelectionQueryShape,
  ...(Object.fromEntries(
    Object.entries(findingFixByFilters).map(([parameter, filter]) => [
      parameter,
      filter.schema.meta({ description: `${filter.schema.meta()?.description ?? ''} The plan closes them alone, and the shares are of them.` }),
    ]),
  ) as { [P in keyof typeof findingFixByFilters]: (typeof findingFixByFilters)[P]['schema'] }),
  sort: sortSchema(remediationPlanSortKeys, 'plan').meta({
    description:
      "`plan` (the default) is the plan's order; `fix_by` puts the steps whose fix-by date is earliest first (steps without one last, either way). Sorted otherwise, each step keeps its `rank` and its cumulative figures of the plan's order, and the milestones stay the plan's; ties in the plan's order.",
  }),
});
export type RemediationPlanQuery = z.output<typeof remediationPlanQuerySchema>;

/** `GET /app/orgs/:slug/remediation-plan`. */
export const remediationPlanSchema = z
  .object({
    /** Open findings that are critical or KEV: what the plan closes. */
    open_critical_or_kev: countSchema,
    /** Those whose remediation target the replica does not hold or names no product: no update in the plan closes them. */
    without_product: countSchema,
    steps: z.array(remediationPlanStepSchema),
    milestones: z.array(remediationPlanMilestoneSchema),
  })
  .meta({ id: 'RemediationPlan' });
export type RemediationPlan = z.infer<typeof remediationPlanSchema>;

/** `GET /app/orgs/:slug/remediation-targets/:targetId/update-to`: the product of a target, and the version to update it to. */
export const targetUpdateSchema = z
  .object({
    product_id: softwareIdSchema,
    vendor: z.string().nullable(),
    product: z.string().nullable(),
    /** The target's own version. */
    version: z.string().nullable(),
    /** The target's version is the version to update to. */
    runs_newest: z.boolean(),
    update_to: versionToUpdateToSchema,
  })
  .meta({ id: 'TargetUpdate' });
export type TargetUpdate = z.infer<typeof targetUpdateSchema>;
