import express from 'express';
import { type CollectionName, collectionNames, collectionSchemas, collections } from '../../../contracts/collections.js';
import { uuidSchema } from '../../../contracts/common.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse, queryErrors } from '../openapi/responses.js';
import { parseQuery } from '../query-parameters.js';
import { pageJson, sendJson } from './json-page.js';
import { organizationOf } from './organization-param.js';
import { uuidParam } from './uuid-param.js';

/** The express paths of a collection's list and of one of its items, below `/app/orgs/:slug`. */
function collectionPaths(collection: CollectionName) {
  const { path, idParameter } = collections[collection];
  return { list: `/${path}`, item: `/${path}/:${idParameter}` };
}

/** The list and get routes of one collection for the console. */
function collectionRoutes<C extends CollectionName>(router: express.Router, store: Store, collection: C): void {
  const { labels, idParameter } = collections[collection];
  const paths = collectionPaths(collection);
  router.get(paths.list, async (req, res) => {
    const query = parseQuery(req, collectionSchemas[collection].console);
    const org = organizationOf(res).rowId;
    // One instant for the list's overdue filter and its items' ages.
    const asOf = store.deadlines.asOf();
    sendJson(res, await pageJson(store, collection, org, await store.console.listIds(org, collection, query, asOf), query, asOf));
  });
  router.get(paths.item, async (req, res) => {
    const id = uuidParam(req, idParameter);
    const [json] = await store.consoleItems.get(collection, organizationOf(res).rowId, [id]);
    if (json === undefined) throw new HttpError(404, `${labels.resource} ${id} not found`);
    sendJson(res, json);
  });
}

/**
 * The collections for the console, under `/app/orgs/:slug`: the filters and JSON of /v1 plus
 * `sort`, `q` and the console's own fields of each item (contracts/collections.ts), for any
 * organization without holding its key.
 */
export function inventoryRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });
  for (const collection of collectionNames) collectionRoutes(router, store, collection);
  return router;
}

/** {@link inventoryRoutes} in the /app OpenAPI document. */
export const inventoryOperations: OpenApiRouteRegistrar = (registry) => {
  for (const collection of collectionNames) {
    const { labels, idParameter, consoleItem, consoleList, consoleQuery, resourceId } = collections[collection];
    const paths = collectionPaths(collection);
    registerOrganizationOperation(registry, {
      method: 'get',
      path: paths.list,
      operationId: `listConsole${resourceId}s`,
      summary: `List ${labels.title.toLowerCase()}`,
      description: "The filters of /v1, with the sort and free-text search of the console; each item is the /v1 item with the console's own fields.",
      tag: 'Inventory',
      request: { query: consoleQuery },
      responses: { 200: jsonResponse(consoleList, 'One page of the list.'), ...queryErrors() },
    });
    registerOrganizationOperation(registry, {
      method: 'get',
      path: paths.item,
      operationId: `getConsole${resourceId}`,
      summary: `Get one ${labels.resource.toLowerCase()}`,
      tag: 'Inventory',
      params: { [idParameter]: uuidSchema.meta({ description: `The ${labels.noun}'s id.` }) },
      responses: {
        200: jsonResponse(consoleItem, `The ${labels.noun}, with the console's own fields.`),
        400: errorResponse(`The ${idParameter} is not a UUID.`),
        404: errorResponse(`The organization has no ${labels.noun} with this id.`),
      },
    });
  }
};
