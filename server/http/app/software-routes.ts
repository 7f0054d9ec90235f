import express from 'express';
import * as z from 'zod';
import {
  remediationPlanQuerySchema,
  remediationPlanSchema,
  remediationPlanStepSchema,
  softwareDetailSchema,
  softwareIdSchema,
  softwareListQuerySchema,
  type SoftwareListProduct,
  softwareListProductSchema,
  softwareListSchema,
  softwareVersionDetailSchema,
  softwareVersionQuerySchema,
  targetUpdateSchema,
} from '../../../contracts/console/software.js';
import { uuidSchema } from '../../../contracts/common.js';
import { type CsvColumn, field, spread } from '../../../contracts/csv-columns.js';
import { fixByFiltersGiven } from '../../store/ssvc/fix-by-figures.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, fileResponse, jsonResponse, queryErrors } from '../openapi/responses.js';
import { parseQuery } from '../query-parameters.js';
import { csvLine } from './csv-columns.js';
import { organizationOf } from './organization-param.js';
import { uuidParam } from './uuid-param.js';

/** A product or version id of the path, checked as the query parameters are. */
function softwareIdParam(req: express.Request, name: 'productId' | 'versionId'): string {
  const parsed = softwareIdSchema.safeParse(req.params[name]);
  if (!parsed.success) throw new HttpError(400, `Invalid path parameter "${name}": ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

/** The column `update_to_<name>` of a field of a product's version to update to. */
const updateToColumn = (name: 'verdict' | 'version'): CsvColumn => ({
  header: `update_to_${name}`,
  value: (product) => (product as SoftwareListProduct).update_to[name],
});

/**
 * The software list's CSV columns: a product's fields, its open findings spread over
 * `open_findings.*`, and the verdict and version of its version to update to (the sentence and
 * the version's id are the API's).
 */
const softwareCsvColumns = Object.keys(softwareListProductSchema.shape).flatMap((name) => {
  if (name === 'open_findings') return spread(name, softwareListProductSchema.shape.open_findings.shape);
  if (name === 'update_to') return [updateToColumn('verdict'), updateToColumn('version')];
  return [field(name)];
});

/** The remediation plan's CSV columns: a step's fields, under their own names. */
const planCsvColumns = Object.keys(remediationPlanStepSchema.shape).map(field);

/** Answers `items` as a CSV file named `fileName`, one line per item in `columns`, headers first. */
function sendCsv(res: express.Response, fileName: string, columns: CsvColumn[], items: object[]) {
  let text = csvLine(columns.map((column) => column.header));
  for (const item of items) text += csvLine(columns.map((column) => column.value(item as Record<string, unknown>)));
  res.status(200).set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${fileName}"` }).send(text);
}

/** The OpenAPI answers of a CSV export of `columns`: the file, or a 400 naming the query parameter. */
const csvResponses = (columns: CsvColumn[], what: string) => ({
  200: fileResponse('text/csv', z.string().meta({ description: `RFC 4180 CSV, CRLF line ends; the columns: ${columns.map((column) => column.header).join(', ')}.` }), what),
  ...queryErrors(),
});

/**
 * The software view and the remediation plan, under `/app/orgs/:slug`: remediation targets
 * grouped by vendor and product (`/software`), a product with its versions, a version with its
 * installs, the list as CSV, and the plan that closes the most open critical or KEV findings for
 * the fewest endpoints touched (`/remediation-plan`).
 */
export function softwareRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });
  router.get('/software', async (req, res) => {
    res.json(await store.software.list(organizationOf(res).rowId, parseQuery(req, softwareListQuerySchema)));
  });
  router.get('/software/:productId', async (req, res) => {
    const productId = softwareIdParam(req, 'productId');
    const detail = await store.software.product(organizationOf(res).rowId, productId);
    if (!detail) throw new HttpError(404, `Product ${productId} not found`);
    res.json(detail);
  });
  router.get('/software/:productId/versions/:versionId', async (req, res) => {
    const productId = softwareIdParam(req, 'productId');
    const versionId = softwareIdParam(req, 'versionId');
    const paging = parseQuery(req, softwareVersionQuerySchema);
    const detail = await store.software.version(organizationOf(res).rowId, productId, versionId, paging);
    if (!detail) throw new HttpError(404, `Version ${versionId} of product ${productId} not found`);
    res.json(detail);
  });
  router.get('/remediation-targets/:targetId/update-to', async (req, res) => {
    const targetId = uuidParam(req, 'targetId');
    const answer = await store.software.targetUpdate(organizationOf(res).rowId, targetId);
    if (!answer) throw new HttpError(404, `Remediation target ${targetId} not found`);
    res.json(answer);
  });
  router.get('/export/software.csv', async (req, res) => {
    // limit and offset are validated as in the list, then ignored: the export is every page.
    const query = parseQuery(req, softwareListQuerySchema);
    const organization = organizationOf(res);
    // Products are few (one per vendor and product): the export is the whole list, one answer of one version of the figures.
    const { data } = await store.software.list(organization.rowId, { ...query, offset: 0, limit: Number.MAX_SAFE_INTEGER });
    sendCsv(res, `${organization.slug}-software.csv`, softwareCsvColumns, data);
  });
  /** The plan of the request's organization that its query asks for: the JSON's and the CSV's. */
  const askedPlan = (req: express.Request, res: express.Response) => {
    const { tag, criticality, osFamily, sort, ...fixBy } = parseQuery(req, remediationPlanQuerySchema);
    return store.software.plan(organizationOf(res).rowId, { tag, criticality, osFamily }, fixByFiltersGiven(fixBy), sort);
  };
  router.get('/remediation-plan', async (req, res) => {
    res.json(await askedPlan(req, res));
  });
  router.get('/export/remediation-plan.csv', async (req, res) => {
    const { steps } = await askedPlan(req, res);
    sendCsv(res, `${organizationOf(res).slug}-remediation-plan.csv`, planCsvColumns, steps);
  });
  return router;
}

