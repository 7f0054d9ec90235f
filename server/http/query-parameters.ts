import type { Request } from 'express';
import type { z } from 'zod';
import { HttpError } from './http-error.js';

/** A zod object schema of a query, parsing into `T`. */
type QuerySchema<T> = z.ZodType<T> & { shape: Record<string, unknown> };

/** Query strings longer than this are refused: no filter of the API needs more. */
export const maxQueryLength = 2048;

/**
 * What a query does with a parameter its schema does not know: `ignore` it (the lists, where a
 * client may send more than one API knows), or `refuse` it with a 400 that names it, and a
 * query that is not percent-encoded too (a filter that selects rows to change: there, a
 * misspelt parameter would select every row).
 */
export type UnknownParameters = 'ignore' | 'refuse';

/**
 * The request's query as single strings. A parameter given twice is refused (DESIGN section 3):
 * which of the two was meant cannot be known.
 */
function singleValuedQuery(url: string, known: readonly string[], unknown: UnknownParameters): Record<string, string> {
  const start = url.indexOf('?');
  if (start < 0) return {};
  const search = url.slice(start + 1);
  if (search.length > maxQueryLength) {
    throw new HttpError(414, `The query string is longer than ${maxQueryLength} characters`);
  }
  if (unknown === 'refuse') refuseMalformed(search);
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    if (!known.includes(name)) {
      if (unknown === 'ignore') continue;
      throw new HttpError(400, `Unknown query parameter "${name}": the parameters are ${known.join(', ')}`);
    }
    if (name in query) throw new HttpError(400, `Query parameter "${name}" is given more than once`);
    query[name] = value;
  }
  return query;
}

/** Refuses a query string whose percent-encoding is broken (`%%%`, `%E0%A4`), which URLSearchParams would read as something else. */
function refuseMalformed(search: string): void {
  for (const part of search.split('&')) {
    try {
      decodeURIComponent(part.replaceAll('+', ' '));
    } catch {
      throw new HttpError(400, `Malformed query string: "${part}" is not percent-encoded (write % as %25)`);
    }
  }
}

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
 * parameter is ({@link UnknownParameters}).
 */
export function parseUrlQuery<T>(url: string, schema: QuerySchema<T>, unknown: UnknownParameters = 'ignore'): T {
  const result = schema.safeParse(singleValuedQuery(url, Object.keys(schema.shape), unknown));
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = String(issue.path[0] ?? 'query');
  const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
  throw new HttpError(400, `Invalid query parameter "${name}": ${message}`);
}
