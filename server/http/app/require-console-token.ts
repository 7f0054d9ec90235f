import crypto from 'node:crypto';
import type express from 'express';
import type { RequestHandler } from 'express';
import { cliCommandText } from '../../../contracts/cli-command.js';
import type { ConsoleSessions } from '../../secrets/console-sessions.js';
import { HttpError } from '../http-error.js';
import { refuseCrossOrigin, sessionCookieOf } from './session-cookie.js';

/** The header the desktop app sends this run's console token in; local tools never see the token. */
export const consoleTokenHeader = 'x-console-token';
/** The header a script sends its own token in (`remediation-console sessions create-script-token`). */
export const scriptTokenHeader = 'x-console-script-token';

/** A new console token for one run of the server: what the desktop app hands its window. */
export function generateConsoleToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** What the /app guard accepts. */
export interface ConsoleCredentials {
  /** This run's console token, in `x-console-token` (the desktop app), and nothing else there. */
  consoleToken: string;
  /** The data directory's browser sessions (their cookie) and script tokens (`x-console-script-token`). */
  sessions: ConsoleSessions;
}

/** The answer to a browser without a session: what the console's page shows, too. */
export const noSessionMessage =
  `No console session in this browser: open a one-time link of this server, printed by the server at its start or by ${cliCommandText('console-url')} at any time`;

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sameSecret(given: string, expected: Buffer): boolean {
  const bytes = Buffer.from(given);
  return bytes.length === expected.length && crypto.timingSafeEqual(bytes, expected);
}

/** The id of the browser session or script token a request that passed the guard came with; undefined for the desktop app's token. */
export function currentCredentialId(res: express.Response): string | undefined {
  return res.locals.consoleCredentialId as string | undefined;
}

/**
 * Refuses /app requests without a console credential: this run's token in `x-console-token`
 * (the desktop app), a script token in `x-console-script-token` (a page of another origin cannot
 * send a custom header without a CORS preflight, which this server never grants), or a browser
 * session's cookie. Each credential is taken only where it belongs: a session's cookie value is
 * no token, and a token no cookie. A request with the cookie that changes something must come
 * from the server's own origin (session-cookie.ts).
 */
export function requireConsoleToken(credentials: ConsoleCredentials): RequestHandler {
  const expected = Buffer.from(credentials.consoleToken);
  return (req, res, next) => {
    const header = req.headers[consoleTokenHeader];
    if (header !== undefined) {
      if (sameSecret(String(header), expected)) return next();
      throw new HttpError(
        401,
        `Invalid console token: ${consoleTokenHeader} takes only the desktop app's token of this run. ` +
          `A script sends a token of its own in ${scriptTokenHeader} (made by ${cliCommandText('sessions create-script-token --name NAME')})`,
      );
    }
    const script = req.headers[scriptTokenHeader];
    if (script !== undefined) {
      const token = credentials.sessions.verify(String(script), 'script');
      if (!token) throw new HttpError(401, `The script token in ${scriptTokenHeader} is not valid: revoked, expired or never issued. Create one with ${cliCommandText('sessions create-script-token --name NAME')}`);
      res.locals.consoleCredentialId = token.id;
      return next();
    }
    const credential = sessionCookieOf(req, credentials.sessions.cookieName);
    if (credential === undefined) throw new HttpError(401, noSessionMessage);
    const session = credentials.sessions.verify(credential, 'browser');
    if (!session) {
      res.clearCookie(credentials.sessions.cookieName, { path: '/' });
      throw new HttpError(401, `This browser's console session has ended (signed out, revoked or expired) or is not one of this data directory. ${noSessionMessage.replace(/^[^:]*: /, 'Open ')}`);
    }
    refuseCrossOrigin(req, unsafeMethods.has(req.method));
    res.locals.consoleCredentialId = session.id;
    next();
  };
}
