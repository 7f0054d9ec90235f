import fs from 'node:fs';
import path from 'node:path';
import express from 'express';
import { fieldErrorSchema, uuidSchema } from '../../../contracts/common.js';
import {
  createReportBodySchema,
  reportFiguresSchema,
  reportListSchema,
  reportQuerySchema,
  reportSummarySchema,
  type ReportTemplate,
} from '../../../contracts/console/reports.js';
import { type AppendixFormat, ReportMovedError, appendixPaths } from '../../reports/report-appendix.js';
import { makeReport } from '../../reports/make-report.js';
import { reportContentSecurityPolicy } from '../../reports/report-content-security-policy.js';
import { ReportFilterError } from '../../reports/report-filter.js';
import { SyncDeltaError } from '../../reports/sync-delta.js';
import type { Sealer } from '../../secrets/sealer.js';
import type { Organization } from '../../store/records/organization-records.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse, queryErrors } from '../openapi/responses.js';
import { parseQuery } from '../query-parameters.js';
import { jsonBody, parsedBody } from './json-body.js';
import { organizationOf } from './organization-param.js';
import { uuidParam } from './uuid-param.js';

/** What the reports' routes need beside the store: the signing keys' sealer and the version the footer names. */
export interface ReportRoutesContext {
  sealer: Sealer;
  productVersion: string;
  /** Where technical reports' appendices are written and read (report-appendix.ts). */
  appendixFolder: string;
}

/**
 * An organization's reports (issue 40), under `/app/orgs/:slug/reports`: made from a filter of
 * the findings list (`POST`, the figures read and the HTML signed and kept), listed, and read
 * back as they were made, the HTML, its detached signature or its figures.
 */
export function reportRoutes(store: Store, context: ReportRoutesContext): express.Router {
  const router = express.Router({ mergeParams: true });

  router.post('/reports', jsonBody('8kb'), async (req, res) => {
    const body = parsedBody(req, res, createReportBodySchema, 'the report');
    if (!body) return;
    try {
      const source = body.view === undefined ? { filter: body.filter } : { view: body.view };
      const report = await makeReport(store, context.sealer, reportOrganizations(store, organizationOf(res), body.organizations), source, {
        template: body.template,
        productVersion: context.productVersion,
        appendixFolder: context.appendixFolder,
        compareSyncs: body.compare_syncs,
      });
      res.status(201).location(`reports/${report.summary.id}`).json(report.summary);
    } catch (error) {
      if (error instanceof ReportFilterError || error instanceof SyncDeltaError) throw new HttpError(400, error.message);
      if (error instanceof ReportMovedError) throw new HttpError(409, error.message);
      throw error;
    }
  });

  router.get('/reports', (_req, res) => {
    res.json({ data: store.reports.list(organizationOf(res).rowId) });
  });

  router.get('/reports/:reportId', async (req, res) => {
    const reportId = uuidParam(req, 'reportId');
    const { format } = parseQuery(req, reportQuerySchema);
    const report = await store.reports.get(organizationOf(res).rowId, reportId);
    if (!report) throw new HttpError(404, `Report ${reportId} not found`);
    const name = `report-${reportId}.html`;
    switch (format) {
      case 'html':
        res.set('Content-Security-Policy', reportContentSecurityPolicy).set('Content-Disposition', `inline; filename="${name}"`).type('text/html').send(report.html);
        return;
      case 'p7s':
        res.set('Content-Disposition', `attachment; filename="${name}.p7s"`).type('application/pkcs7-signature').send(report.signature);
        return;
      case 'json':
        res.type('application/json').send(report.figures);
        return;
      default:
        sendAppendix(res, report.summary.template, appendixPaths(context.appendixFolder, reportId), format);
    }
  });

  return router;
}

/**
 * The organizations a report is asked of: `slugs` when given, the path's `organization` first,
 * else that organization alone.
 * @throws HttpError 400 naming a slug no organization has, or a first that is not the path's
 */
