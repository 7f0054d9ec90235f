/**
 * Reports (issue 40): a filter of the findings list with a template, made once, frozen and
 * signed (`/app/orgs/:slug/reports`). The figures a report shows are kept as this JSON beside
 * its HTML and never computed again: a report opened next month shows the day it was made.
 */
import * as z from 'zod';
import { countSchema, dateTimeSchema, severityCountsSchema, uuidSchema } from '../common.js';
import { deadlinePolicies } from '../fix-by.js';
import { coverageCountsSchema } from './coverage.js';
import { slugParamSchema } from './organizations.js';
import { savedViewLimits } from './saved-view-basics.js';
import { syncChangesIdSchema } from './sync-changes.js';
import { threatIntelKinds } from './threat-intel.js';

/** The report templates: the executive summary, and the technical report (the executive one, each plan step's endpoints, the scopes' coverage and an appendix of every finding). */
export const reportTemplates = ['executive', 'technical'] as const;
export type ReportTemplate = (typeof reportTemplates)[number];

/** The longest filter a report takes: the findings list's own bound on a query string. */
export const maxReportFilterLength = 2048;

/** How many plan steps, exceptions and delta findings a report lists (every count is whole). */
export const reportListLength = { planSteps: 10, exceptions: 25, deltaFindings: 25 } as const;

/** The most organizations one report has a section of, and so the most signers its signature has. */
export const maxReportOrganizations = 100;

/** `POST /app/orgs/:slug/reports` body. */
export const createReportBodySchema = z
  .strictObject({
    filter: z
      .string()
      .max(maxReportFilterLength)
      .default('')
      .meta({
        description:
          "The findings list's filters as its URL's query string (`tag=internet-facing&criticality=critical&severity=critical`), without `?`; empty for every finding. " +
          'Sort, search paging and unknown parameters are refused.',
        example: 'tag=internet-facing&criticality=critical',
      }),
    view: z
      .string()
      .min(1)
      .max(savedViewLimits.name)
      .optional()
      .meta({
        description:
          "The name of one of the organization's saved views (without case), instead of `filter`: its filters as the findings list takes them, without its sort and status, which the report sets. " +
          'A view whose filters the findings list does not take is refused, naming them.',
      }),
    template: z
      .enum(reportTemplates)
      .default('executive')
      .meta({
        description:
          '`executive` (the default): posture, counts, deadlines, plan, accepted risks and delta. `technical`: the same, then each plan step with its endpoints (hostname, ' +
          'the open findings the step closes there), the coverage of the scopes, and an appendix of every finding of the filter, uncapped, as CSV and JSON beside the report ' +
          "(`getReport`'s `format=appendix-csv` and `format=appendix-json`), whose row counts and SHA-256 the signed HTML states.",
      }),
    organizations: z
      .array(slugParamSchema)
      .min(1)
      .max(maxReportOrganizations)
      .refine((slugs) => new Set(slugs).size === slugs.length, 'names an organization twice')
      .optional()
      .meta({
        description:
          "The organizations of the report, by slug, one section each in this order, the path's organization first (the report is kept under it); default the path's alone. " +
          "The report is signed by each one's signing identity, and a technical report's appendix names each row's organization.",
        example: ['demo'],
      }),
    compare_syncs: z
      .tuple([syncChangesIdSchema, syncChangesIdSchema])
      .optional()
      .meta({
        description:
          "Two of the organization's recorded syncs (their ids in `listSyncChanges`), older first: the delta is what changed between them, under the filter, instead of since the previous report. " +
          'Every sync recorded after the first must keep its findings (`findingsKept`); otherwise the report is refused (400), as it is for a sync not recorded.',
      }),
  })
  .refine((body) => body.view === undefined || body.filter === '', { message: 'Give a filter or a saved view, not both', path: ['view'] })
  .refine((body) => body.compare_syncs === undefined || body.compare_syncs[0] < body.compare_syncs[1], {
    message: 'The first sync must be older than the second',
    path: ['compare_syncs'],
  })
  .meta({ id: 'CreateReport' });
