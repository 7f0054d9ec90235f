import express from 'express';
import { syncChangesIdParamSchema, syncChangesListSchema, syncChangesSchema } from '../../../contracts/console/sync-changes.js';
import { syncChangesKept } from '../../../contracts/console/sync-change-bounds.js';
import type { Organization } from '../../store/records/organization-records.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse } from '../openapi/responses.js';
import { organizationOf } from './organization-param.js';

/** The organization of the request, which must be a replica: a local organization never syncs, so it has no changes to ask for. */
function replicaOf(res: express.Response): Organization {
  const organization = organizationOf(res);
  if (organization.kind !== 'replica') throw new HttpError(409, `"${organization.slug}" is a local organization; only replicas sync`);
  return organization;
}

/**
 * What each sync of a replica changed, under `/app/orgs/:slug`: `GET /sync-changes`, the last
 * syncs that changed something, newest first; `GET /sync-changes/:changesId`, one of them (the
 * desktop notification and the console's banner link to it). Read from the store alone, so
 * mounted whether or not this server syncs.
 */
export function syncChangesRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });
  router.get('/sync-changes', (_req, res) => {
    res.json({ data: store.syncChanges.list(replicaOf(res).rowId) });
  });
  router.get('/sync-changes/:changesId', (req, res) => {
    // The request first (400), then the organization's kind (409), as every /app route checks them.
    const id = syncChangesIdParamSchema.safeParse(req.params.changesId);
    if (!id.success) throw new HttpError(400, `Invalid path parameter "changesId": ${id.error.issues[0]!.message}`);
    const organization = replicaOf(res);
    const changes = store.syncChanges.get(organization.rowId, id.data);
    if (!changes) throw new HttpError(404, `No changes ${id.data} of "${organization.slug}" are kept`);
    res.json(changes);
  });
  return router;
}

const localOrganization = errorResponse('The organization is local: only replicas sync.');

/** {@link syncChangesRoutes} in the /app OpenAPI document. */
export const syncChangesOperations: OpenApiRouteRegistrar = (registry) => {
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/sync-changes',
    operationId: 'listSyncChanges',
    summary: 'List what the syncs of a replica changed',
    description:
      `The last ${syncChangesKept} syncs that changed something, newest first: per collection the items created, updated and removed, ` +
      'and the findings that became open critical or KEV and those remediated. A sync that changed nothing is not listed; ' +
      "the replica's first sync lists its counts alone.",
    tag: 'Sync',
    responses: { 200: jsonResponse(syncChangesListSchema, "The replica's recorded sync changes."), 409: localOrganization },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/sync-changes/:changesId',
    operationId: 'getSyncChanges',
    summary: 'Get what one sync of a replica changed',
    tag: 'Sync',
    params: { changesId: syncChangesIdParamSchema },
    responses: {
      200: jsonResponse(syncChangesSchema, "The sync's changes."),
      400: errorResponse('The changesId is not a positive whole number.'),
      404: errorResponse('The replica keeps no changes with this id (only the last are kept).'),
      409: localOrganization,
    },
  });
};
