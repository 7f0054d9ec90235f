import express from 'express';
import { fieldErrorSchema } from '../../../contracts/common.js';
import { HttpError } from '../http-error.js';
import { registerConsoleOperation, registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse, queryErrors } from '../openapi/responses.js';
import { parseQuery } from '../query-parameters.js';
import { organizationOf } from './organization-param.js';
import type { Store } from '../../store/store.js';
import {
  type SyncStatus,
  syncOverviewSchema,
  syncPausedSchema,
  syncRequestQuerySchema,
  syncSettingsSchema,
  syncStartedSchema,
  syncStatusSchema,
} from '../../../contracts/console/sync.js';
import type { SyncScheduler } from '../../sync/sync-scheduler.js';
import { updateSyncSettings } from '../../sync/sync-settings.js';
import { jsonBody, parsedBody } from './json-body.js';

/** The largest body `PUT /app/orgs/:slug/sync/settings` and `/sync/paused` read: one value. */
const settingsBodyLimit = '4kb';

/**
 * `GET /app/sync`: the sync status of every replica, for the console's organizations view and its
 * top-bar indicator (one request, polled only while a sync runs).
 */
export function syncOverviewRoute(store: Store, scheduler: SyncScheduler): express.Router {
  const router = express.Router();
  router.get('/sync', (_req, res) => {
    const data = store.organizations
      .list()
      .filter((organization) => organization.kind === 'replica')
      .flatMap((organization) => scheduler.status(organization.slug) ?? []);
    res.json({ data } satisfies { data: SyncStatus[] });
  });
  return router;
}

/**
 * The console's sync operations, mounted on the organization router of /app (under
 * `/app/orgs/:slug`, after `resolveOrganization`): `GET /sync` answers the replica's sync
 * status with the running sync's progress; `POST /sync` (`?full=true` for a full sync,
 * `?reconcile=true` for a reconcile) starts a sync, or joins the running one, and answers 202
 * at once; the console polls `GET /sync`. `PUT /sync/settings` saves how often the replica is
 * reconciled, `PUT /sync/paused` pauses or resumes its background syncs; both answer its status.
 */
export function syncRoutes(store: Store, scheduler: SyncScheduler): express.Router {
  const router = express.Router({ mergeParams: true });

  router.get('/sync', (_req, res) => {
    res.json(scheduler.status(organizationOf(res).slug));
  });

  router.post('/sync', (req, res) => {
    const organization = organizationOf(res);
    // The app parses no query itself (express's query parser is off): every query goes through its schema, before the organization's kind (400, then 409).
    const { full, reconcile } = parseQuery(req, syncRequestQuerySchema);
    if (organization.kind !== 'replica') throw new HttpError(409, `"${organization.slug}" is a local organization; only replicas sync`);
    const alreadyRunning = scheduler.isRunning(organization.slug);
    // The outcome is recorded in the store and emitted; the console reads it from GET /sync.
    scheduler.syncNow(organization.slug, { full, reconcile }).catch(() => undefined);
    res.status(202).json({ alreadyRunning, status: scheduler.status(organization.slug) });
  });

  router.put('/sync/paused', jsonBody(settingsBodyLimit), async (req, res) => {
    const organization = organizationOf(res);
    const body = parsedBody(req, res, syncPausedSchema, 'the pause setting');
    if (!body) return;
    if (organization.kind !== 'replica') throw new HttpError(409, `"${organization.slug}" is a local organization; only replicas sync`);
    await scheduler.setPaused(organization, body.paused);
    res.json(scheduler.status(organization.slug));
  });

  router.put('/sync/settings', jsonBody(settingsBodyLimit), (req, res) => {
    const organization = organizationOf(res);
    const settings = parsedBody(req, res, syncSettingsSchema, 'the sync settings');
    if (!settings) return;
    if (organization.kind !== 'replica') throw new HttpError(409, `"${organization.slug}" is a local organization; only replicas have sync settings`);
    updateSyncSettings(store, organization, settings);
    res.json(scheduler.status(organization.slug));
  });

  return router;
}

/** {@link syncOverviewRoute} and {@link syncRoutes} in the /app OpenAPI document. */
export const syncOperations: OpenApiRouteRegistrar = (registry) => {
  registerConsoleOperation(registry, {
    method: 'get',
    path: '/sync',
    operationId: 'getSyncOverview',
    summary: "Get every replica's sync status",
    tag: 'Sync',
    responses: { 200: jsonResponse(syncOverviewSchema, "Each replica's sync status, with the running sync's progress.") },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/sync',
    operationId: 'getSyncStatus',
    summary: "Get an organization's sync status",
    tag: 'Sync',
    responses: { 200: jsonResponse(syncStatusSchema, "The sync status, with the running sync's progress.") },
  });
  registerOrganizationOperation(registry, {
    method: 'post',
    path: '/sync',
    operationId: 'startSync',
    summary: 'Start a sync of a replica',
    description: 'Starts a sync, or joins the running one, and answers at once; its progress is read from getSyncStatus.',
    tag: 'Sync',
    request: { query: syncRequestQuerySchema },
    responses: {
      202: jsonResponse(syncStartedSchema, 'The sync runs.'),
      ...queryErrors('full or reconcile is not true or false, or both are true.'),
      409: errorResponse('The organization is local: only replicas sync.'),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'put',
    path: '/sync/paused',
    operationId: 'setSyncPaused',
    summary: "Pause or resume a replica's syncs",
    description:
      'Paused, the replica syncs neither at start nor on the interval (a running sync is interrupted, and the answer waits for it to end); startSync still runs one when asked. Its data and settings stay. For a remote that fails or sends more than the console accepts.',
    tag: 'Sync',
    request: { body: { required: true, content: { 'application/json': { schema: syncPausedSchema } } } },
    responses: {
      200: jsonResponse(syncStatusSchema, 'Saved: the sync status, with `state.paused`.'),
      400: jsonResponse(fieldErrorSchema, "The body is not JSON, or not `{\"paused\": true|false}`: each field's issue is listed, and nothing is saved."),
      409: errorResponse('The organization is local: only replicas sync.'),
      413: errorResponse(`The body is larger than ${settingsBodyLimit}.`),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'put',
    path: '/sync/settings',
    operationId: 'updateSyncSettings',
    summary: "Replace a replica's sync settings",
    description: 'How often the replica is reconciled with its remote (compared item by item, only the differences written), in hours: 1 to 720, 24 by default.',
    tag: 'Sync',
    request: { body: { required: true, content: { 'application/json': { schema: syncSettingsSchema } } } },
    responses: {
      200: jsonResponse(syncStatusSchema, 'The settings are saved: the sync status with them.'),
      400: jsonResponse(fieldErrorSchema, "The body is not JSON, or not the settings: each field's issue is listed, and nothing is saved."),
      409: errorResponse('The organization is local: only replicas have sync settings.'),
      413: errorResponse(`The body is larger than ${settingsBodyLimit}.`),
    },
  });
};
