import type { Request } from 'express';
import type { z } from 'zod';
import { HttpError } from './http-error.js';

/** A zod object schema of a query, parsing into `T`. */
type QuerySchema<T> = z.ZodType<T> & { shape: Record<string, unknown> };

/** Query strings longer than this are refused: no filter of the API needs more. */
export const maxQueryLength = 2048;

/**
 * The request's query as single strings. A parameter given twice is refused (DESIGN section 3):
 * which of the two was meant cannot be known.
 */
function singleValuedQuery(url: string, known: readonly string[]): Record<string, string> {
  const start = url.indexOf('?');
  if (start < 0) return {};
  const search = url.slice(start + 1);
  if (search.length > maxQueryLength) {
    throw new HttpError(414, `The query string is longer than ${maxQueryLength} characters`);
  }
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    if (!known.includes(name)) continue;
    if (name in query) throw new HttpError(400, `Query parameter "${name}" is given more than once`);
    query[name] = value;
  }
  return query;
}

/**
 * Parses the request's query with a zod object schema. The first problem is answered as a 400
 * whose message names the parameter; unknown parameters are ignored.
 */
export function parseQuery<T>(req: Request, schema: QuerySchema<T>): T {
  return parseUrlQuery(req.originalUrl, schema);
}

/** {@link parseQuery} of a request URL (path and query string), for the v1 API, which express does not serve. */
export function parseUrlQuery<T>(url: string, schema: QuerySchema<T>): T {
  const result = schema.safeParse(singleValuedQuery(url, Object.keys(schema.shape)));
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = String(issue.path[0] ?? 'query');
  const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
  throw new HttpError(400, `Invalid query parameter "${name}": ${message}`);
}
