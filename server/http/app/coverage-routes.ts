import express from 'express';
import { uuidSchema } from '../../../contracts/common.js';
import { coverageGapQuerySchema, coverageGapsSchema, coveragePageQuerySchema, scopeCoverageSchema } from '../../../contracts/console/coverage.js';
import { dashboardSchema } from '../../../contracts/console/dashboard.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse, queryErrors } from '../openapi/responses.js';
import { parseQuery } from '../query-parameters.js';
import { pageJson, sendJson } from './json-page.js';
import { organizationOf } from './organization-param.js';
import { uuidParam } from './uuid-param.js';

/**
 * The dashboard, a scope's coverage and the coverage gaps of an organization, under
 * `/app/orgs/:slug`. The matching rules are those of server/store/coverage/scope-conditions.ts; the
 * first coverage request after a write reads the organization's findings anew, in chunks that
 * leave other requests answered meanwhile (server/store/coverage/scope-coverage.ts).
 */
export function coverageRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });

  router.get('/dashboard', async (_req, res) => {
    res.json(await store.dashboards.dashboard(organizationOf(res).rowId));
  });

  router.get('/scopes/:scopeId/coverage', async (req, res) => {
    const scopeId = uuidParam(req, 'scopeId');
    const query = parseQuery(req, coveragePageQuerySchema);
    const org = organizationOf(res).rowId;
    const coverage = await store.coverage.scope(org, scopeId, query);
    if (!coverage) throw new HttpError(404, `Scope ${scopeId} not found`);
    const { counts, unevaluated, page } = coverage;
    const head = JSON.stringify({ scopeId, counts, unevaluated });
    sendJson(res, `${head.slice(0, -1)},"findings":${await pageJson(store, 'findings', org, page, query)}}`);
  });

  router.get('/coverage-gaps', async (req, res) => {
    const query = parseQuery(req, coverageGapQuerySchema);
    const org = organizationOf(res).rowId;
    const { page, ...summary } = await store.coverage.gaps(org, query);
    const head = JSON.stringify(summary);
    sendJson(res, `${head.slice(0, -1)},"findings":${await pageJson(store, 'findings', org, page, query)}}`);
  });

  return router;
}

/** {@link coverageRoutes} in the /app OpenAPI document. */
export const coverageOperations: OpenApiRouteRegistrar = (registry) => {
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/dashboard',
    operationId: 'getDashboard',
    summary: "Get the organization's dashboard",
    tag: 'Coverage',
    responses: { 200: jsonResponse(dashboardSchema, 'The aggregates of the dashboard.') },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/scopes/:scopeId/coverage',
    operationId: 'getScopeCoverage',
    summary: "Get a scope's coverage",
    description: 'The counts of the findings the scope covers and one page of them, in the default order; criteria the replica cannot evaluate are listed.',
    tag: 'Coverage',
    params: { scopeId: uuidSchema.meta({ description: "The scope's id." }) },
    request: { query: coveragePageQuerySchema },
    responses: {
      200: jsonResponse(scopeCoverageSchema, "The scope's coverage."),
      ...queryErrors('The scopeId is not a UUID, or a query parameter is invalid; the message names it.'),
      404: errorResponse('The organization has no scope with this id.'),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/coverage-gaps',
    operationId: 'listCoverageGaps',
    summary: 'List the coverage gaps',
    description:
      'Open findings that are critical, high or known exploited and that no active scope covers: their counts and one page of them. ' +
      'Findings an active exception covers are left out of the page and of `counts`; `countsBeforeExceptions` counts them.',
    tag: 'Coverage',
    request: { query: coverageGapQuerySchema },
    responses: { 200: jsonResponse(coverageGapsSchema, 'The coverage gaps.'), ...queryErrors() },
  });
};
