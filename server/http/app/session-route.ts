import express from 'express';
import { type ConsoleSession, consoleSessionSchema } from '../../../contracts/console/session.js';
import type { Sealer } from '../../secrets/sealer.js';
import { registerConsoleOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, jsonResponse } from '../openapi/responses.js';

/** `GET /app/session`: where local tools reach the loopback API, and how this process seals secrets. */
export function sessionRoute(context: { apiBaseUrl: () => string; sealer?: Sealer }): express.Router {
  const router = express.Router();
  router.get('/session', (_req, res) => {
    res.json({ apiBaseUrl: context.apiBaseUrl(), secretStorage: context.sealer?.secretStorage ?? null } satisfies ConsoleSession);
  });
  return router;
}

/** {@link sessionRoute} in the /app OpenAPI document. */
export const sessionOperations: OpenApiRouteRegistrar = (registry) =>
  registerConsoleOperation(registry, {
    method: 'get',
    path: '/session',
    operationId: 'getSession',
    summary: 'Get the session',
    description: 'The base URL of the loopback API, for local tools, and how secrets are sealed at rest.',
    tag: 'Session',
    responses: { 200: jsonResponse(consoleSessionSchema, 'The session.') },
  });
