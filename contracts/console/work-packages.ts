/**
 * Work packages (issue 39, `/app/orgs/:slug/work-packages…`): each step of the remediation plan
 * as a ticket for IT, with a stable external id, its local owner and note, the status read back
 * from a ticket system's CSV export, and, after each sync, whether a step closed as done still
 * has open findings. The console's own records, never in /v1.
 */
import * as z from 'zod';
import { countSchema, dateTimeSchema } from '../common.js';
import { endpointCriticalities, findingSeverities } from '../enums.js';
import { planSelectionQueryShape } from './endpoint-context-filters.js';
import { versionToUpdateToSummarySchema } from './version-to-update-to.js';
import {
  externalIdPattern,
  statusMappedBy,
  statusMappingBounds,
  ticketStatuses,
  ticketSystems,
  workPackageExportFormats,
  workPackagePriorities,
  workPackageStatusFilters,
  workPackageTextBounds,
} from './work-package-basics.js';

/** A work package's external id: `rc-` and 20 hex digits of its organization, product and version to update to. */
export const externalIdSchema = z
  .string()
  .regex(externalIdPattern, 'must be an external id as an export gives it (rc- and 20 hex digits)')
  .meta({ description: 'The stable id of a work package: the same organization, product and version to update to give the same id in every export.' });

/** One endpoint of a work package. */
export const workPackageEndpointSchema = z
  .object({
    endpoint_id: z.string(),
    /** Null when the replica does not hold the endpoint. */
    hostname: z.string().nullable(),
    tags: z.array(z.string()),
    criticality: z.enum(endpointCriticalities),
  })
  .meta({ id: 'WorkPackageEndpoint' });
export type WorkPackageEndpoint = z.infer<typeof workPackageEndpointSchema>;

/** The ticket of a work package, as the last status import read it. */
export const workPackageTicketSchema = z
  .object({
    system: z.enum(ticketSystems),
    key: z.string().meta({ description: 'The issue key (Jira) or number (ServiceNow).' }),
    status: z.enum(ticketStatuses),
    /** The ticket system's own status and resolution, as the file gave them. */
    system_status: z.string(),
    resolution: z.string(),
    /** When it was resolved or closed, as the file gave it; null when it did not. */
    resolved_at: dateTimeSchema.nullable(),
    imported_at: dateTimeSchema,
  })
  .meta({ id: 'WorkPackageTicket' });
export type WorkPackageTicket = z.infer<typeof workPackageTicketSchema>;

/** A step closed as done whose findings were still open after a sync. */
export const stillVulnerableSchema = z
  .object({
    endpoints: countSchema.meta({ description: 'Endpoints with open findings the step closes.' }),
    hostnames: z.array(z.string()).meta({ description: `The first ${workPackageTextBounds.hostnamesListed} of their hostnames (or ids when the replica does not hold them).` }),
    checked_at: dateTimeSchema.meta({ description: 'When the check after the sync ran.' }),
    sentence: z.string().meta({ description: '"Closed in Jira as PROJ-123 on 2026-12-02, still vulnerable on 7 endpoints."' }),
  })
  .meta({ id: 'StillVulnerable' });
export type StillVulnerable = z.infer<typeof stillVulnerableSchema>;

/** One step of the remediation plan as a work package. */
export const workPackageSchema = z
  .object({
    external_id: externalIdSchema,
    step: z.number().int().min(1).meta({ description: "The step's place in the plan, from 1." }),
    product_id: z.string(),
    vendor: z.string().nullable(),
    product: z.string().nullable(),
    update_to: versionToUpdateToSummarySchema,
    endpoints: z.array(workPackageEndpointSchema).meta({ description: 'The endpoints with open findings the step closes (its work).' }),
    findings: z
      .object({
        total: countSchema.meta({ description: 'Open critical or KEV findings the step closes, as the plan counts them.' }),
        by_severity: z.object(Object.fromEntries(findingSeverities.map((severity) => [severity, countSchema])) as Record<(typeof findingSeverities)[number], typeof countSchema>),
        kev: countSchema,
        epss_sum: z.number().nullable().meta({ description: 'The EPSS sum of those findings; null without an imported EPSS file.' }),
      })
      .meta({ id: 'WorkPackageFindings' }),
    due_at: dateTimeSchema.nullable().meta({ description: "The earliest due date of those findings under the organization's deadline policy; null when none has one." }),
    priority: z.enum(workPackagePriorities).meta({ description: 'highest: a KEV finding or past due; high: a critical finding; medium: due within 30 days; low otherwise.' }),
    owner: z.string(),
    note: z.string(),
    ticket: workPackageTicketSchema.nullable().meta({ description: 'Null until a status import names this external id.' }),
    still_vulnerable: stillVulnerableSchema.nullable().meta({ description: 'Set by the check after a sync when the ticket is done and findings are still open; null otherwise.' }),
  })
  .meta({ id: 'WorkPackage' });
