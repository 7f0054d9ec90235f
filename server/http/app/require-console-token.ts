import crypto from 'node:crypto';
import type { RequestHandler } from 'express';
import { HttpError } from '../http-error.js';

/** The header the console sends its token in; local tools never see the token. */
export const consoleTokenHeader = 'x-console-token';

/** A new console token for one run of the server. */
export function generateConsoleToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** Refuses /app requests that do not carry this run's console token. */
export function requireConsoleToken(consoleToken: string): RequestHandler {
  const expected = Buffer.from(consoleToken);
  return (req, _res, next) => {
    const given = Buffer.from(String(req.headers[consoleTokenHeader] ?? ''));
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
      throw new HttpError(401, 'Missing or invalid console token');
    }
    next();
  };
}
