import type { Request } from 'express';
import { HttpError } from '../http-error.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path parameter that must be a UUID, or a 400 that names it. */
export function uuidParam(req: Request, name: string): string {
  const value = String(req.params[name] ?? '');
  if (!uuidPattern.test(value)) throw new HttpError(400, `Invalid path parameter "${name}": must be a UUID`);
  return value.toLowerCase();
}
