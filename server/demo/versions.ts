/**
 * Versions as the catalogues write them, and their order.
 *
 * A catalogue version is `shown[=compared][@YYYY-MM]`:
 * - `shown` is what a target or endpoint reports, e.g. a distribution's package version
 *   `1:8.9p1-3ubuntu0.10`;
 * - `compared`, when given, is the upstream version it is equivalent to for vulnerability matching,
 *   because distributions backport fixes without changing the upstream number (that package is
 *   patched like OpenSSH 9.8p1);
 * - `@YYYY-MM` is the month of the build's security updates, for products whose fixes are known by
 *   month rather than by version (Windows cumulative updates, Office, Exchange, Edge).
 */

/** Dotted numbers and letter runs of a version, e.g. `9.6p1` → [9, 6, 'p', 1]. */
export type VersionKey = readonly (number | string)[];

export interface CatalogVersion {
  /** What the target or endpoint reports. */
  readonly shown: string;
  readonly key: VersionKey;
  /** Month of the build's security updates, or null when unknown. */
  readonly month: string | null;
}

const tokenPattern = /\d+|[a-z]+/g;

/** Splits a version into comparable tokens. */
export function versionKey(version: string): VersionKey {
  const tokens: (number | string)[] = [];
  for (const match of version.toLowerCase().matchAll(tokenPattern)) {
    const token = match[0];
    tokens.push(token.charCodeAt(0) <= 57 ? Number(token) : token);
  }
  return tokens;
}

/** Negative, zero or positive as a is older than, equal to or newer than b. A shorter key that is a prefix of the longer one is older (1.0.1 < 1.0.1g). */
export function compareVersionKeys(a: VersionKey, b: VersionKey): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as number | string;
    const y = b[i] as number | string;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'string' && typeof y === 'string') return x < y ? -1 : 1;
    return typeof x === 'string' ? -1 : 1;
  }
  return a.length - b.length;
}

/** Parses `shown[=compared][@YYYY-MM]`. */
export function parseCatalogVersion(spec: string): CatalogVersion {
  let rest = spec;
  let month: string | null = null;
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    month = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  const eq = rest.indexOf('=');
  const shown = eq >= 0 ? rest.slice(0, eq) : rest;
  const compared = eq >= 0 ? rest.slice(eq + 1) : rest;
  return { shown, key: versionKey(compared), month };
}
