import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dataDirectoryFiles, writeFileAtomically } from '../store/engine/data-directory.js';
import { readOrCreateKey } from './key-file-sealer.js';

const dayMs = 24 * 60 * 60 * 1000;
/** How long a browser's console session lasts at most, used or not (absolute lifetime). */
export const consoleSessionLifetimeMs = 30 * dayMs;
/** How long a browser's console session lasts unused (idle timeout). */
export const consoleSessionIdleMs = 7 * dayMs;
/** How long a script token lasts unless told otherwise, and at most. */
export const scriptTokenDays = { default: 90, max: 365 } as const;
/** How stale a credential's recorded last use may get: a request writes it at most once a minute. */
const lastUseStepMs = 60 * 1000;

/** A browser's session (its cookie) or a script's token (its header): the two never stand in for each other. */
export type ConsoleCredentialKind = 'browser' | 'script';

/** A browser session or script token as listed: never its secret. */
export interface ConsoleCredentialRecord {
  id: string;
  kind: ConsoleCredentialKind;
  /** A script token's name; null for a browser session. */
  name: string | null;
  /** The browser that opened a browser session ("Firefox 132 on Windows"); null for a script token. */
  userAgent: string | null;
  createdAt: number;
  lastUsedAt: number;
  /** When it ends unless used: the earlier of its absolute end and, for a browser session, its idle end. */
  expiresAt: number;
}

/** What a credential's file holds: its secret's SHA-256, never the secret. */
interface StoredCredential {
  kind: ConsoleCredentialKind;
  name: string | null;
  userAgent: string | null;
  createdAt: number;
  /** The absolute end. */
  endsAt: number;
  secretSha256: string;
}

