import { HttpError } from './http-error.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path parameter that must be a UUID, lowercased; a 400 that names the parameter otherwise. */
export function uuidPathParameter(value: string, name: string): string {
  if (!uuidPattern.test(value)) throw new HttpError(400, `Invalid path parameter "${name}": must be a UUID`);
  return value.toLowerCase();
}
