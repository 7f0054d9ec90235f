import express from 'express';
import type { ConsoleSessions } from '../../secrets/console-sessions.js';
import type { Sealer } from '../../secrets/sealer.js';
import type { Store } from '../../store/store.js';
import type { AgentConfigContext } from '../agent-config-download.js';
import { agentConfigRoutes } from './agent-config-routes.js';
import { agentSettingsRoutes } from './agent-settings-routes.js';
import { apiKeyRoutes } from './api-key-routes.js';
import { coverageRoutes } from './coverage-routes.js';
import { csvExportRoutes } from './csv-export-routes.js';
import { endpointContextRoutes } from './endpoint-context-routes.js';
import { exceptionRoutes } from './exception-routes.js';
import { deadlineRoutes } from './deadline-routes.js';
import { fixByRoutes } from './fix-by-routes.js';
import { inventoryRoutes } from './inventory-routes.js';
import { resolveOrganization } from './organization-param.js';
import { savedViewRoutes } from './saved-view-routes.js';
import { organizationRoutes } from './organization-routes.js';
import type { SyncScheduler } from '../../sync/sync-scheduler.js';
import { syncOverviewRoute, syncRoutes } from './sync-routes.js';
import { type ReportRoutesContext, reportRoutes } from './report-routes.js';
import { requireConsoleToken } from './require-console-token.js';
import { openSessionRoute, sessionRoute } from './session-route.js';
import { sessionsRoutes } from './sessions-routes.js';
import { softwareRoutes } from './software-routes.js';
import { syncChangesRoutes } from './sync-changes-routes.js';
import { organizationIntelRoutes, threatIntelHistoryRoutes } from './threat-intel-history-routes.js';
import { threatIntelRoutes } from './threat-intel-routes.js';
import { workPackageRoutes } from './work-package-routes.js';
import { appPathMethods, servedAppOpenApiDocument } from '../openapi/app-document.js';
import { refuseOtherMethods } from './refuse-other-methods.js';

/** What the console's control API needs. */
export interface AppRouterContext {
  store: Store;
  consoleToken: string;
  /** The data directory whose console links open sessions, and its sessions (DESIGN section 4, "The console session"). */
  consoleLinks: { dataDir: string; sessions: ConsoleSessions };
  /** The base URL of the loopback API, shown to the user for local tools. */
  apiBaseUrl: () => string;
  /** The agent configuration download; left out where the server cannot sign (tests). */
  agentConfig?: AgentConfigContext;
  /** Replica sync: status, progress and sync-now; left out where nothing syncs (tests). */
  sync?: SyncScheduler;
  /**
   * Seals the remote keys of the replicas the console connects, and says how (`GET /session`); left out
   * where nothing is connected (tests).
   */
  sealer?: Sealer;
  /** Reports: the signing keys' sealer and the product's version; left out where nothing signs (tests). */
  reports?: ReportRoutesContext;
}

/**
 * The console's control API under /app (DESIGN section 4), guarded by the desktop app's console
 * token, a script token or a browser's console session, with its OpenAPI document at /app/openapi.json.
 */
export function appRouter(context: AppRouterContext): express.Router {
  const { store } = context;
  const router = express.Router();
  const refuseOthers = refuseOtherMethods(appPathMethods());
  // The one path open without a credential answers its 405 before the guard, as /v1/openapi.json does (and not express's own OPTIONS).
  router.use((req, res, next) => (/^\/session\/?$/i.test(req.path) ? refuseOthers(req, res, next) : next()));
  // A console link's token is the credential of the request that opens a session.
  router.use(openSessionRoute(context));
  router.use(requireConsoleToken({ consoleToken: context.consoleToken, sessions: context.consoleLinks.sessions }));
  // After the credential, as on /v1 (401 whatever else is wrong); before the routes, whose parameters would answer first.
  router.use(refuseOthers);
  // Built at the first request for it, not while the server starts.
  const openApiJson = servedAppOpenApiDocument();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(openApiJson());
  });
  router.use(sessionRoute(context));
  router.use(sessionsRoutes(context.consoleLinks.sessions));
  router.use(organizationRoutes({ store, sealer: context.sealer, sync: context.sync, appendixFolder: context.reports?.appendixFolder }));
  if (context.sync) router.use(syncOverviewRoute(store, context.sync));
  router.use(threatIntelRoutes(store));
  router.use(threatIntelHistoryRoutes(store));

  const organization = express.Router({ mergeParams: true });
  organization.use(resolveOrganization(store));
  organization.use(inventoryRoutes(store));
  organization.use(endpointContextRoutes(store));
  organization.use(coverageRoutes(store));
  organization.use(softwareRoutes(store));
  organization.use(workPackageRoutes(store));
  organization.use(exceptionRoutes(store));
  organization.use(deadlineRoutes(store));
  organization.use(fixByRoutes(store));
  organization.use(syncChangesRoutes(store));
  organization.use(apiKeyRoutes(store));
  organization.use(savedViewRoutes(store));
  organization.use(csvExportRoutes(store));
  organization.use(agentSettingsRoutes(store));
  organization.use(organizationIntelRoutes(store));
  if (context.reports) organization.use(reportRoutes(store, context.reports));
  if (context.agentConfig) organization.use(agentConfigRoutes(store, context.agentConfig));
  if (context.sync) organization.use(syncRoutes(store, context.sync));
  router.use('/orgs/:slug', organization);
  return router;
}