export type WorkPackage = z.infer<typeof workPackageSchema>;

/** `GET /app/orgs/:slug/work-packages` and the export's query: the plan's filters and a status. */
export const workPackageQuerySchema = z.object({
  ...planSelectionQueryShape,
  status: z
    .enum(workPackageStatusFilters, { error: `must be one of ${workPackageStatusFilters.join(', ')}` })
    .optional()
    .meta({ description: 'Only the steps with a ticket of this status, `not-ticketed` or `still-vulnerable` (done, but findings still open after a sync).' }),
});
export type WorkPackageQuery = z.output<typeof workPackageQuerySchema>;

/** `GET /app/orgs/:slug/export/work-packages`: the query and the format. */
export const workPackageExportQuerySchema = workPackageQuerySchema.extend({
  format: z
    .enum(workPackageExportFormats, { error: `must be one of ${workPackageExportFormats.join(', ')}` })
    .meta({ description: 'jira: Jira CSV; servicenow: an import-set CSV; json: WorkPackageList.', example: 'jira' }),
  step: z.string().regex(externalIdPattern, 'must be an external id as an export gives it (rc- and 20 hex digits)').optional().meta({ description: 'Only the step of this external id.' }),
});
export type WorkPackageExportQuery = z.output<typeof workPackageExportQuerySchema>;

/** `GET /app/orgs/:slug/work-packages` and the JSON export. */
export const workPackageListSchema = z
  .object({
    generated_at: dateTimeSchema,
    organization: z.string().meta({ description: "The organization's slug." }),
    data: z.array(workPackageSchema),
  })
  .meta({ id: 'WorkPackageList' });
export type WorkPackageList = z.infer<typeof workPackageListSchema>;

/** `PUT /app/orgs/:slug/work-packages/:externalId`: the local owner and note. */
export const workPackageEditSchema = z
  .object({
    owner: z.string().trim().max(workPackageTextBounds.owner, `must be at most ${workPackageTextBounds.owner} characters`),
    note: z.string().max(workPackageTextBounds.note, `must be at most ${workPackageTextBounds.note} characters`),
  })
  .strict()
  .meta({ id: 'WorkPackageEdit' });
export type WorkPackageEdit = z.infer<typeof workPackageEditSchema>;

/** A row of a status import that matches no step: listed, never guessed at. */
export const unmatchedTicketSchema = z
  .object({ line: z.number().int().min(2), key: z.string(), external_id: z.string().nullable(), why: z.string() })
  .meta({ id: 'UnmatchedTicket' });

/** A status name of the file and how the import mapped it: one line of the import's report. */
export const mappedStatusSchema = z
  .object({
    system_status: z.string().meta({ description: "The ticket system's status (Jira) or state (ServiceNow), as the file gave it." }),
    status_category: z.string().meta({ description: "Jira's Status Category of those rows, when the file has the column; empty otherwise." }),
    status: z.enum(ticketStatuses).nullable().meta({ description: "What the console reads it as (won't do for a done ticket resolved Won't Do, Duplicate…); null when nothing maps it." }),
    mapped_by: z.enum(statusMappedBy).meta({
      description: "setting: the organization's mapping of status names; status-category: Jira's Status Category column; built-in: the default workflows' names the import knows; none: nothing, the rows are listed in `unmapped` and not imported.",
    }),
    rows: countSchema,
  })
  .meta({ id: 'MappedTicketStatus' });

