import express from 'express';
import type { Store } from '../../store/store.js';
import { requireConsoleToken } from './require-console-token.js';

/** What the console's control API needs. */
export interface AppRouterContext {
  store: Store;
  consoleToken: string;
  /** The base URL of the loopback API, shown to the user for local tools. */
  apiBaseUrl: () => string;
}

/** The console's control API under /app (DESIGN section 4), guarded by the console token. */
export function appRouter(context: AppRouterContext): express.Router {
  const router = express.Router();
  router.use(requireConsoleToken(context.consoleToken));
  router.get('/session', (_req, res) => {
    res.json({ apiBaseUrl: context.apiBaseUrl() });
  });
  router.get('/organizations', (_req, res) => {
    res.json({
      data: context.store.organizations.list().map(({ rowId: _rowId, certificatePem: _pem, ...organization }) => organization),
    });
  });
  return router;
}
