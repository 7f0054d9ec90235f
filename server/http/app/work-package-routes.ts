import express from 'express';
import * as z from 'zod';
import {
  doneCheckListSchema,
  externalIdSchema,
  statusMappingEditSchema,
  statusMappingSchema,
  ticketStatusImportResultSchema,
  workPackageEditSchema,
  workPackageExportQuerySchema,
  workPackageListSchema,
  workPackageQuerySchema,
  workPackageSchema,
} from '../../../contracts/console/work-packages.js';
import { statusMappingBounds, ticketStatusImportBounds, workPackageExportFormats } from '../../../contracts/console/work-package-basics.js';
import type { Store } from '../../store/store.js';
import { exportChunks, exportContentType, exportFileName } from '../../work-packages/export-stream.js';
import { importTicketStatus } from '../../work-packages/import-ticket-status.js';
import { TicketStatusFileError } from '../../work-packages/ticket-status-file.js';
import { HttpError } from '../http-error.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, fileResponse, jsonResponse, queryErrors } from '../openapi/responses.js';
import { parseQuery } from '../query-parameters.js';
import { jsonBody, parsedBody } from './json-body.js';
import { organizationOf } from './organization-param.js';

/** The largest status file an import reads (an untrusted file): 20,000 rows of a Jira export with room. */
const importBodyLimit = ticketStatusImportBounds.bytes;

/** A mapping of status names at its bounds, with room for JSON's quotes and escapes. */
const statusMappingBodyLimit = `${Math.ceil((statusMappingBounds.entries * (statusMappingBounds.name * 2 + 100)) / 1024)}kb`;

