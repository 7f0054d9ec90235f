import express from 'express';
import * as z from 'zod';
import { type ConsoleCredential, consoleCredentialListSchema, signedOutSchema } from '../../../contracts/console/session.js';
import type { ConsoleCredentialRecord, ConsoleSessions } from '../../secrets/console-sessions.js';
import { HttpError } from '../http-error.js';
import { registerConsoleOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse } from '../openapi/responses.js';
import { currentCredentialId } from './require-console-token.js';
import { clearSessionCookie } from './session-cookie.js';

const sessionIdPattern = /^[A-Za-z0-9_-]{22}$/;

const listed = (record: ConsoleCredentialRecord, current: string | undefined): ConsoleCredential => ({
  ...record,
  createdAt: new Date(record.createdAt).toISOString(),
  lastUsedAt: new Date(record.lastUsedAt).toISOString(),
  expiresAt: new Date(record.expiresAt).toISOString(),
  current: record.id === current,
});

/**
 * The data directory's browser sessions and script tokens under `/app/sessions`: list (the
 * request's own marked), revoke one, and sign out every other browser session.
 */
export function sessionsRoutes(sessions: ConsoleSessions): express.Router {
  const router = express.Router();

  router.get('/sessions', (_req, res) => {
    const current = currentCredentialId(res);
    res.json({ data: sessions.list().map((record) => listed(record, current)) });
  });

  router.post('/sessions/sign-out-others', (_req, res) => {
    res.json({ revoked: sessions.revokeAll({ kind: 'browser', exceptId: currentCredentialId(res) }) });
  });

  router.delete('/sessions/:sessionId', (req, res) => {
    const id = String(req.params.sessionId);
    if (!sessionIdPattern.test(id)) throw new HttpError(400, 'Invalid path parameter "sessionId": a session id is 22 characters of A-Z, a-z, 0-9, "-" and "_"');
    if (!sessions.revoke(id)) throw new HttpError(404, `No session or script token ${id}: it was revoked, has expired or never existed`);
    if (id === currentCredentialId(res)) clearSessionCookie(res, sessions);
    res.status(204).end();
  });

  return router;
}

/** {@link sessionsRoutes} in the /app OpenAPI document. */
export const sessionsOperations: OpenApiRouteRegistrar = (registry) => {
  registerConsoleOperation(registry, {
    method: 'get',
    path: '/sessions',
    operationId: 'listSessions',
    summary: 'List the browser sessions and script tokens',
    description:
      'Every browser session and script token of this data directory that has not ended, the oldest first, with when each was made and last used ' +
      '(recorded at most once a minute) and when it ends unless used; `current` marks the one of this request. Never a secret.',
    tag: 'Session',
    responses: { 200: jsonResponse(consoleCredentialListSchema, 'The sessions and script tokens.') },
  });
  registerConsoleOperation(registry, {
    method: 'post',
    path: '/sessions/sign-out-others',
    operationId: 'signOutOtherSessions',
    summary: 'Sign out all other browser sessions',
    description: "Revokes every browser session but this request's (all of them from the desktop app or a script). Script tokens stay: revoke them one by one.",
    tag: 'Session',
    responses: { 200: jsonResponse(signedOutSchema, 'How many sessions were revoked.') },
  });
  registerConsoleOperation(registry, {
    method: 'delete',
    path: '/sessions/:sessionId',
    operationId: 'revokeSession',
    summary: 'Revoke a browser session or script token',
    description: 'Its credential is refused from then on, everywhere. Revoking the session of the request also drops its cookie.',
    tag: 'Session',
    request: { params: z.object({ sessionId: z.string().regex(sessionIdPattern).meta({ description: 'The id `listSessions` gives.', example: 'Jx1dOq4x3d0v8yW2nL5cQg' }) }) },
    responses: {
      204: { description: 'Revoked.' },
      400: errorResponse('The sessionId is not a session id.'),
      404: errorResponse('No session or script token has this id (any more).'),
    },
  });
};
