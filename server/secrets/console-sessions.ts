import crypto from 'node:crypto';
import { dataDirectoryFiles } from '../store/engine/data-directory.js';
import { readOrCreateKey } from './key-file-sealer.js';

/** How long a console session lasts since it was last used (sliding). */
export const consoleSessionLifetimeMs = 30 * 24 * 60 * 60 * 1000;
/** How old a session's credential gets before a request renews it: at most one new cookie a day. */
const renewAfterMs = 24 * 60 * 60 * 1000;
/** How far ahead of this clock a credential may be dated (a clock set back a little). */
const clockSkewMs = 60 * 1000;

const credentialPattern = /^(\d{1,15})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** A credential that verified, and whether it is old enough to be renewed. */
export interface VerifiedSession {
  id: string;
  renew: boolean;
}

/**
 * The console sessions of one data directory: credentials `<issued ms>.<id>.<HMAC-SHA256>`
 * signed with the key in `console-session.key` (created on first use, readable only by its
 * owner), so that they survive a restart of the server and mean nothing to another data
 * directory. Nothing is stored per session: a session ends when its cookie is dropped or
 * unused for {@link consoleSessionLifetimeMs}; removing the key file ends every session at
 * the next start.
 */
export class ConsoleSessions {
  /** The cookie's name, distinct per data directory: consoles of two data directories served on one host keep their sessions side by side. */
  readonly cookieName: string;

  private constructor(private readonly key: Buffer) {
    this.cookieName = `rc_session_${crypto.createHmac('sha256', key).update('cookie name').digest('hex').slice(0, 12)}`;
  }

  /** The sessions of a data directory, creating its key when there is none. */
  static of(dataDir: string): ConsoleSessions {
    return new ConsoleSessions(readOrCreateKey(dataDirectoryFiles(dataDir).consoleSessionKey));
  }

  /** A new session's credential, or a renewed one for `id`. */
  issue(now = Date.now(), id = crypto.randomBytes(16).toString('base64url')): string {
    const signed = `${now}.${id}`;
    return `${signed}.${this.mac(signed)}`;
  }

  /** The session a credential names, when it was signed by this data directory's key and has not expired. */
  verify(credential: string, now = Date.now()): VerifiedSession | undefined {
    const match = credentialPattern.exec(credential);
    if (!match) return undefined;
    const [, issued, id, mac] = match as unknown as [string, string, string, string];
    const expected = Buffer.from(this.mac(`${issued}.${id}`));
    if (!crypto.timingSafeEqual(Buffer.from(mac), expected)) return undefined;
    const age = now - Number(issued);
    if (age < -clockSkewMs || age >= consoleSessionLifetimeMs) return undefined;
    return { id, renew: age >= renewAfterMs };
  }

  private mac(signed: string): string {
    return crypto.createHmac('sha256', this.key).update(signed).digest('base64url');
  }
}
