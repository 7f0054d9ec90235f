import express from 'express';
import type { ConsoleListQuery } from '../../store/console-queries.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { parseQuery } from '../query-parameters.js';
import { consoleCollections } from './console-collections.js';
import { pageJson, sendJson } from './json-page.js';
import { organizationOf } from './organization-param.js';
import { uuidParam } from './uuid-param.js';

/**
 * The four collections for the console, under `/app/orgs/:slug`: the same filters and JSON as
 * /v1, plus `sort` and `q` (see console-api.ts), for any organization without holding its key.
 */
export function inventoryRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });
  for (const route of consoleCollections) {
    router.get(`/${route.path}`, (req, res) => {
      const query = parseQuery(req, route.schema);
      const org = organizationOf(res).rowId;
      const page = store.console.listIds(org, { collection: route.collection, query } as ConsoleListQuery);
      sendJson(res, pageJson(store, route.collection, org, page, query));
    });
    router.get(`/${route.path}/:id`, (req, res) => {
      const id = uuidParam(req, 'id');
      const json = store.inventory.get(route.collection, organizationOf(res).rowId, id);
      if (json === undefined) throw new HttpError(404, `${route.resourceName} ${id} not found`);
      sendJson(res, json);
    });
  }
  return router;
}
