import type { RequestHandler } from 'express';
import { methodNotAllowed } from '../method-not-allowed.js';

const regexpSpecials = /[.*+?^${}()|[\]\\]/g;

/**
 * Answers 405 with `Allow` a request for a path of /app by a method the path does not have,
 * before any route sees it: `pathMethods` are the document's paths (`/app/orgs/{slug}`) with
 * their methods (app-document.ts), so a route added to the document is covered at once. Where two
 * paths match, the one with more fixed segments is the path (`…/exceptions/export`, not
 * `…/exceptions/{exceptionId}`), as OpenAPI reads them; HEAD goes with GET, as express answers it.
 */
export function refuseOtherMethods(pathMethods: ReadonlyMap<string, readonly string[]>): RequestHandler {
  const paths = [...pathMethods]
    .map(([template, methods]) => {
      const segments = template.replace(/^\/app/, '').split('/');
      const pattern = segments.map((segment) => (/^\{\w+\}$/.test(segment) ? '[^/]+' : segment.replace(regexpSpecials, '\\$&'))).join('/');
      return {
        // As express matches routes: in any case, with or without a trailing slash.
        pattern: new RegExp(`^${pattern}/?$`, 'i'),
        fixedSegments: segments.filter((segment) => !segment.startsWith('{')).length,
        allowed: [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].sort(),
      };
    })
    .sort((a, b) => b.fixedSegments - a.fixedSegments);
  return (req, _res, next) => {
    const path = paths.find((candidate) => candidate.pattern.test(req.path));
    if (path && !path.allowed.includes(req.method)) throw methodNotAllowed(req.method, path.allowed);
    next();
  };
}