/** The external id of the path, or 400. */
function externalIdParam(req: express.Request): string {
  const parsed = externalIdSchema.safeParse(req.params.externalId);
  if (!parsed.success) throw new HttpError(400, `Invalid path parameter "externalId": ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

/**
 * The remediation plan's steps as work packages (issue 39): the list, the export as Jira CSV,
 * ServiceNow import-set CSV or JSON (streamed a chunk of packages at a time, uncapped), a step's
 * owner and note, the status import of a ticket system's CSV export, and the checks after syncs.
 */
export function workPackageRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });
  router.get('/work-packages', async (req, res) => {
    const query = parseQuery(req, workPackageQuerySchema);
    const organization = organizationOf(res);
    // The packages' JSON as the store keeps it, written once per version of what it is read from.
    const data = await store.workPackages.listJson(organization.rowId, query);
    const head = `{"generated_at":${JSON.stringify(new Date(store.now()).toISOString())},"organization":${JSON.stringify(organization.slug)},"data":`;
    // Written in three parts: the kept answer is not copied into a fourth.
    const headBytes = Buffer.from(head);
    res.type('application/json').set('Content-Length', String(headBytes.length + data.length + 1));
    res.write(headBytes);
    res.write(data);
    res.end('}');
  });
  router.get('/work-packages/checks', (_req, res) => {
    res.json({ data: store.workPackages.records.checks(organizationOf(res).rowId) });
  });
  router.get('/work-packages/status-mapping', (_req, res) => {
    res.json(store.workPackages.records.statusMapping(organizationOf(res).rowId));
  });
  router.put('/work-packages/status-mapping', jsonBody(statusMappingBodyLimit), (req, res) => {
    const body = parsedBody(req, res, statusMappingEditSchema, 'the status mapping');
    if (!body) return;
    res.json(store.workPackages.records.setStatusMapping(organizationOf(res).rowId, body));
  });
  router.put('/work-packages/:externalId', jsonBody('16kb'), async (req, res) => {
    const body = parsedBody(req, res, workPackageEditSchema, 'the work package');
    if (!body) return;
    const externalId = externalIdParam(req);
    const work = await store.workPackages.edit(organizationOf(res).rowId, externalId, body);
    if (!work) throw new HttpError(404, `No step of the plan has the external id ${externalId}`);
    res.json(work);
  });
  router.post('/work-packages/status-import', express.text({ type: () => true, limit: importBodyLimit }), async (req, res) => {
    const text = typeof req.body === 'string' ? req.body : '';
    try {
      res.json(await importTicketStatus(store, organizationOf(res).rowId, text));
    } catch (error) {
      if (error instanceof TicketStatusFileError) throw new HttpError(400, `The status file was refused, nothing changed: ${error.message}`);
      throw error;
    }
  });
  router.get('/export/work-packages', async (req, res) => {
    const { format, step, ...query } = parseQuery(req, workPackageExportQuerySchema);
    const organization = organizationOf(res);
    let packages = await store.workPackages.list(organization.rowId, query);
    if (step !== undefined) {
      packages = packages.filter((work) => work.external_id === step);
      if (packages.length === 0) throw new HttpError(404, `No step of the plan has the external id ${step}`);
    }
    res.status(200).set({ 'Content-Type': exportContentType(format), 'Content-Disposition': `attachment; filename="${exportFileName(organization.slug, format, step)}"` });
    for await (const chunk of exportChunks(packages, format, { organization: organization.slug, generatedAt: new Date(store.now()).toISOString() })) {
      if (res.destroyed) return;
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
  });
  return router;
}

const tag = 'Work packages';
/** A Jira export's columns, one ticket done: its external id names no step of the example's organization, so it is listed as unmatched. */
const exampleStatusCsv = 'Issue key,Summary,Status,Resolution,Resolved,Custom field (External ID)\r\nPROJ-123,Update Google Chrome,Done,Done,02/Dec/26 10:15 AM,rc-0123456789abcdef0123\r\n';
const externalIdPath = { externalId: externalIdSchema };

/** {@link workPackageRoutes} in the /app OpenAPI document. */
export const workPackageOperations: OpenApiRouteRegistrar = (registry) => {
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/work-packages',
    operationId: 'listWorkPackages',
    summary: "List the remediation plan's steps as work packages",
    description:
      'In the plan\'s order, for the plan\'s `tag`, `criticality` and `osFamily`: each step with its stable external id, the version to update to, its endpoints with their tags and criticality, the findings it closes by severity, KEV and EPSS sum, ' +
      "the earliest due date under the organization's deadline policy, a suggested priority, its owner and note, the ticket a status import read, and whether the check after the last sync found it still vulnerable.",
    tag,
    request: { query: workPackageQuerySchema },
    responses: { 200: jsonResponse(workPackageListSchema, 'The work packages.'), ...queryErrors() },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/export/work-packages',
    operationId: 'exportWorkPackages',
    summary: 'Export the work packages for a ticket system',
    description:
      `\`format\`: ${workPackageExportFormats.join(', ')}. jira: Jira's CSV importer (a header row with Summary, every value quoted, descriptions with their line breaks, a Labels column per label, dates as dd/MMM/yy h:mm a, the external id in its own column); ` +
      'servicenow: an import-set CSV whose u_ columns a transform map coalesces on u_external_id; json: WorkPackageList. Every step the query keeps, streamed, uncapped; `step` exports one.',
    tag,
    request: { query: workPackageExportQuerySchema },
    responses: {
      200: {
        ...fileResponse('text/csv', z.string().meta({ description: 'The Jira or ServiceNow CSV, RFC 4180, CRLF line ends.' }), 'The work packages as a file.'),
        content: { 'text/csv': { schema: z.string() }, 'application/json': { schema: workPackageListSchema } },
      },
      ...queryErrors(),
      404: errorResponse('`step` names no step of the plan.'),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'put',
    path: '/work-packages/:externalId',
    operationId: 'updateWorkPackage',
    summary: "Set a work package's owner and note",
    description: 'Local to this installation, kept across syncs and exports (the ServiceNow CSV carries them).',
    tag,
    params: externalIdPath,
    request: { body: { required: true, content: { 'application/json': { schema: workPackageEditSchema, example: { owner: 'Desktop team', note: 'Patch window on Tuesday.' } } } } },
    responses: {
      200: jsonResponse(workPackageSchema, 'The work package.'),
      400: errorResponse('The external id or a field of the body is invalid; the message names it.'),
      404: errorResponse('No step of the plan has this external id.'),
      413: errorResponse('The body is larger than 16 kB.'),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'post',
    path: '/work-packages/status-import',
    operationId: 'importWorkPackageStatus',
    summary: "Import the tickets' status from a Jira or ServiceNow CSV export",
    description:
      "All of the file or none. A Jira export (Issue key, Status, optionally Status Category, Resolution, Resolved, and the external id's column or a Labels column holding it) or a ServiceNow export (number, state, close_code, closed_at, u_external_id), told apart by the header. " +
      "A row's status is read through the organization's own names (getTicketStatusMapping), then Jira's Status Category, then the default workflows' names; the answer's `statuses` says how each was mapped, and a row whose status none of them maps is listed in `unmapped` and not imported. " +
      `At most ${ticketStatusImportBounds.rows.toLocaleString('en-US')} rows of cells of at most ${ticketStatusImportBounds.cell} characters. A row whose external id no step has, or with none, is listed as unmatched, never guessed at.`,
    tag,
    request: { body: { required: true, content: { 'text/csv': { schema: z.string(), example: exampleStatusCsv } } } },
    responses: {
      200: jsonResponse(ticketStatusImportResultSchema, 'What the file matched and changed, and the rows it did not match.'),
      400: errorResponse('The file is not a status export: the message names the line (`line N: ...`); nothing changed.'),
      413: errorResponse(`The file is larger than ${importBodyLimit / 1024 / 1024} MB.`),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/work-packages/status-mapping',
    operationId: 'getTicketStatusMapping',
    summary: "Get the organization's own ticket status names",
    description:
      "The status names its teams gave their tickets (Jira's \"Ready for QA\", \"Deployed\"; ServiceNow states by label or number), each with the status it means: a status import reads a row's status through them first, then Jira's Status Category column, then the default workflows' names.",
    tag,
    responses: { 200: jsonResponse(statusMappingSchema, 'The mapping; empty until the organization saves one.') },
  });
  registerOrganizationOperation(registry, {
    method: 'put',
    path: '/work-packages/status-mapping',
    operationId: 'setTicketStatusMapping',
    summary: "Replace the organization's own ticket status names",
    description: `The whole mapping, each name once per ticket system (compared without case), at most ${statusMappingBounds.entries} names of at most ${statusMappingBounds.name} characters. Local to this installation, kept across syncs.`,
    tag,
    request: {
      body: {
        required: true,
        content: {
          'application/json': {
            schema: statusMappingEditSchema,
            example: { mappings: [{ system: 'jira', status: 'Ready for QA', maps_to: 'in-progress' }, { system: 'jira', status: 'Deployed', maps_to: 'done' }] },
          },
        },
      },
    },
    responses: {
      200: jsonResponse(statusMappingSchema, 'The mapping as saved.'),
      400: errorResponse('A field of the body is invalid or a name is mapped twice; the message names it.'),
      413: errorResponse('The body is larger than the mapping at its bounds.'),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/work-packages/checks',
    operationId: 'listWorkPackageChecks',
    summary: 'List the checks after syncs that found done work packages still vulnerable',
    description: 'Newest first, the last 100: each with the steps whose ticket is done and whose findings were still open after the sync, and the endpoints.',
    tag,
    responses: { 200: jsonResponse(doneCheckListSchema, 'The checks.') },
  });
};
