import type { RequestHandler } from 'express';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';

const bearer = /^Bearer[ ]+(\S+)\s*$/i;

/**
 * Finds the organization of the request's API key (`Authorization: Bearer <key>`) and refuses
 * the request with 401 when there is none, before anything else about it is looked at.
 */
export function requireApiKey(store: Store): RequestHandler {
  return (req, res, next) => {
    const match = bearer.exec(req.headers.authorization ?? '');
    const orgRowId = match ? store.apiKeys.organizationOf(match[1]!) : undefined;
    const organization = orgRowId === undefined ? undefined : store.organizations.byRowId(orgRowId);
    if (!organization) {
      const problem = match ? 'The API key is not valid' : 'Missing API key: send "Authorization: Bearer <key>"';
      throw new HttpError(401, problem, { 'WWW-Authenticate': 'Bearer realm="remediation-inventory"' });
    }
    res.locals.organization = organization;
    next();
  };
}