const productIdParam = softwareIdSchema.meta({ description: "The product's id, from the software list." });

/** {@link softwareRoutes} in the /app OpenAPI document. */
export const softwareOperations: OpenApiRouteRegistrar = (registry) => {
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/software',
    operationId: 'listSoftware',
    summary: 'List the software: remediation targets grouped by vendor and product',
    description:
      'Per product: its versions, the endpoints with a target of it that is not resolved, what its open findings expose (a finding belongs to the product of its remediation target), ' +
      "and the version to update it to (`update_to`: the verdict, the version and the sentence of `getSoftware`'s, of the whole fleet whatever `tag` or `criticality` keep). Riskiest first unless sorted otherwise.",
    tag: 'Software',
    request: { query: softwareListQuerySchema },
    responses: { 200: jsonResponse(softwareListSchema, 'One page of the products.'), ...queryErrors() },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/software/:productId',
    operationId: 'getSoftware',
    summary: 'Get a product with its versions',
    tag: 'Software',
    params: { productId: productIdParam },
    description: 'With the version to update it to: the newest version seen in the fleet, and whether it has no open critical or KEV finding.',
    responses: {
      200: jsonResponse(softwareDetailSchema, 'The product, its versions, riskiest first, and the version to update it to.'),
      400: errorResponse('The productId is not a software id.'),
      404: errorResponse('The organization has no product with this id.'),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/software/:productId/versions/:versionId',
    operationId: 'getSoftwareVersion',
    summary: 'Get a version of a product with its installs',
    description: "One page of the version's remediation targets with their endpoints, riskiest first, then by hostname.",
    tag: 'Software',
    params: { productId: productIdParam, versionId: softwareIdSchema.meta({ description: "The version's id, from the product's answer." }) },
    request: { query: softwareVersionQuerySchema },
    responses: {
      200: jsonResponse(softwareVersionDetailSchema, 'The version and one page of its installs.'),
      ...queryErrors('An id is not a software id, or a query parameter is invalid; the message names it.'),
      404: errorResponse('The organization has no such version of such a product.'),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/remediation-targets/:targetId/update-to',
    operationId: 'getTargetUpdate',
    summary: "Get the version to update a remediation target's product to",
    description:
      "The target's product (vendor and product, as the software view groups them), its own version, and the newest version of the product seen in the fleet with its installs and open findings; the sentence says whether it is clean of open critical and KEV findings.",
    tag: 'Software',
    params: { targetId: uuidSchema.meta({ description: "The remediation target's id." }) },
    responses: {
      200: jsonResponse(targetUpdateSchema, "The target's product and the version to update it to."),
      400: errorResponse('The targetId is not a UUID.'),
      404: errorResponse('The organization has no remediation target with this id.'),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/export/software.csv',
    operationId: 'exportSoftwareCsv',
    summary: 'Export the software list as CSV',
    description: "Every product of the list with the list's q and sort, in its order; limit and offset are checked, then ignored.",
    tag: 'Exports',
    request: { query: softwareListQuerySchema },
    responses: csvResponses(softwareCsvColumns, 'The products, as CSV.'),
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/remediation-plan',
    operationId: 'getRemediationPlan',
    summary: 'Get the remediation plan',
    description:
      "The products in the order that closes the most open critical or KEV findings for the fewest endpoints touched (greedily, per endpoint not yet touched; each finding weighed by its endpoint's criticality), with the cumulative share closed after each and what reaching 50, 80 and 95 % takes. " +
      'With `tag`, `criticality` or `osFamily`, the plan for the findings of the endpoints they keep; with `bod2604Outcome`, `ssvcDecision` or `fixByBefore`, for the open findings they keep only (as the findings list filters them). ' +
      "Each step has its `rank` in the plan and `fix_by`, the earliest fix-by date of the findings it closes. With `sort=fix_by` (or `-fix_by`) the steps are listed by that date, those without one last; each keeps its rank and its cumulative figures of the plan's order, and the milestones are the plan's: the same plan, listed otherwise.",
    tag: 'Software',
    request: { query: remediationPlanQuerySchema },
    responses: { 200: jsonResponse(remediationPlanSchema, 'The plan.'), ...queryErrors() },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/export/remediation-plan.csv',
    operationId: 'exportRemediationPlanCsv',
    summary: 'Export the remediation plan as CSV',
    description: "The plan's steps in the order `sort` gives (the plan's by default), with the plan's tag, criticality, bod2604Outcome, ssvcDecision and fixByBefore; each with its rank and cumulative figures of the plan's order.",
    tag: 'Exports',
    request: { query: remediationPlanQuerySchema },
    responses: csvResponses(planCsvColumns, "The plan's steps, as CSV."),
  });
};
