import type { RequestListener } from 'node:http';
import express, { type ErrorRequestHandler } from 'express';
import type { Store } from '../store/store.js';
import { HttpError, sendError } from './http-error.js';
import { guardHeaders, refuseMisdirected } from './loopback-guard.js';
import { v1Pipeline } from './v1/v1-pipeline.js';
import { methodNotAllowed, v1Target } from './v1/v1-paths.js';
import type { V1Extension } from './v1/v1-routes.js';

/** What the HTTP app is made of; the optional parts are added by the modules that own them. */
export interface HttpAppOptions {
  store: Store;
  /** The Host header values the app answers, known once the server listens. */
  acceptedHosts: () => Set<string>;
  /** Routes under /v1 owned by other modules, with their OpenAPI registration. */
  v1Extensions?: V1Extension[];
  /** The console's control API under /app and the built console at /. */
  console?: { appRouter?: express.Router; staticRouter?: express.Router };
  /** Where causes of 500 answers are written; never to the client. */
  log?: (message: string, error: unknown) => void;
}

const logToStderr = (message: string, error: unknown) => console.error(message, error);

/**
 * The server's request listener: the Host check first, then the v1 API and its OpenAPI
 * document (v1/v1-pipeline.ts, without express), and express for `/health`, the console's
 * /app and the console itself. Errors are answered as `{"error": ...}` and never with internal
 * detail.
 */
export function createHttpApp(options: HttpAppOptions): RequestListener {
  const { store, v1Extensions = [], log = logToStderr } = options;
  const v1 = v1Pipeline({ store, extensions: v1Extensions, log });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', false);

  app.use((_req, res, next) => {
    res.set(guardHeaders);
    next();
  });

  app
    .route('/health')
    .get((_req, res) => {
      if (store.isHealthy()) res.json({ status: 'ok' });
      else sendError(res, 503, 'The store is not answering');
    })
    .all((req) => {
      throw methodNotAllowed(req.method);
    });

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

  return (req, res) => {
    if (refuseMisdirected(req, res, options.acceptedHosts())) return;
    const target = v1Target(req.url ?? '/');
    if (target === undefined) app(req, res);
    else v1(req, res, target);
  };
}
