import express from 'express';
import { fieldErrorSchema } from '../../../contracts/common.js';
import { cliCommandText } from '../../../contracts/cli-command.js';
import { type ConsoleSession, consoleSessionSchema, openConsoleSessionBodySchema } from '../../../contracts/console/session.js';
import { type ConsoleLinkOutcome, redeemConsoleLink } from '../../secrets/console-links.js';
import type { ConsoleSessions } from '../../secrets/console-sessions.js';
import type { Sealer } from '../../secrets/sealer.js';
import { HttpError } from '../http-error.js';
import { registerConsoleOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, guardAndServerErrors, jsonResponse, mergeResponses } from '../openapi/responses.js';
import { browserLabel } from './browser-label.js';
import { jsonBody, parsedBody } from './json-body.js';
import { currentCredentialId } from './require-console-token.js';
import { clearSessionCookie, refuseCrossOrigin, setSessionCookie } from './session-cookie.js';

/** What the session routes need. */
export interface SessionRouteContext {
  apiBaseUrl: () => string;
  sealer?: Sealer;
  /** The data directory whose console links are opened, and its sessions. */
  consoleLinks: { dataDir: string; sessions: ConsoleSessions };
}

const newLinkHint = `For a new link, run ${cliCommandText('console-url')} (with the server's --data-dir, if it was given one), or restart the server, which prints one.`;

/** Why a link did not open, for the person who opened it. */
const refusals: Record<Exclude<ConsoleLinkOutcome, 'opened'>, string> = {
  used: `This console link was already used: a link opens one browser once, which then keeps its session. ${newLinkHint}`,
  expired: `This console link has expired (a link is good for 24 hours). ${newLinkHint}`,
  unknown: `This console link is not one of this server's. ${newLinkHint}`,
};

const session = (context: SessionRouteContext): ConsoleSession => ({
  apiBaseUrl: context.apiBaseUrl(),
  secretStorage: context.sealer?.secretStorage ?? null,
});

/** The largest body of `POST /session`: room for `{"token": …}` with the longest token it takes, many times over. */
const openBodyLimit = '1kb';

/**
 * `POST /app/session`: opens a console session with a console link's one-time token (the
 * console's page posts its `#token=` fragment, which never reaches the server otherwise) and
 * sets the session cookie. Mounted ahead of the /app guard: the token is the credential. Only
 * the console's own pages may post it (Origin), so another page cannot slip its own session in.
 */
export function openSessionRoute(context: SessionRouteContext): express.Router {
  const router = express.Router();
  // Another origin's page is refused before its body is read.
  const sameOrigin: express.RequestHandler = (req, _res, next) => {
    refuseCrossOrigin(req, true);
    next();
  };
  router.post('/session', sameOrigin, jsonBody(openBodyLimit), (req, res) => {
    const body = parsedBody(req, res, openConsoleSessionBodySchema, '{"token": "<the token of the link>"}');
    if (!body) return;
    const { dataDir, sessions } = context.consoleLinks;
    const outcome = redeemConsoleLink(dataDir, body.token);
    if (outcome !== 'opened') throw new HttpError(401, refusals[outcome]);
    setSessionCookie(res, sessions, sessions.create('browser', { userAgent: browserLabel(req.headers['user-agent']) }).credential);
    res.json(session(context));
  });
  return router;
}

/**
 * `GET /app/session`: where local tools reach the loopback API, and how this process seals
 * secrets; `DELETE`: signs out, revoking the session everywhere (a copy of its cookie is
 * refused from then on) and dropping this browser's cookie; with a script token, revokes it.
 */
export function sessionRoute(context: SessionRouteContext): express.Router {
  const router = express.Router();
  router.get('/session', (_req, res) => {
    res.json(session(context));
  });
  router.delete('/session', (_req, res) => {
    const current = currentCredentialId(res);
    if (current !== undefined) context.consoleLinks.sessions.revoke(current);
    clearSessionCookie(res, context.consoleLinks.sessions);
    res.status(204).end();
  });
  return router;
}

/** {@link openSessionRoute} and {@link sessionRoute} in the /app OpenAPI document. */
export const sessionOperations: OpenApiRouteRegistrar = (registry) => {
  registry.registerPath({
    method: 'post',
    path: '/app/session',
    operationId: 'openSession',
    summary: 'Open a console session with a console link',
    description:
      "Exchanges the one-time token of a console link (the `#token=` fragment of the URL that `serve` or `console-url` prints) for a new browser session's cookie, " +
      'HttpOnly, SameSite=Strict and host-only, which /app then accepts. The session is recorded in the data directory (listed by `listSessions`) ' +
      'and lasts 30 days at most and 7 days unused. A token works once. Only the console\'s own pages may send it: ' +
      'the Origin header must be this server\'s.',
    tags: ['Session'],
    security: [],
    request: { body: { required: true, content: { 'application/json': { schema: openConsoleSessionBodySchema } } } },
    responses: mergeResponses(
      {
        200: { ...jsonResponse(consoleSessionSchema, 'The session is open; the answer sets its cookie.'), headers: { 'Set-Cookie': { description: 'The session cookie.', schema: { type: 'string' } } } },
        400: jsonResponse(fieldErrorSchema, 'The body is not JSON or not `{"token": "..."}`; the message and `issues` name the field.'),
        401: errorResponse('The link was already used, has expired or is not one of this server\'s; the message says which and how to get a new one.'),
        403: errorResponse('The Origin header is absent or not this server\'s.'),
        413: errorResponse(`The body is larger than ${openBodyLimit}.`),
      },
      guardAndServerErrors,
    ),
  });
  registerConsoleOperation(registry, {
    method: 'get',
    path: '/session',
    operationId: 'getSession',
    summary: 'Get the session',
    description: 'The base URL of the loopback API, for local tools, and how secrets are sealed at rest.',
    tag: 'Session',
    responses: { 200: jsonResponse(consoleSessionSchema, 'The session.') },
  });
  registerConsoleOperation(registry, {
    method: 'delete',
    path: '/session',
    operationId: 'endSession',
    summary: 'Sign out',
    description:
      "Revokes the session of the request everywhere (a copy of its cookie is refused from then on) and drops this browser's cookie: " +
      'this browser needs a new console link to open the console again. With a script token, revokes that token; with the desktop app\'s token, changes nothing.',
    tag: 'Session',
    responses: { 204: { description: 'The session is revoked and the cookie dropped.' } },
  });
};
