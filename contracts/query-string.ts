import type * as z from 'zod';

/**
 * How a query string is read into single values, for the routes that parse a request's query
 * (server/http/query-parameters.ts) and for a saved view's filters, checked against the same
 * schema its route parses them with (saved-views.ts). Free of zod at run time.
 */

/** Query strings longer than this are refused: no filter of the API needs more. */
export const maxQueryLength = 2048;

/**
 * What a query does with a parameter its schema does not know: `ignore` it (the lists, where a
 * client may send more than one API knows), or `refuse` it naming it, and a query that is not
 * percent-encoded too (a filter that selects rows to change, or one that is saved: there, a
 * misspelt parameter would select every row).
 */
export type UnknownParameters = 'ignore' | 'refuse';

/** A query string refused, with the HTTP status a route answers it with. */
export class QueryStringError extends Error {
  constructor(
    readonly status: 400 | 414,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The query string `search` (without its `?`) as single strings, of the parameters `known`. A
 * parameter given twice is refused (DESIGN section 3): which of the two was meant cannot be known.
 * @throws QueryStringError when it is too long, malformed, or names a parameter twice or one refused
 */
export function singleValuedQuery(search: string, known: readonly string[], unknown: UnknownParameters): Record<string, string> {
  if (search.length > maxQueryLength) throw new QueryStringError(414, `The query string is longer than ${maxQueryLength} characters`);
  if (unknown === 'refuse') refuseMalformed(search);
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    if (!known.includes(name)) {
      if (unknown === 'ignore') continue;
      throw new QueryStringError(400, `Unknown query parameter "${name}": the parameters are ${known.join(', ')}`);
    }
    if (name in query) throw new QueryStringError(400, `Query parameter "${name}" is given more than once`);
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
      throw new QueryStringError(400, `Malformed query string: "${part}" is not percent-encoded (write % as %25)`);
    }
  }
}

/** A zod object schema of a query, parsing into `T`. */
export type QuerySchema<T> = z.ZodType<T> & { shape: Record<string, unknown> };

/**
 * The query string `search` (without its `?`) parsed by a zod object schema.
 * @throws QueryStringError naming the first parameter refused ({@link singleValuedQuery}, then the schema)
 */
export function parseQueryString<T>(search: string, schema: QuerySchema<T>, unknown: UnknownParameters): T {
  const result = schema.safeParse(search === '' ? {} : singleValuedQuery(search, Object.keys(schema.shape), unknown));
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = String(issue.path[0] ?? 'query');
  const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
  throw new QueryStringError(400, `Invalid query parameter "${name}": ${message}`);
}
