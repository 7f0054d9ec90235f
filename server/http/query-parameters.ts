import type { Request } from 'express';
import { type QuerySchema, QueryStringError, type UnknownParameters, maxQueryLength, parseQueryString } from '../../contracts/query-string.js';
import { HttpError } from './http-error.js';

export { maxQueryLength, type UnknownParameters };

/**
 * Parses the request's query with a zod object schema. The first problem is answered as a 400
 * whose message names the parameter; unknown parameters are ignored.
 */
export function parseQuery<T>(req: Request, schema: QuerySchema<T>): T {
  return parseUrlQuery(req.originalUrl, schema);
}

/**
 * {@link parseQuery} of a request URL (path and query string), for the v1 API, which express
 * does not serve, and for a query string a body carries; `unknown` says what an unknown
 * parameter is ({@link UnknownParameters}). A query string refused is answered as its
 * {@link QueryStringError} says (400, or 414 when it is too long).
 */
export function parseUrlQuery<T>(url: string, schema: QuerySchema<T>, unknown: UnknownParameters = 'ignore'): T {
  const start = url.indexOf('?');
  try {
    return parseQueryString(start < 0 ? '' : url.slice(start + 1), schema, unknown);
  } catch (error) {
    if (error instanceof QueryStringError) throw new HttpError(error.status, error.message);
    throw error;
  }
}
