import express, { type Request, type Response } from 'express';
import type { z } from 'zod';
import {
  endpointListQuerySchema,
  remediationTargetListQuerySchema,
  scopeListQuerySchema,
  vulnerabilityFindingListQuerySchema,
} from '../../schemas/list-queries.js';
import type { Collection, JsonPage } from '../../store/inventory-reads.js';
import type { Organization } from '../../store/organizations.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { parseQuery } from '../query-parameters.js';
import { requireApiKey } from './require-api-key.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The organization `requireApiKey` found for this request. */
export function organizationOf(res: Response): Organization {
  return res.locals.organization as Organization;
}

function sendJson(res: Response, json: string): void {
  res.type('application/json').send(json);
}

type ListQuery = { limit: number; offset: number };

/** A list operation: validate the query, read one page, answer the envelope of DESIGN section 3. */
function list<S extends z.ZodObject>(schema: S, read: (orgRowId: number, query: z.output<S> & ListQuery) => JsonPage) {
  return (req: Request, res: Response) => {
    const query = parseQuery(req, schema) as z.output<S> & ListQuery;
    const page = read(organizationOf(res).rowId, query);
    sendJson(res, `{"data":[${page.items.join(',')}],"total":${page.total},"limit":${query.limit},"offset":${query.offset}}`);
  };
}

/** A get operation: validate the path id, answer the resource or 404 (also for another organization's id). */
function get(store: Store, collection: Collection, parameter: string, resourceName: string) {
  return (req: Request, res: Response) => {
    const id = req.params[parameter] as string;
    if (!uuidPattern.test(id)) throw new HttpError(400, `Invalid path parameter "${parameter}": must be a UUID`);
    const json = store.inventory.get(collection, organizationOf(res).rowId, id);
    if (json === undefined) throw new HttpError(404, `${resourceName} ${id} not found`);
    sendJson(res, json);
  };
}

function methodNotAllowed(req: Request): never {
  throw new HttpError(405, `Method ${req.method} is not allowed here: use GET or HEAD`, { Allow: 'GET, HEAD' });
}

/** Extra routes under /v1 that live in other modules (the agent configuration download). */
export type V1RouteInstaller = (router: express.Router) => void;

/**
 * The v1 API of the specification, section 4: every route needs an API key, checked before
 * anything else, and reads only the key's organization.
 */
export function v1Router(store: Store, installExtraRoutes: V1RouteInstaller[] = []): express.Router {
  const router = express.Router({ caseSensitive: true, strict: false });
  const { inventory } = store;
  router.use(requireApiKey(store));

  const routes: [string, express.RequestHandler][] = [
    ['/endpoints', list(endpointListQuerySchema, (org, query) => inventory.list(org, { collection: 'endpoints', query }))],
    ['/endpoints/:endpointId', get(store, 'endpoints', 'endpointId', 'Endpoint')],
    ['/remediation-targets', list(remediationTargetListQuerySchema, (org, query) => inventory.list(org, { collection: 'remediationTargets', query }))],
    ['/remediation-targets/:targetId', get(store, 'remediationTargets', 'targetId', 'Remediation target')],
    ['/scopes', list(scopeListQuerySchema, (org, query) => inventory.list(org, { collection: 'scopes', query }))],
    ['/scopes/:scopeId', get(store, 'scopes', 'scopeId', 'Scope')],
    ['/vulnerability-findings', list(vulnerabilityFindingListQuerySchema, (org, query) => inventory.list(org, { collection: 'findings', query }))],
    ['/vulnerability-findings/:findingId', get(store, 'findings', 'findingId', 'Vulnerability finding')],
  ];
  for (const [path, handler] of routes) router.route(path).get(handler).all(methodNotAllowed);
  for (const install of installExtraRoutes) install(router);
  return router;
}

export { methodNotAllowed };
