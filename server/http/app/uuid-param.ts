import type { Request } from 'express';
import { uuidPathParameter } from '../uuid-path-parameter.js';

/** A path parameter that must be a UUID, or a 400 that names it. */
export function uuidParam(req: Request, name: string): string {
  return uuidPathParameter(String(req.params[name] ?? ''), name);
}