const scriptPrefix = 'rcs_';
const idPattern = /^[A-Za-z0-9_-]{22}$/;
const credentialPattern = /^(rcs_)?([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const userAgentLength = 200;

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest();

/**
 * The console's credentials of one data directory, each a file `console-sessions/<id>.json`
 * (0600) holding its kind, its times and its secret's SHA-256; the credential is
 * `<id>.<256 random bits>` (a script token's starts with `rcs_`). Files, not store records:
 * the CLI lists and revokes them while `serve` holds the store's lock, as it issues console
 * links. The last use is the file's modification time, set with `utimes`, which never brings a
 * revoked (removed) file back, unlike a rewrite racing the removal. The clock is injectable.
 */
export class ConsoleSessions {
  /** The cookie's name, distinct per data directory: two data directories' consoles on one host name keep their sessions apart. */
  readonly cookieName: string;
  /**
   * The console's host name, under `.localhost` (RFC 6761: loopback), distinct and unguessable
   * per data directory, so that the browser keeps the host-only cookie for this name and sends
   * it to no other service of 127.0.0.1 (cookies ignore ports, not host names).
   */
  readonly hostName: string;
  private readonly folder: string;

  private constructor(
    key: Buffer,
    dataDir: string,
    private readonly clock: () => number,
  ) {
    const derived = (purpose: string) => crypto.createHmac('sha256', key).update(purpose).digest('hex').slice(0, 12);
    this.cookieName = `rc_session_${derived('cookie name')}`;
    this.hostName = `rc-${derived('host name')}.localhost`;
    this.folder = dataDirectoryFiles(dataDir).consoleSessions;
  }

  /** The credentials of a data directory, creating its key when there is none. */
  static of(dataDir: string, clock: () => number = Date.now): ConsoleSessions {
    return new ConsoleSessions(readOrCreateKey(dataDirectoryFiles(dataDir).consoleSessionKey), dataDir, clock);
  }

  /** A new browser session (`userAgent` naming its browser, for the list) or script token (`name`, lasting `days`); answers its credential, shown only now. */
  create(kind: ConsoleCredentialKind, label: { name?: string; userAgent?: string; days?: number } = {}): { credential: string; record: ConsoleCredentialRecord } {
    const now = this.clock();
    fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    this.sweep(now);
    const id = crypto.randomBytes(16).toString('base64url');
    const secret = crypto.randomBytes(32).toString('base64url');
    const stored: StoredCredential = {
      kind,
      name: kind === 'script' ? (label.name ?? null) : null,
      userAgent: kind === 'browser' && label.userAgent ? label.userAgent.slice(0, userAgentLength) : null,
      createdAt: now,
      endsAt: now + (kind === 'script' ? (label.days ?? scriptTokenDays.default) * dayMs : consoleSessionLifetimeMs),
      secretSha256: sha256(secret).toString('hex'),
    };
    const file = this.fileOf(id);
    writeFileAtomically(file, Buffer.from(JSON.stringify(stored)), 0o600);
    fs.utimesSync(file, new Date(now), new Date(now));
    return { credential: `${kind === 'script' ? scriptPrefix : ''}${id}.${secret}`, record: recordOf(id, stored, now) };
  }

  /**
   * The credential's record when it is one of `kind`, not revoked and not expired; its last
   * use is recorded (at most once a minute). An expired credential's file is removed.
   */
  verify(credential: string, kind: ConsoleCredentialKind): ConsoleCredentialRecord | undefined {
    const match = credentialPattern.exec(credential);
    if (!match || (match[1] === scriptPrefix) !== (kind === 'script')) return undefined;
    const [, , id, secret] = match as unknown as [string, string | undefined, string, string];
    const found = this.read(id);
    if (!found || found.stored.kind !== kind) return undefined;
    const expected = Buffer.from(found.stored.secretSha256, 'hex');
    const given = sha256(secret);
    if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return undefined;
    const now = this.clock();
    const record = recordOf(id, found.stored, found.lastUsedAt);
    if (now >= record.expiresAt) {
      this.revoke(id);
      return undefined;
    }
    if (now - found.lastUsedAt >= lastUseStepMs) {
      try {
        fs.utimesSync(this.fileOf(id), new Date(now), new Date(now));
        record.lastUsedAt = now;
        record.expiresAt = expiryOf(found.stored, now);
      } catch (error) {
        // Revoked meanwhile: this request was already under way.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return record;
  }

  /** Every browser session and script token not expired, the oldest first; expired ones are removed. */
  list(): ConsoleCredentialRecord[] {
    const now = this.clock();
    this.sweep(now);
    return this.ids()
      .flatMap((id) => {
        const found = this.read(id);
        return found ? [recordOf(id, found.stored, found.lastUsedAt)] : [];
      })
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  /** Revokes one credential; answers whether it existed. */
  revoke(id: string): boolean {
    if (!idPattern.test(id)) return false;
    try {
      fs.rmSync(this.fileOf(id));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return false;
    }
  }

  /** Revokes every credential of `kind` (every one without it) but `exceptId`; answers how many. */
  revokeAll(options: { kind?: ConsoleCredentialKind; exceptId?: string } = {}): number {
    let revoked = 0;
    for (const record of this.list()) {
      if (record.id === options.exceptId || (options.kind && record.kind !== options.kind)) continue;
      if (this.revoke(record.id)) revoked++;
    }
    return revoked;
  }

  private fileOf(id: string): string {
    return path.join(this.folder, `${id}.json`);
  }

  private ids(): string[] {
    try {
      return fs.readdirSync(this.folder).flatMap((name) => (name.endsWith('.json') && idPattern.test(name.slice(0, -5)) ? [name.slice(0, -5)] : []));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return [];
    }
  }

  /** A credential's stored fields and last use; undefined when there is no such file or it is not one (damaged, foreign). */
  private read(id: string): { stored: StoredCredential; lastUsedAt: number } | undefined {
    let text: string;
    let lastUsedAt: number;
    try {
      const file = this.fileOf(id);
      lastUsedAt = fs.statSync(file).mtimeMs;
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return undefined;
    }
    try {
      const stored = JSON.parse(text) as StoredCredential;
      const valid =
        (stored.kind === 'browser' || stored.kind === 'script') &&
        Number.isFinite(stored.createdAt) &&
        Number.isFinite(stored.endsAt) &&
        typeof stored.secretSha256 === 'string' &&
        /^[0-9a-f]{64}$/.test(stored.secretSha256);
      return valid ? { stored, lastUsedAt: Math.round(lastUsedAt) } : undefined;
    } catch {
      return undefined;
    }
  }

  private sweep(now: number): void {
    for (const id of this.ids()) {
      const found = this.read(id);
      if (found && now >= expiryOf(found.stored, found.lastUsedAt)) this.revoke(id);
    }
  }
}

/** When a credential ends unless used again: a browser session at the earlier of its absolute end and its idle end. */
function expiryOf(stored: StoredCredential, lastUsedAt: number): number {
  return stored.kind === 'browser' ? Math.min(stored.endsAt, lastUsedAt + consoleSessionIdleMs) : stored.endsAt;
}

function recordOf(id: string, stored: StoredCredential, lastUsedAt: number): ConsoleCredentialRecord {
  return { id, kind: stored.kind, name: stored.name, userAgent: stored.userAgent, createdAt: stored.createdAt, lastUsedAt, expiresAt: expiryOf(stored, lastUsedAt) };
}
