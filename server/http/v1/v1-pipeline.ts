import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Store } from '../../store/store.js';
import { HttpError, sendError } from '../http-error.js';
import { guardHeaders } from '../loopback-guard.js';
import { buildV1OpenApiDocument } from '../openapi/v1-document.js';
import { V1Answers, bearerKey } from './v1-answers.js';
import { V1Paths, decodedParameter, methodNotAllowed, pathOf } from './v1-paths.js';
import { type V1Answer, type V1Extension, type V1Handler, type V1Request, jsonAnswer, v1Routes } from './v1-routes.js';

/** Answers a request whose target (path and query, see `v1Target`) is under /v1. */
export type V1Listener = (req: IncomingMessage, res: ServerResponse, target: string) => void;

const unauthorized = { 'WWW-Authenticate': 'Bearer realm="remediation-inventory"' };
/** A request that asks for a fresh answer, which express's freshness check honours. */
const noCache = /(?:^|,)\s*?no-cache\s*?(?:,|$)/;

/**
 * The v1 API: every request under /v1 is answered here, errors included, once the Host header
 * was checked (loopback-guard.ts). The order of checks is that of docs/decisions/the-v1-api/status-codes-and-the-order-of-checks.md ("Status
 * codes and the order of checks"):
 *
 * 1. `/v1/openapi.json`, the one path answered without a key: GET and HEAD, 405 otherwise;
 * 2. the API key: 401 with `WWW-Authenticate`, whatever else is wrong;
 * 3. the path: 404 for a path of no route (v1-routes.ts), 400 for a malformed escape in its id;
 * 4. the method: 405 with `Allow: GET, HEAD`;
 * 5. the route: the id (400), the query (400, 414), the resource (404), its answer.
 */
export function v1Pipeline(options: { store: Store; extensions: V1Extension[]; log: (message: string, error: unknown) => void }): V1Listener {
  const { store, extensions, log } = options;
  const answers = V1Answers.of(store);
  const routes = new V1Paths<V1Handler>(v1Routes(store, extensions));
  // Built at its first request, not while the server starts.
  let openApiDocument: V1Answer | undefined;
  const publicRoutes = new V1Paths<() => V1Answer>([
    ['/v1/openapi.json', () => (openApiDocument ??= jsonAnswer(Buffer.from(JSON.stringify(buildV1OpenApiDocument(extensions.map((extension) => extension.openapi))))))],
  ]);

  const fail = (req: IncomingMessage, res: ServerResponse, target: string, error: unknown) => {
    if (error instanceof HttpError) return sendError(res, error.status, error.message, { ...guardHeaders, ...error.headers });
    log(`Internal error answering ${req.method} ${pathOf(target).slice(0, 200)}:`, error);
    sendError(res, 500, 'Internal server error', guardHeaders);
  };

  return (req, res, target) => {
    const queryStart = target.indexOf('?');
    const path = queryStart < 0 ? target : target.slice(0, queryStart);
    const read = req.method === 'GET' || req.method === 'HEAD';
    const found = routes.match(path);
    try {
      const publicRoute = found === undefined ? publicRoutes.match(path) : undefined;
      if (publicRoute && !read) throw methodNotAllowed(req.method);
      if (publicRoute) return send(req, res, publicRoute.route());

      const key = bearerKey(req.headers.authorization);
      const organization = key === undefined ? undefined : answers.organizationOf(key);
      if (!organization) {
        const problem = key === undefined ? 'Missing API key: send "Authorization: Bearer <key>"' : 'The API key is not valid';
        throw new HttpError(401, problem, unauthorized);
      }
      if (!found) throw new HttpError(404, `No such path: ${pathOf(target).slice(0, 200)}`);
      if (!read) throw methodNotAllowed(req.method);
      const answerFor = (current: V1Request['organization']) => {
        const answer = found.route({ url: target, organization: current, id: decodedParameter(found.parameter) });
        if (answer instanceof Promise) answer.then((settled) => send(req, res, settled)).catch((error: unknown) => fail(req, res, target, error));
        else send(req, res, answer);
      };
      // A sync applying the organization's changes in parts (SyncSteps.applyInParts): answered after its last part, never half applied.
      const applying = store.syncSteps.whenApplied(organization.rowId);
      if (!applying) return answerFor(organization);
      applying
        .then(() => {
          const current = answers.organizationOf(key!);
          if (!current) throw new HttpError(401, 'The API key is not valid', unauthorized);
          answerFor(current);
        })
        .catch((error: unknown) => fail(req, res, target, error));
    } catch (error) {
      fail(req, res, target, error);
    }
  };
}

/**
 * Writes a 200 answer. Answers carry no validator, so, as express decided, only
 * `If-None-Match: *` (any current answer) is answered 304, unless the request says `no-cache`.
 */
function send(req: IncomingMessage, res: ServerResponse, { body, headers }: V1Answer): void {
  if (req.headers['if-none-match'] === '*' && !noCache.test(req.headers['cache-control'] ?? '')) {
    const { 'Content-Type': _contentType, ...unchanged } = headers;
    res.writeHead(304, { ...guardHeaders, ...unchanged });
    res.end();
    return;
  }
  res.writeHead(200, { ...guardHeaders, ...headers, 'Content-Length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}
