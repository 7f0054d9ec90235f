import type { RequestHandler } from 'express';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { V1Answers, bearerKey } from './v1-answers.js';

/**
 * Finds the organization of the request's API key (`Authorization: Bearer <key>`) and refuses
 * the request with 401 when there is none, before anything else about it is looked at.
 */
export function requireApiKey(store: Store): RequestHandler {
  const answers = V1Answers.of(store);
  return (req, res, next) => {
    const key = bearerKey(req.headers.authorization);
    const organization = key === undefined ? undefined : answers.organizationOf(key);
    if (!organization) {
      const problem = key === undefined ? 'Missing API key: send "Authorization: Bearer <key>"' : 'The API key is not valid';
      throw new HttpError(401, problem, { 'WWW-Authenticate': 'Bearer realm="remediation-inventory"' });
    }
    res.locals.organization = organization;
    next();
  };
}
