import express, { type ErrorRequestHandler } from 'express';
import type { Store } from '../store/store.js';
import { attachFastPath } from './fast-path.js';
import { HttpError, sendError } from './http-error.js';
import { loopbackGuard } from './loopback-guard.js';
import type { OpenApiRouteRegistrar } from './openapi/responses.js';
import { buildV1OpenApiDocument } from './openapi/v1-document.js';
import { v1FastPath } from './v1/v1-fast-path.js';
import { type V1RouteInstaller, v1Router } from './v1/v1-router.js';

/** What the HTTP app is made of; the optional parts are added by the modules that own them. */
export interface HttpAppOptions {
  store: Store;
  /** The Host header values the app answers, known once the server listens. */
  acceptedHosts: () => Set<string>;
  /** Routes under /v1 owned by other modules, with their OpenAPI registration. */
  v1Extensions?: { install: V1RouteInstaller; openapi: OpenApiRouteRegistrar }[];
  /** The console's control API under /app and the built console at /. */
  console?: { appRouter?: express.Router; staticRouter?: express.Router };
  /** Where causes of 500 answers are written; never to the client. */
  log?: (message: string, error: unknown) => void;
}

const logToStderr = (message: string, error: unknown) => console.error(message, error);

/**
 * The express app of the server: loopback guard, `/health`, the v1 API, its OpenAPI document,
 * the console; errors answered as `{"error": ...}` and never with internal detail. The v1 lists
 * and gets also have a fast path, taken by servers started with `startServer`, that answers
 * them as this app does without going through express.
 */
export function createHttpApp(options: HttpAppOptions): express.Express {
  const { store, v1Extensions = [], log = logToStderr } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', false);

  app.use(loopbackGuard(options.acceptedHosts));

  app.get('/health', (_req, res) => {
    if (store.isHealthy()) res.json({ status: 'ok' });
    else sendError(res, 503, 'The store is not answering');
  });

  // Built at the first request for it, not while the server starts.
  let openApiJson: string | undefined;
  app.get('/v1/openapi.json', (_req, res) => {
    openApiJson ??= JSON.stringify(buildV1OpenApiDocument(v1Extensions.map((extension) => extension.openapi)));
    res.type('application/json').send(openApiJson);
  });

  app.use('/v1', v1Router(store, v1Extensions.map((extension) => extension.install)));
  if (options.console?.appRouter) app.use('/app', options.console.appRouter);
  if (options.console?.staticRouter) app.use(options.console.staticRouter);

  app.use((req) => {
    throw new HttpError(404, `No such path: ${req.path.slice(0, 200)}`);
  });

  const answerErrors: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    if (error instanceof HttpError) return sendError(res, error.status, error.message, error.headers);
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendError(res, status, status === 400 ? 'Malformed request' : 'The request was refused');
    }
    log(`Internal error answering ${req.method} ${req.path.slice(0, 200)}:`, error);
    sendError(res, 500, 'Internal server error');
  };
  app.use(answerErrors);
  attachFastPath(app, v1FastPath(store, options.acceptedHosts));
  return app;
}
