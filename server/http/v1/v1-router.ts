import express, { type Request, type Response } from 'express';
import type { Organization } from '../../store/organizations.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { requireApiKey } from './require-api-key.js';
import { V1Answers, jsonContentType } from './v1-answers.js';
import { collectionNames, collections } from '../../../contracts/collections.js';

/** The organization `requireApiKey` found for this request. */
export function organizationOf(res: Response): Organization {
  return res.locals.organization as Organization;
}

function sendJson(res: Response, body: Buffer): void {
  res.set('Content-Type', jsonContentType).send(body);
}

function methodNotAllowed(req: Request): never {
  throw new HttpError(405, `Method ${req.method} is not allowed here: use GET or HEAD`, { Allow: 'GET, HEAD' });
}

/** Extra routes under /v1 that live in other modules (the agent configuration download). */
export type V1RouteInstaller = (router: express.Router) => void;

/**
 * The v1 API of the specification, section 4: every route needs an API key, checked before
 * anything else, and reads only the key's organization. Lists validate their query and answer
 * the envelope of DESIGN section 3; gets answer 404 also for another organization's id.
 */
export function v1Router(store: Store, installExtraRoutes: V1RouteInstaller[] = []): express.Router {
  const router = express.Router({ caseSensitive: true, strict: false });
  const answers = V1Answers.of(store);
  router.use(requireApiKey(store));

  for (const name of collectionNames) {
    const { path, idParameter } = collections[name];
    router
      .route(`/${path}`)
      .get((req, res) => sendJson(res, answers.list(organizationOf(res).rowId, name, req.originalUrl)))
      .all(methodNotAllowed);
    router
      .route(`/${path}/:${idParameter}`)
      .get((req, res) => sendJson(res, answers.get(organizationOf(res).rowId, name, req.params[idParameter] as string)))
      .all(methodNotAllowed);
  }
  for (const install of installExtraRoutes) install(router);
  return router;
}

export { methodNotAllowed };
