import { HttpError } from '../http-error.js';
import { methodNotAllowed as methodNotAllowedHere } from '../method-not-allowed.js';

/**
 * The 405 of a method other than GET and HEAD, with `Allow`: every path of the v1 API, its
 * document and /health answer those two only.
 */
export function methodNotAllowed(method: string | undefined): HttpError {
  return methodNotAllowedHere(method, ['GET', 'HEAD']);
}

/** A request target under /v1, `/v1` matched in any case as express mounted it. */
const underV1 = /^\/v1(?:[/?#]|$)/i;
/** The scheme and authority of an absolute-form request target (`http://host:port/v1/...`). */
const schemeAndAuthority = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i;

/**
 * The path and query of a request for the v1 API, or undefined for one that is not: the
 * request target as sent, without the scheme and authority of an absolute-form target.
 */
export function v1Target(url: string): string | undefined {
  if (url.startsWith('/v1/')) return url;
  const target = url.startsWith('/') ? url : url.replace(schemeAndAuthority, '');
  return underV1.test(target) ? target : undefined;
}

/** The path of a request target as express saw it: no query, no fragment. */
export function pathOf(target: string): string {
  return /^[^?#]*/.exec(target)![0];
}

/** A path as express matched it: `/v1` in any case, the fragment left out, one trailing slash ignored. */
function normalized(path: string): string {
  const normal = `/v1${pathOf(path).slice(3)}`;
  return normal.length > 3 && normal.endsWith('/') ? normal.slice(0, -1) : normal;
}

/** What a path leads to, and its one parameter segment (`''` for a fixed path) as sent. */
export interface PathMatch<T> {
  route: T;
  parameter: string;
}

/**
 * The paths of the v1 API: fixed (`/v1/endpoints`) or ending in one parameter segment
 * (`/v1/endpoints/{endpointId}`). A path is looked up as sent, then as express matched it.
 */
export class V1Paths<T> {
  private readonly fixed = new Map<string, T>();
  private readonly withParameter = new Map<string, T>();

  constructor(routes: Iterable<[pattern: string, route: T]>) {
    for (const [pattern, route] of routes) {
      const parameter = /^(.*)\/\{\w+\}$/.exec(pattern);
      if (parameter) this.withParameter.set(parameter[1]!, route);
      else this.fixed.set(pattern, route);
    }
  }

  /** What `path` (the target without its query) leads to; undefined for a path of no route. */
  match(path: string): PathMatch<T> | undefined {
    return this.exactly(path) ?? this.exactly(normalized(path));
  }

  private exactly(path: string): PathMatch<T> | undefined {
    const fixed = this.fixed.get(path);
    if (fixed !== undefined) return { route: fixed, parameter: '' };
    const slash = path.lastIndexOf('/');
    const route = this.withParameter.get(path.slice(0, slash));
    return route === undefined || slash === path.length - 1 ? undefined : { route, parameter: path.slice(slash + 1) };
  }
}

/** A parameter segment percent-decoded, as express decoded it; 400 when it is no valid encoding. */
export function decodedParameter(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'Malformed request');
  }
}
