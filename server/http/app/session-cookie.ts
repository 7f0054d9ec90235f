import type express from 'express';
import type { IncomingMessage } from 'node:http';
import { type ConsoleSessions, consoleSessionLifetimeMs } from '../../secrets/console-sessions.js';
import { HttpError } from '../http-error.js';

/**
 * Sets the session cookie: HttpOnly (no script reads it), `SameSite=Strict` (another site's
 * page, link or form never sends it), for every path of the server, for the session's absolute
 * lifetime, host-only (no Domain: the browser keeps it for the host name it was set by, the
 * console's `.localhost` name, and sends it to no other host).
 */
export function setSessionCookie(res: express.Response, sessions: ConsoleSessions, credential: string): void {
  res.cookie(sessions.cookieName, credential, { httpOnly: true, sameSite: 'strict', path: '/', maxAge: consoleSessionLifetimeMs });
}

/** Drops this browser's session cookie (the session itself is revoked by the caller). */
export function clearSessionCookie(res: express.Response, sessions: ConsoleSessions): void {
  res.clearCookie(sessions.cookieName, { httpOnly: true, sameSite: 'strict', path: '/' });
}

/** The value of the cookie `name` in the request's Cookie header, if it has one. */
export function sessionCookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const equals = pair.indexOf('=');
    if (equals > 0 && pair.slice(0, equals).trim() === name) return pair.slice(equals + 1).trim();
  }
  return undefined;
}

/**
 * Refuses (403) a cookie-borne request that another origin's page sent: one whose
 * `Sec-Fetch-Site` names another site or origin (another port of this host is the same site, so
 * `SameSite` alone does not keep it out) and, for a request that changes something, one whose
 * `Origin` is absent or not this server's own (the Host header, checked against the addresses
 * the server listens on before anything else).
 */
export function refuseCrossOrigin(req: IncomingMessage, changesSomething: boolean): void {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new HttpError(403, "A page of another origin cannot use this browser's console session");
  }
  if (!changesSomething) return;
  const origin = req.headers.origin;
  if (origin === undefined) throw new HttpError(403, 'A request that changes something must carry the Origin header of the console it comes from');
  if (origin.toLowerCase() !== `http://${req.headers.host?.toLowerCase()}`) {
    throw new HttpError(403, `A request from ${origin.slice(0, 100)} cannot change anything here: only the console's own pages can`);
  }
}