export type CreateReportBody = z.output<typeof createReportBodySchema>;

/** A finding a report names: enough to find it again, kept as it was. */
export const reportFindingSchema = z.object({
  id: z.string(),
  cve_id: z.string().nullable(),
  severity: z.string().nullable(),
  endpoint_hostname: z.string().nullable(),
});
export type ReportFinding = z.infer<typeof reportFindingSchema>;

/** One list of a delta: how many, and the first {@link reportListLength}.deltaFindings of them. */
const deltaListSchema = z.object({ count: countSchema, findings: z.array(reportFindingSchema) });

/** A sync a delta is taken at: its record's id and when it finished. */
const deltaSyncSchema = z.object({ id: syncChangesIdSchema, finished_at: dateTimeSchema });

/**
 * What changed since the previous report of the same organization, filter and template; or,
 * asked for (`compare_syncs`), between two of the organization's syncs ("then" the first, "now" the second).
 */
export const reportDeltaSchema = z
  .object({
    previous_report_id: uuidSchema.nullable().meta({ description: 'The report compared with; null for a delta between two syncs.' }),
    previous_created_at: dateTimeSchema.nullable(),
    syncs: z
      .object({ from: deltaSyncSchema, until: deltaSyncSchema })
      .nullable()
      .optional()
      .meta({ description: 'The two syncs compared; absent or null for a delta against the previous report.' }),
    fixed: deltaListSchema.meta({ description: 'Open then, not open now (remediated, or gone from the replica).' }),
    appeared: deltaListSchema.meta({ description: 'Open now, not open then.' }),
    newly_kev: deltaListSchema.meta({ description: 'Open and KEV now, not KEV then.' }),
    newly_overdue: deltaListSchema.meta({ description: 'Overdue now, not overdue then.' }),
  })
  .meta({ id: 'ReportDelta' });
export type ReportDelta = z.infer<typeof reportDeltaSchema>;

/** An endpoint of a plan step: the open findings the step closes on it. */
export const reportStepEndpointSchema = z.object({ endpoint_id: z.string().nullable(), hostname: z.string().nullable(), closes: countSchema });
export type ReportStepEndpoint = z.infer<typeof reportStepEndpointSchema>;

/** A scope's coverage as a technical report shows it: the console's coverage counts. */
export const reportScopeCoverageSchema = z.object({ id: uuidSchema, name: z.string(), status: z.string(), counts: coverageCountsSchema });

/** What the technical template adds to a section. */
export const reportTechnicalSchema = z
  .object({
    plan_steps: z
      .array(z.object({ rank: z.number().int().min(1), vendor: z.string().nullable(), product: z.string().nullable(), closes: countSchema, endpoints: z.array(reportStepEndpointSchema) }))
      .meta({ description: "Every step of the plan of the filter's endpoints, in the plan's order, with every endpoint it touches, most findings closed first, then by hostname." }),
    scopes: z.array(reportScopeCoverageSchema).meta({ description: "The organization's scopes with their coverage counts, by name." }),
    coverage_gaps: coverageCountsSchema.meta({ description: 'Open critical, high or KEV findings that no active scope covers, less those under an exception in force.' }),
  })
  .meta({ id: 'ReportTechnical' });
export type ReportTechnical = z.infer<typeof reportTechnicalSchema>;

/** One file of a technical report's appendix: rows (items, the CSV's header left out) and SHA-256 of its bytes. */
export const reportAppendixFileSchema = z.object({ name: z.string(), rows: countSchema, sha256: z.string() });
export type ReportAppendixFile = z.infer<typeof reportAppendixFileSchema>;