/** A row of a status import whose status maps to nothing: listed, never guessed at, not imported. */
export const unmappedTicketSchema = z
  .object({ line: z.number().int().min(2), key: z.string(), external_id: z.string().nullable(), system_status: z.string() })
  .meta({ id: 'UnmappedTicket' });

/** `POST /app/orgs/:slug/work-packages/status-import`. */
export const ticketStatusImportResultSchema = z
  .object({
    system: z.enum(ticketSystems),
    rows: countSchema,
    matched: countSchema,
    changed: countSchema.meta({ description: 'Steps whose ticket, status or resolution the file changed.' }),
    unmatched: z.array(unmatchedTicketSchema),
    statuses: z.array(mappedStatusSchema).meta({ description: "Each status of the file with how it was mapped, in the file's order." }),
    unmapped: z.array(unmappedTicketSchema).meta({ description: 'The rows whose status maps to nothing: not imported, never guessed at.' }),
  })
  .meta({ id: 'TicketStatusImportResult' });
export type TicketStatusImportResult = z.infer<typeof ticketStatusImportResultSchema>;

/** A check after a sync that found done steps still vulnerable: an entry of the change feed. */
export const doneCheckSchema = z
  .object({
    id: z.number().int().min(1),
    checked_at: dateTimeSchema,
    flagged: z.array(
      z.object({ external_id: externalIdSchema, vendor: z.string().nullable(), product: z.string().nullable(), ticket_key: z.string(), ...stillVulnerableSchema.shape }),
    ),
  })
  .meta({ id: 'DoneCheck' });
export type DoneCheck = z.infer<typeof doneCheckSchema>;

/** `GET /app/orgs/:slug/work-packages/checks`: newest first. */
export const doneCheckListSchema = z.object({ data: z.array(doneCheckSchema) }).meta({ id: 'DoneCheckList' });
export type DoneCheckList = z.infer<typeof doneCheckListSchema>;

/** One status name an organization's team gave its tickets, and the console's status it means. */
export const statusNameMappingSchema = z
  .object({
    system: z.enum(ticketSystems),
    status: z
      .string()
      .trim()
      // Not `min(1)`: the document shows this pattern, which refuses a blank name before it is trimmed.
      .regex(/\S/, 'must not be empty')
      .max(statusMappingBounds.name, `must be at most ${statusMappingBounds.name} characters`)
      .meta({ description: "A Jira status name (\"Ready for QA\") or a ServiceNow state (its label or number), compared without case.", example: 'Deployed' }),
    maps_to: z.enum(ticketStatuses, { error: `must be one of ${ticketStatuses.join(', ')}` }),
  })
  .strict()
  .meta({ id: 'StatusNameMapping' });
export type StatusNameMapping = z.infer<typeof statusNameMappingSchema>;

/** `PUT /app/orgs/:slug/work-packages/status-mapping`: the whole mapping, each name once per system. */
export const statusMappingEditSchema = z
  .object({
    mappings: z
      .array(statusNameMappingSchema)
      .max(statusMappingBounds.entries, `must hold at most ${statusMappingBounds.entries} names`)
      .superRefine((mappings, context) => {
        const seen = new Set<string>();
        mappings.forEach((mapping, index) => {
          const key = `${mapping.system}|${mapping.status.toLowerCase()}`;
          if (seen.has(key)) context.addIssue({ code: 'custom', path: [index, 'status'], message: `"${mapping.status}" of ${mapping.system} is mapped twice` });
          seen.add(key);
        });
      }),
  })
  .strict()
  .meta({ id: 'StatusMappingEdit' });
export type StatusMappingEdit = z.infer<typeof statusMappingEditSchema>;

/** `GET /app/orgs/:slug/work-packages/status-mapping`: the names a status import maps before the ones it knows. */
export const statusMappingSchema = z
  .object({
    mappings: z.array(statusNameMappingSchema),
    updated_at: dateTimeSchema.nullable().meta({ description: 'When it was last saved; null while the organization has none.' }),
  })
  .meta({ id: 'StatusMapping' });
export type StatusMapping = z.infer<typeof statusMappingSchema>;
