import express from 'express';
import { type CollectionName, collectionNames, collectionSchemas, collections } from '../../../contracts/collections.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { parseQuery } from '../query-parameters.js';
import { pageJson, sendJson } from './json-page.js';
import { organizationOf } from './organization-param.js';
import { uuidParam } from './uuid-param.js';

/** The list and get routes of one collection for the console. */
function collectionRoutes<C extends CollectionName>(router: express.Router, store: Store, collection: C): void {
  const { path, labels } = collections[collection];
  router.get(`/${path}`, (req, res) => {
    const query = parseQuery(req, collectionSchemas[collection].console);
    const org = organizationOf(res).rowId;
    sendJson(res, pageJson(store, collection, org, store.console.listIds(org, collection, query), query));
  });
  router.get(`/${path}/:id`, (req, res) => {
    const id = uuidParam(req, 'id');
    const json = store.inventory.get(collection, organizationOf(res).rowId, id);
    if (json === undefined) throw new HttpError(404, `${labels.resource} ${id} not found`);
    sendJson(res, json);
  });
}

/**
 * The collections for the console, under `/app/orgs/:slug`: the same filters and JSON as /v1,
 * plus `sort` and `q` (contracts/collections.ts), for any organization without holding its key.
 */
export function inventoryRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });
  for (const collection of collectionNames) collectionRoutes(router, store, collection);
  return router;
}
