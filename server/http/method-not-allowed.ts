import { HttpError } from './http-error.js';

/**
 * The 405 of a method a path does not have, with `Allow` naming the ones it has: the same
 * answer on /v1 (GET and HEAD everywhere) and on /app (each path's own, from its document).
 */
export function methodNotAllowed(method: string | undefined, allowed: readonly string[]): HttpError {
  const choices = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}` : allowed[0];
  return new HttpError(405, `Method ${method} is not allowed here: use ${choices}`, { Allow: allowed.join(', ') });
}
