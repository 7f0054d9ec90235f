import express from 'express';
import { HttpError } from '../http-error.js';
import { parseQuery } from '../query-parameters.js';
import { organizationOf } from './organization-param.js';
import type { Store } from '../../store/store.js';
import { type SyncStatus, syncRequestQuerySchema } from '../../../contracts/console/sync.js';
import type { SyncScheduler } from '../../sync/sync-scheduler.js';

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
 * status with the running sync's progress; `POST /sync` (`?full=true` for a full sync) starts
 * a sync, or joins the running one, and answers 202 at once; the console polls `GET /sync`.
 */
export function syncRoutes(scheduler: SyncScheduler): express.Router {
  const router = express.Router({ mergeParams: true });

  router.get('/sync', (_req, res) => {
    res.json(scheduler.status(organizationOf(res).slug));
  });

  router.post('/sync', (req, res) => {
    const organization = organizationOf(res);
    if (organization.kind !== 'replica') throw new HttpError(409, `"${organization.slug}" is a local organization; only replicas sync`);
    // The app parses no query itself (express's query parser is off): every query goes through its schema.
    const { full } = parseQuery(req, syncRequestQuerySchema);
    const alreadyRunning = scheduler.isRunning(organization.slug);
    // The outcome is recorded in the store and emitted; the console reads it from GET /sync.
    scheduler.syncNow(organization.slug, { full }).catch(() => undefined);
    res.status(202).json({ alreadyRunning, status: scheduler.status(organization.slug) });
  });

  return router;
}
