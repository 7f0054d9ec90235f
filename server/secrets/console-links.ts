import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isLoopbackUrl } from './loopback-address.js';
import { dataDirectoryFiles } from '../store/engine/data-directory.js';

/** How long a console link may wait to be opened; `console-url` prints a new one at any time. */
export const consoleLinkLifetimeMs = 24 * 60 * 60 * 1000;

/** What opening a console link came to. */
export type ConsoleLinkOutcome = 'opened' | 'used' | 'expired' | 'unknown';

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;
const usedSuffix = '.used';

/** The URL of a console link: the token in the fragment, which browsers never send to a server nor put in a Referer. */
export function consoleLinkUrl(serverUrl: string, token: string): string {
  return `${serverUrl}/#token=${token}`;
}

/**
 * A console link under the data directory's host name under `.localhost` (`consoleHostName`,
 * whose cookie no other port of 127.0.0.1 receives), and the words that give the same link at
 * `serverUrl` (127.0.0.1) for a browser that does not resolve `.localhost` names, with its cost;
 * the plain link alone for a server reached at another machine's address (`--allow-remote-access`).
 */
export function consoleLinks(serverUrl: string, consoleHostName: string, token: string): { named: string; fallback: string[] } {
  const url = new URL(serverUrl);
  // A server reached at another machine's address (`--allow-remote-access`) has no loopback name.
  if (!isLoopbackUrl(serverUrl)) return { named: consoleLinkUrl(serverUrl, token), fallback: [] };
  return {
    named: consoleLinkUrl(`http://${consoleHostName}:${url.port}`, token),
    fallback: [
      `Where a browser cannot resolve ${consoleHostName}, the same link: ${consoleLinkUrl(serverUrl, token)}`,
      `(its session cookie then also goes to every other service on ${url.hostname}, whatever its port)`,
    ],
  };
}

const fileOf = (dataDir: string, token: string) =>
  path.join(dataDirectoryFiles(dataDir).consoleLinks, crypto.createHash('sha256').update(token).digest('hex'));

/**
 * Makes a console link's one-time token and records it in the data directory, one file per
 * link named by the token's SHA-256 (the token itself is never stored), holding its expiry. A
 * file, not a store record: `console-url` issues links while `serve` holds the store's lock,
 * and creating a file needs no lock. Links and marks of used ones past their expiry are swept.
 */
export function issueConsoleLink(dataDir: string, now = Date.now()): string {
  const folder = dataDirectoryFiles(dataDir).consoleLinks;
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  sweepExpired(folder, now);
  const token = crypto.randomBytes(32).toString('base64url');
  fs.writeFileSync(fileOf(dataDir, token), String(now + consoleLinkLifetimeMs), { flag: 'wx', mode: 0o600 });
  return token;
}

/**
 * Uses a console link's token up: renaming its file to a mark of use is atomic, so of two
 * openings of one link (two browsers, two processes) exactly one succeeds; the mark lets a later
 * opening say that the link was used rather than unknown, until the link would have expired.
 */
export function redeemConsoleLink(dataDir: string, token: string, now = Date.now()): ConsoleLinkOutcome {
  if (!tokenPattern.test(token)) return 'unknown';
  const pending = fileOf(dataDir, token);
  const used = `${pending}${usedSuffix}`;
  try {
    fs.renameSync(pending, used);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return fs.existsSync(used) ? 'used' : 'unknown';
  }
  return expiryOf(used) > now ? 'opened' : 'expired';
}

function expiryOf(file: string): number {
  const expiry = Number(fs.readFileSync(file, 'utf8'));
  return Number.isFinite(expiry) ? expiry : 0;
}

function sweepExpired(folder: string, now: number): void {
  for (const name of fs.readdirSync(folder)) {
    const file = path.join(folder, name);
    try {
      if (expiryOf(file) <= now) fs.rmSync(file, { force: true });
    } catch (error) {
      // Used or swept by another process meanwhile.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