/** One organization's part of a report: every figure it shows, as they were. */
export const reportSectionSchema = z
  .object({
    organization: z.object({ id: uuidSchema, slug: z.string(), name: z.string(), kind: z.enum(['local', 'replica']) }),
    posture: z.string().meta({ description: 'The one sentence of posture.' }),
    counts: z.object({
      open: countSchema,
      open_by_severity: severityCountsSchema,
      open_kev: countSchema,
      open_high_epss: z
        .object({ threshold: z.number(), count: countSchema })
        .nullable()
        .meta({ description: 'Open findings whose CVE the current EPSS file scores at least the threshold; null when no EPSS file is imported.' }),
      overdue: countSchema.meta({ description: 'Open past their due date under the deadline policy, excepted ones left out.' }),
    }),
    performance: z.object({
      deadline_policy: z.enum(deadlinePolicies),
      policy_days: z.record(z.string(), z.number().nullable()),
      remediated_with_deadline: countSchema,
      remediated_in_time: countSchema,
      share_in_time: z.number().nullable(),
      median_days_to_remediate: z.number().nullable(),
      monthly: z.array(z.object({ month: z.string(), open_at_end: countSchema, overdue_at_end: countSchema })),
    }),
    plan: z.object({
      open_critical_or_kev: countSchema,
      steps: z.array(z.object({ vendor: z.string().nullable(), product: z.string().nullable(), closes: countSchema, endpoints: countSchema, cumulative_share: z.number() })),
      milestones: z.array(z.string()),
    }),
    accepted_risks: z.array(
      z.object({ id: uuidSchema, reason: z.string(), scope: z.string(), expires_at: z.string().nullable(), open_findings: countSchema }),
    ),
    accepted_risks_total: countSchema,
    provenance: z.object({
      last_synced_at: dateTimeSchema.nullable(),
      last_matched_at: dateTimeSchema.nullable(),
      intelligence: z.array(z.object({ kind: z.enum(threatIntelKinds), source_date: z.string(), version: z.string().nullable(), sha256: z.string() })),
    }),
    delta: reportDeltaSchema.nullable().meta({ description: 'Null for the first report of this organization, filter and template.' }),
    technical: reportTechnicalSchema.optional().meta({ description: 'The technical template\'s parts; absent from an executive report.' }),
  })
  .meta({ id: 'ReportSection' });
export type ReportSection = z.infer<typeof reportSectionSchema>;

/** A report's figures, as stored and served beside its HTML. */
export const reportFiguresSchema = z
  .object({
    id: uuidSchema,
    template: z.enum(reportTemplates),
    filter: z.string(),
    created_at: dateTimeSchema,
    product_version: z.string(),
    sections: z.array(reportSectionSchema),
    appendix: z
      .object({ csv: reportAppendixFileSchema, json: reportAppendixFileSchema })
      .optional()
      .meta({ description: "A technical report's appendix: every finding of the filter, of each section's organization in turn, in the findings list's order." }),
  })
  .meta({ id: 'ReportFigures' });
export type ReportFigures = z.infer<typeof reportFiguresSchema>;

/** A stored report as lists name it. */
export const reportSummarySchema = z
  .object({
    id: uuidSchema,
    template: z.enum(reportTemplates),
    filter: z.string(),
    created_at: dateTimeSchema,
    organizations: z.array(z.string()).meta({ description: 'The slugs of the organizations it has a section of, in order.' }),
    signer: z.string().meta({ description: "The subjects of the certificates that signed it, joined by `; `: each organization's signing identity, in the order of `organizations`." }),
    sha256: z.string().meta({ description: 'SHA-256 of its HTML, lower-case hex.' }),
  })
  .meta({ id: 'ReportSummary' });
export type ReportSummary = z.infer<typeof reportSummarySchema>;

/** `GET /app/orgs/:slug/reports`: newest first. */
export const reportListSchema = z.object({ data: z.array(reportSummarySchema) }).meta({ id: 'ReportList' });

/** `GET /app/orgs/:slug/reports/:reportId` query: which of the report's files. */
export const reportFormats = ['html', 'p7s', 'json', 'appendix-csv', 'appendix-json'] as const;
export const reportQuerySchema = z.object({
  format: z
    .enum(reportFormats, { error: `must be one of ${reportFormats.join(', ')}` })
    .default('html')
    .meta({
      description:
        "`html` the report, `p7s` its detached CMS signature (DER), `json` its figures; of a technical report, `appendix-csv` and `appendix-json` its appendix (the findings list's CSV columns, and a JSON array of the list's items).",
    }),
});
