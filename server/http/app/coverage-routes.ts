import express from 'express';
import { coverageGapQuerySchema, coveragePageQuerySchema } from '../../../contracts/console/coverage.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { parseQuery } from '../query-parameters.js';
import { pageJson, sendJson } from './json-page.js';
import { organizationOf } from './organization-param.js';
import { uuidParam } from './uuid-param.js';

/**
 * The dashboard, a scope's coverage and the coverage gaps of an organization, under
 * `/app/orgs/:slug`. The matching rules are those of server/store/scope-conditions.ts; the
 * first coverage request after a write reads the organization's findings anew, in chunks that
 * leave other requests answered meanwhile (server/store/scope-coverage.ts).
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
    sendJson(res, `${head.slice(0, -1)},"findings":${pageJson(store, 'findings', org, page, query)}}`);
  });

  router.get('/coverage-gaps', async (req, res) => {
    const query = parseQuery(req, coverageGapQuerySchema);
    const org = organizationOf(res).rowId;
    const { page, ...summary } = await store.coverage.gaps(org, query);
    const head = JSON.stringify(summary);
    sendJson(res, `${head.slice(0, -1)},"findings":${pageJson(store, 'findings', org, page, query)}}`);
  });

  return router;
}
