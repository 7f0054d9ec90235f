import crypto from 'node:crypto';
import type express from 'express';
import type { RequestHandler } from 'express';
import type { ConsoleSessions } from '../../secrets/console-sessions.js';
import { HttpError } from '../http-error.js';
import { refuseCrossOrigin, setSessionCookie, sessionCookieOf } from './session-cookie.js';

/** The header the console sends its token in; local tools never see the token. */
export const consoleTokenHeader = 'x-console-token';

/** A new console token for one run of the server: what the desktop app hands its window. */
export function generateConsoleToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** What the /app guard accepts. */
export interface ConsoleCredentials {
  /** This run's console token, in the header (the desktop app). */
  consoleToken: string;
  /** The data directory's console sessions, in their cookie (a browser) or the header (a script of the user's). */
  sessions: ConsoleSessions;
}

/** The answer to a browser without a session: what the console's page shows, too. */
export const noSessionMessage =
  'No console session in this browser: open a one-time link of this server, printed by "remediation-console serve" at its start ' +
  'or by "remediation-console console-url" at any time';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sameSecret(given: string, expected: Buffer): boolean {
  const bytes = Buffer.from(given);
  return bytes.length === expected.length && crypto.timingSafeEqual(bytes, expected);
}

/**
 * Refuses /app requests without a console credential: the `x-console-token` header with this
 * run's token or a session's credential (a page of another origin cannot send a custom header
 * without a CORS preflight, which this server never grants), or the session cookie. A request
 * with the cookie that changes something must come from the server's own origin
 * (session-cookie.ts); a session older than a day gets a renewed cookie (sliding lifetime).
 */
export function requireConsoleToken(credentials: ConsoleCredentials): RequestHandler {
  const expected = Buffer.from(credentials.consoleToken);
  return (req, res, next) => {
    const header = req.headers[consoleTokenHeader];
    if (header !== undefined) {
      const given = String(header);
      if (sameSecret(given, expected) || credentials.sessions.verify(given)) return next();
      throw new HttpError(401, 'Missing or invalid console token');
    }
    const credential = sessionCookieOf(req, credentials.sessions.cookieName);
    if (credential === undefined) throw new HttpError(401, noSessionMessage);
    const session = credentials.sessions.verify(credential);
    if (!session) {
      res.clearCookie(credentials.sessions.cookieName, { path: '/' });
      throw new HttpError(401, `This browser's console session has expired or is not one of this data directory. ${noSessionMessage.replace(/^[^:]*: /, 'Open ')}`);
    }
    refuseCrossOrigin(req, unsafeMethods.has(req.method));
    if (session.renew) setSessionCookie(res as express.Response, credentials.sessions, credentials.sessions.issue(Date.now(), session.id));
    next();
  };
}