function reportOrganizations(store: Store, organization: Organization, slugs: readonly string[] | undefined): Organization[] {
  if (slugs === undefined) return [organization];
  if (slugs[0] !== organization.slug) throw new HttpError(400, `organizations: the first must be "${organization.slug}", the organization the report is kept under`);
  return slugs.map((slug) => {
    const named = store.organizations.bySlug(slug);
    if (!named) throw new HttpError(400, `organizations: no organization "${slug}"`);
    return named;
  });
}

/** Streams a technical report's appendix file; an executive report has none (404). */
function sendAppendix(res: express.Response, template: ReportTemplate, files: Record<AppendixFormat, string>, format: 'appendix-csv' | 'appendix-json'): void {
  const kind = format === 'appendix-csv' ? 'csv' : 'json';
  if (template !== 'technical') throw new HttpError(404, 'An executive report has no appendix: make a technical one');
  const file = files[kind];
  if (!fs.existsSync(file)) throw new HttpError(404, "The report's appendix is not in this data directory");
  res
    .set('Content-Disposition', `attachment; filename="${path.basename(file)}"`)
    .type(kind === 'csv' ? 'text/csv; charset=utf-8' : 'application/json');
  // A read that fails midway ends the download as failed, never as a short file that looks whole.
  fs.createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}

/** {@link reportRoutes} in the /app OpenAPI document. */
export const reportOperations: OpenApiRouteRegistrar = (registry) => {
  registerOrganizationOperation(registry, {
    method: 'post',
    path: '/reports',
    operationId: 'createReport',
    summary: 'Make a report',
    description:
      "Reads the figures of the filter now, of each organization of `organizations` (one section each; default the path's alone), draws the report's HTML, signs it with each organization's signing identity (one detached CMS signature, a signer each; a replica gets an identity at its first report) and keeps all three, frozen. " +
      'The delta is against the previous report of the same filter and template, or, with `compare_syncs`, between two of the organization\'s recorded syncs (`listSyncChanges`), under the filter (of one organization only).',
    tag: 'Reports',
    request: { body: { required: true, content: { 'application/json': { schema: createReportBodySchema } } } },
    responses: {
      201: jsonResponse(reportSummarySchema, 'The report, made and kept; `Location` names it.'),
      400: jsonResponse(fieldErrorSchema, 'The body is not JSON or not a report (a filter and a view both given), `organizations` names an organization twice, one not found, or first another than the path\'s, the filter names an unknown, repeated, invalid or report-set parameter, or the view is not one of the organization\'s saved views or holds a filter the findings list does not take, or `compare_syncs` names a sync not recorded, a span across a sync that did not keep its findings, or is given with several organizations; the message names it. Nothing is kept.'),
      409: errorResponse("The findings changed while a technical report's appendix was written: nothing is kept; make it again."),
      413: errorResponse('The body is larger than 8 kB.'),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/reports',
    operationId: 'listReports',
    summary: "List the organization's reports",
    description: 'Newest first: those kept under the organization, and those of several organizations with a section of it.',
    tag: 'Reports',
    responses: { 200: jsonResponse(reportListSchema, 'The reports.') },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/reports/:reportId',
    operationId: 'getReport',
    summary: 'Get a report',
    description:
      "As it was made, never computed again: its HTML (to open or print), its detached CMS signature (`format=p7s`) or its figures (`format=json`); of a technical report, its appendix, streamed (`format=appendix-csv`, `format=appendix-json`).",

    tag: 'Reports',
    params: { reportId: uuidSchema.meta({ description: "The report's id." }) },
    request: { query: reportQuerySchema },
    responses: {
      200: {
        description: 'The HTML report, its signature or its figures, as `format` asks.',
        content: {
          'text/html': { schema: { type: 'string' } },
          'application/pkcs7-signature': { schema: { type: 'string', format: 'binary' } },
          'application/json': { schema: reportFiguresSchema },
          'text/csv': { schema: { type: 'string' } },
        },
      },
      ...queryErrors('The reportId is not a UUID, or `format` is not html, p7s, json, appendix-csv or appendix-json.'),
      404: errorResponse('No report with this id covers the organization (kept under it, or with a section of it), or an appendix is asked of an executive report (or of one whose appendix is not in this data directory).'),
    },
  });
};
