/**
 * The order of version strings as remediation targets report them: Chrome's four numbers,
 * Windows and Office builds, semver with pre-releases, OpenSSL's and OpenSSH's letters, Debian
 * and RPM package versions, dates. No one scheme covers these (semver reads three numbers, a
 * natural sort puts 2.0-rc1 after 2.0), so this is the rule, documented in docs/console.md
 * ("Which version to update to"):
 *
 * - A version *reads as a version* when, after an optional `v` and an optional epoch `N:`, it
 *   starts with a digit. It is cut into runs of digits (numbers), runs of letters (words,
 *   without case) and `~`; anything else separates.
 * - Epochs compare first (none is 0). Then the runs, left to right: numbers by value (any
 *   length, leading zeros aside); a number is newer than a word and than the end of the
 *   version (1.0 < 1.0.0 < 1.0.1; padding with zeros instead would make the order cycle
 *   between 1.0, 1.0a and 1.0.0~1); a pre-release word (dev, alpha, beta, milestone, pre, preview, rc, cr, snapshot, and
 *   a, b, c or m directly followed by a digit) is older than the end of the version and than
 *   any other word, the pre-release words in that order; any other word (1.0.1g, 9.8p1,
 *   10.2.9-h1, 22.5R2) is newer than the end and compares by its letters; `~` is older than
 *   anything, as in Debian (2.4.62-1~deb12u2 < 2.4.62-1).
 * - A version that does not read as one (unknown, latest, empty) is older than every one that
 *   does, and a missing version (null) is older still; such ones order by their text.
 * - Versions the rule holds equal (1.0-rc1 and 1.0.RC.1, 22.003 and 22.3) order by their text, so the order is total.
 */

/** One run of a version: a number (its digits, leading zeros dropped), a word, or `~`. */
type Run = { kind: 'number'; digits: string } | { kind: 'word'; text: string; pre: number } | { kind: 'tilde' };

/** A version cut for comparing. */
export interface ParsedVersion {
  epoch: string;
  runs: Run[];
}

/** Pre-release words, oldest first; the rank of a word is its index. */
const preReleaseWords = [['dev'], ['alpha', 'a'], ['beta', 'b'], ['milestone', 'm'], ['pre', 'preview'], ['rc', 'cr', 'c'], ['snapshot']];
const preReleaseRank = new Map(preReleaseWords.flatMap((words, rank) => words.map((word) => [word, rank] as const)));
/** Single letters that mark a pre-release only before a digit (3.12.0a1, 11.0.0-M1); alone they are letters of a release (1.1.1a). */
const letterBeforeDigit = new Set(['a', 'b', 'c', 'm']);
const notPreRelease = -1;

const readable = /^v?(?:(\d+):)?(?=\d)(.*)$/is;
const runPattern = /\d+|[a-z]+|~/g;

/** A version cut into runs; undefined when it does not read as a version. */
export function parseVersion(text: string): ParsedVersion | undefined {
  const match = readable.exec(text.trim());
  if (!match) return undefined;
  const epoch = stripZeros(match[1] ?? '0');
  const rest = match[2]!.toLowerCase();
  const runs: Run[] = [];
  for (const found of rest.matchAll(runPattern)) {
    const run = found[0];
    if (run === '~') runs.push({ kind: 'tilde' });
    else if (run.charCodeAt(0) <= 57) runs.push({ kind: 'number', digits: stripZeros(run) });
    else {
      const next = rest.charCodeAt(found.index + run.length);
      const beforeDigit = next >= 48 && next <= 57;
      const pre = run.length === 1 && letterBeforeDigit.has(run) && !beforeDigit ? notPreRelease : (preReleaseRank.get(run) ?? notPreRelease);
      runs.push({ kind: 'word', text: run, pre });
    }
  }
  return { epoch, runs };
}

function stripZeros(digits: string): string {
  return digits.replace(/^0+(?=\d)/, '');
}

/** Numbers of any length by value: the longer (without leading zeros) is larger. */
function compareDigits(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Where a run or the end of the version stands against a run of another kind: older first. */
function standing(run: Run | undefined): number {
  if (run === undefined) return 2;
  switch (run.kind) {
    case 'tilde':
      return 0;
    case 'word':
      return run.pre === notPreRelease ? 3 : 1;
    case 'number':
      return 4;
  }
}

/** Negative, zero or positive as `a` is older than, as new as, or newer than `b`, both read as versions. */
export function compareParsedVersions(a: ParsedVersion, b: ParsedVersion): number {
  const byEpoch = compareDigits(a.epoch, b.epoch);
  if (byEpoch !== 0) return byEpoch;
  const length = Math.max(a.runs.length, b.runs.length);
  for (let i = 0; i < length; i++) {
    // Past its last run a version stands at its end: the order is lexicographic, and so transitive.
    const order = compareRuns(a.runs[i], b.runs[i]);
    if (order !== 0) return order;
  }
  return 0;
}

function compareRuns(x: Run | undefined, y: Run | undefined): number {
  if (x?.kind === 'number' && y?.kind === 'number') return compareDigits(x.digits, y.digits);
  if (x?.kind === 'word' && y?.kind === 'word') {
    if (x.pre !== notPreRelease && y.pre !== notPreRelease) return x.pre - y.pre;
    if (x.pre === notPreRelease && y.pre === notPreRelease) return x.text < y.text ? -1 : x.text > y.text ? 1 : 0;
  }
  return standing(x) - standing(y);
}

/**
 * The console's order of versions, oldest first: those that read as versions by the rule above,
 * after those that do not, after null; ties by the text (code units), so that only equal texts are equal.
 */
export function compareVersions(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  const x = parseVersion(a);
  const y = parseVersion(b);
  const order = x && y ? compareParsedVersions(x, y) : (x ? 1 : 0) - (y ? 1 : 0);
  return order || (a < b ? -1 : 1);
}
