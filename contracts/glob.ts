/**
 * Globs matched without backtracking (issue 33): the time to match a value is linear in its
 * length, whatever the pattern, so that neither a remote's scope patterns nor a user's tag rule
 * can hold the server on a long stored string. Shared by the store (tag rules, CPE patterns) and
 * the demo's dataset; imports nothing.
 *
 * A pattern is cut at its stars into segments, each a run of positions (a character, or a set of
 * characters: `?`, `[...]`). The first segment must match at the start, the last at the end, and
 * each segment between is taken at its leftmost occurrence after the one before: a later
 * occurrence never leaves more room to the segments after it, so no other choice need be tried.
 * Each search reads the value forward from where the previous one ended and never goes back, so
 * the searches of one match read each character of the value at most once between them:
 * - a segment of plain characters by Knuth–Morris–Pratt, O(value + segment) whatever the
 *   segment's length (CPE patterns come from remotes, with no bound on their length); within the
 *   last {@link shortRest} characters of a value by the engine's `indexOf`, which whatever its
 *   algorithm compares at most that many characters per character there (hostnames and CPE
 *   fields then stay in native code);
 * - a segment with sets by Shift-And, the segment's positions as the bits of ⌈positions/32⌉
 *   32-bit words: O(value × ⌈positions/32⌉), at most 7 words for a tag rule's 200 characters.
 * A pattern of one or two plain segments (`a`, `a*`, `*a`, `a*b`, `*`) is answered by equality,
 * `startsWith` and `endsWith`, each reading the value at most once. Braces `{a,b}` are expanded
 * into alternatives matched one after the other, at most {@link globLimits}.alternatives of them.
 */

/** What a tag rule's pattern may hold (checked where a rule is saved). */
export const globLimits = { length: 200, stars: 16, alternatives: 32 } as const;

/** A set of characters: UTF-16 code ranges `[low, high]` (inclusive), or their complement. */
interface CharacterSet {
  negated: boolean;
  ranges: number[];
}

/** One position of a segment: a character code, or a set. */
type Position = number | CharacterSet;

const anyCharacter: CharacterSet = { negated: true, ranges: [] };

function inSet(set: CharacterSet, code: number): boolean {
  let found = false;
  for (let at = 0; at < set.ranges.length && !found; at += 2) found = code >= set.ranges[at]! && code <= set.ranges[at + 1]!;
  return found !== set.negated;
}

function accepts(position: Position, code: number): boolean {
  return typeof position === 'number' ? position === code : inSet(position, code);
}

/**
 * Up to this many characters from where a search starts, a plain segment is searched by the
 * engine's `indexOf`: at most this many comparisons per character read, whatever its algorithm.
 */
const shortRest = 256;

/** A segment compiled: it matches at a given index, and finds its leftmost occurrence in a range. */
type Segment = LiteralSegment | SetSegment;

/** A segment of plain characters, searched by Knuth–Morris–Pratt (by `indexOf` near the end, see {@link shortRest}). */
class LiteralSegment {
  readonly length: number;
  private readonly codes: Int32Array;
  /** failure[q]: the length of the longest proper border of the first q + 1 characters. */
  private readonly failure: Int32Array;

  constructor(private readonly text: string) {
    const length = (this.length = text.length);
    const codes = (this.codes = Int32Array.from({ length }, (_, at) => text.charCodeAt(at)));
    const failure = (this.failure = new Int32Array(length));
    for (let at = 1, border = 0; at < length; at++) {
      while (border > 0 && codes[at] !== codes[border]) border = failure[border - 1]!;
      if (codes[at] === codes[border]) border++;
      failure[at] = border;
    }
  }

  matchesAt(value: string, at: number): boolean {
    return value.startsWith(this.text, at);
  }

  /** The first index in [from, to − length] where it matches, or −1: each character of the range read once. */
  find(value: string, from: number, to: number): number {
    const { codes, failure, length } = this;
    if (value.length - from <= shortRest) {
      const found = value.indexOf(this.text, from);
      return found >= 0 && found + length <= to ? found : -1;
    }
    const first = codes[0];
    for (let at = from, matched = 0; at < to; at++) {
      const code = value.charCodeAt(at);
      // Most characters start nothing: skip them without the border loop.
      if (matched === 0 && code !== first) continue;
      while (matched > 0 && codes[matched] !== code) matched = failure[matched - 1]!;
      if (codes[matched] === code && ++matched === length) return at - length + 1;
    }
    return -1;
  }
}

/**
 * A segment with sets, searched by Shift-And. The characters are cut into intervals on which
 * every position answers the same, each interval with the bit mask of the positions accepting
 * it (a table for ASCII, a binary search above it): memory O(positions²), not per character.
 */
class SetSegment {
  readonly length: number;
  private readonly words: number;
  private readonly starts: number[];
  private readonly masks: Int32Array[];
  private readonly ascii: Int32Array[];
  private readonly state: Int32Array;

  constructor(private readonly positions: readonly Position[]) {
    this.length = positions.length;
    const words = (this.words = Math.ceil(positions.length / 32));
    const bounds = new Set([0, 128]);
    for (const position of positions) {
      if (typeof position === 'number') bounds.add(position).add(position + 1);
      else for (let at = 0; at < position.ranges.length; at += 2) bounds.add(position.ranges[at]!).add(position.ranges[at + 1]! + 1);
    }
    const maskOf = (code: number) => {
      const mask = new Int32Array(words);
      positions.forEach((position, at) => {
        if (accepts(position, code)) mask[at >>> 5] = mask[at >>> 5]! | (1 << (at & 31));
      });
      return mask;
    };
    this.starts = [...bounds].filter((code) => code <= 0xffff).sort((a, b) => a - b);
    this.masks = this.starts.map(maskOf);
    this.ascii = Array.from({ length: 128 }, (_, code) => maskOf(code));
    this.state = new Int32Array(words);
  }

  matchesAt(value: string, at: number): boolean {
    for (let offset = 0; offset < this.length; offset++) if (!accepts(this.positions[offset]!, value.charCodeAt(at + offset))) return false;
    return true;
  }

  /** The first index in [from, to − length] where it matches, or −1: each character of the range read once, ⌈length/32⌉ words shifted. */
  find(value: string, from: number, to: number): number {
    const { state, words, length } = this;
    const lastWord = words - 1;
    const lastBit = 1 << ((length - 1) & 31);
    state.fill(0);
    for (let at = from; at < to; at++) {
      const mask = this.maskOf(value.charCodeAt(at));
      // Shift every word left by one, the top bit of each carried into the next; bit 0 starts a new occurrence.
      let carry = 1;
      for (let word = 0; word < words; word++) {
        const held = state[word]!;
        state[word] = ((held << 1) | carry) & mask[word]!;
        carry = held >>> 31;
      }
      if (state[lastWord]! & lastBit) return at - length + 1;
    }
    return -1;
  }

  /** The positions accepting a character, as bits. */
  private maskOf(code: number): Int32Array {
    if (code < 128) return this.ascii[code]!;
    const { starts } = this;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (starts[middle]! <= code) low = middle;
      else high = middle - 1;
    }
    return this.masks[low]!;
  }
}

/**
 * Whether `value` is matched by segments that stars separate (at least one): the first at the
 * start, the last at the end, the others leftmost in between. O(value) searches, see above.
 */
function matchSegments(segments: readonly Segment[], value: string): boolean {
  const first = segments[0]!;
  if (segments.length === 1) return value.length === first.length && first.matchesAt(value, 0);
  const last = segments[segments.length - 1]!;
  const end = value.length - last.length;
  if (first.length > end || !first.matchesAt(value, 0) || !last.matchesAt(value, end)) return false;
  let at = first.length;
  for (let index = 1; index < segments.length - 1; index++) {
    const segment = segments[index]!;
    if (segment.length === 0) continue;
    const found = segment.find(value, at, end);
    if (found < 0) return false;
    at = found + segment.length;
  }
  return true;
}

/**
 * A matcher of whole values by plain text and `*` (any run of characters, empty included):
 * `parts` are the texts between the stars, so `['ab', '', 'c']` is `ab**c`. Linear in the value
 * and the parts, whatever their number or length.
 */
export function starMatcher(parts: readonly string[]): (value: string) => boolean {
  // The shapes CPE patterns mostly take, answered by the engine's own comparisons (each reads the value at most once).
  if (parts.length === 1) return (value) => value === parts[0];
  if (parts.every((part) => part === '')) return () => true;
  if (parts.length === 2) {
    const [start, end] = parts as [string, string];
    return (value) => value.length >= start.length + end.length && value.startsWith(start) && value.endsWith(end);
  }
  const segments = parts.map((part) => new LiteralSegment(part));
  return (value) => matchSegments(segments, value);
}

/** A glob that cannot be matched within {@link globLimits}: too many alternatives. */
export class GlobError extends Error {}

/** A glob as parsed: a sequence of characters, sets, stars and brace groups (alternatives). */
type Item = { kind: 'position'; position: Position } | { kind: 'star' } | { kind: 'braces'; alternatives: Item[][] };

/** The index of the `]` closing the set opened at `open`, or −1 (the `[` is then a character). */
function setEnd(pattern: string, open: number): number {
  let at = open + 1;
  if (pattern[at] === '^') at++;
  if (pattern[at] === ']') at++;
  for (; at < pattern.length; at++) {
    if (pattern[at] === '\\') at++;
    else if (pattern[at] === ']') return at;
  }
  return -1;
}

function parseSet(body: string): CharacterSet {
  const negated = body[0] === '^';
  const codes: number[] = [];
  for (let at = negated ? 1 : 0; at < body.length; at++) codes.push(body.charCodeAt(body[at] === '\\' && at + 1 < body.length ? ++at : at));
  // Ranges are read on the characters (escapes resolved): `a-z`; a `-` first or last is itself.
  const ranges: number[] = [];
  for (let at = 0; at < codes.length; at++) {
    if (codes[at + 1] === 45 && at + 2 < codes.length) {
      ranges.push(Math.min(codes[at]!, codes[at + 2]!), Math.max(codes[at]!, codes[at + 2]!));
      at += 2;
    } else ranges.push(codes[at]!, codes[at]!);
  }
  return { negated, ranges };
}

/** The index of the `}` closing the group opened at `open` when it holds a top-level comma, or −1. */
function bracesEnd(pattern: string, open: number): number {
  let depth = 0;
  let comma = false;
  for (let at = open; at < pattern.length; at++) {
    const character = pattern[at];
    if (character === '\\') at++;
    else if (character === '[') at = Math.max(at, setEnd(pattern, at));
    else if (character === '{') depth++;
    else if (character === ',' && depth === 1) comma = true;
    else if (character === '}' && --depth === 0) return comma ? at : -1;
  }
  return -1;
}

/** Parses `pattern` from `start` to `end` (exclusive); within braces (`grouped`), `,` separates alternatives. */
function parseItems(pattern: string, start: number, end: number, grouped: boolean): Item[][] {
  const alternatives: Item[][] = [[]];
  for (let at = start; at < end; at++) {
    const items = alternatives[alternatives.length - 1]!;
    const character = pattern[at]!;
    const position = (code: number) => items.push({ kind: 'position', position: code });
    if (character === '\\') position(pattern.charCodeAt(at + 1 < end ? ++at : at));
    else if (character === '*') items.push({ kind: 'star' });
    else if (character === '?') items.push({ kind: 'position', position: anyCharacter });
    else if (character === '[' && setEnd(pattern, at) >= 0 && setEnd(pattern, at) < end) {
      const close = setEnd(pattern, at);
      items.push({ kind: 'position', position: parseSet(pattern.slice(at + 1, close)) });
      at = close;
    } else if (character === '{' && bracesEnd(pattern, at) >= 0 && bracesEnd(pattern, at) < end) {
      const close = bracesEnd(pattern, at);
      items.push({ kind: 'braces', alternatives: parseItems(pattern, at + 1, close, true) });
      at = close;
    } else if (character === ',' && grouped) alternatives.push([]);
    else position(pattern.charCodeAt(at));
  }
  return alternatives;
}

/** Parses a whole pattern: outside braces a `,` is a character. */
function parse(pattern: string): Item[] {
  return parseItems(pattern, 0, pattern.length, false)[0]!;
}

/** How many alternatives the items' braces give, counted up to `cap` + 1. */
function alternativeCount(items: readonly Item[], cap: number): number {
  let count = 1;
  for (const item of items) {
    if (item.kind !== 'braces') continue;
    const inside = item.alternatives.reduce((sum, alternative) => Math.min(cap + 1, sum + alternativeCount(alternative, cap)), 0);
    count = Math.min(cap + 1, count * inside);
  }
  return count;
}

/** The stars a pattern holds (escaped ones aside) and the alternatives its braces give (counted up to the limit + 1). */
export function globShape(pattern: string): { stars: number; alternatives: number } {
  const items = parse(pattern);
  const stars = (list: readonly Item[]): number =>
    list.reduce((sum, item) => sum + (item.kind === 'star' ? 1 : item.kind === 'braces' ? item.alternatives.reduce((inner, alternative) => inner + stars(alternative), 0) : 0), 0);
  return { stars: stars(items), alternatives: alternativeCount(items, globLimits.alternatives) };
}

/** The items' alternatives without braces: each a list of positions and stars. */
function expand(items: readonly Item[]): (Position | '*')[][] {
  let expanded: (Position | '*')[][] = [[]];
  for (const item of items) {
    if (item.kind === 'position') expanded.forEach((each) => each.push(item.position));
    else if (item.kind === 'star') expanded.forEach((each) => each.push('*'));
    else {
      const inside = item.alternatives.flatMap(expand);
      expanded = expanded.flatMap((before) => inside.map((after) => [...before, ...after]));
    }
  }
  return expanded;
}

/** The matcher of one alternative (positions and stars): {@link starMatcher} when it holds no set. */
function alternativeMatcher(positions: readonly (Position | '*')[]): (value: string) => boolean {
  const segments: Position[][] = [[]];
  for (const position of positions) {
    if (position === '*') segments.push([]);
    else segments[segments.length - 1]!.push(position);
  }
  const plain = (segment: Position[]): segment is number[] => segment.every((position) => typeof position === 'number');
  if (segments.every(plain)) return starMatcher(segments.map((segment) => String.fromCharCode(...segment)));
  const compiled = segments.map((segment) => (plain(segment) ? new LiteralSegment(String.fromCharCode(...segment)) : new SetSegment(segment)));
  return (value) => matchSegments(compiled, value);
}

/**
 * A glob as a test of whole values, without case (the pattern and the value lowered): `*` any
 * run of characters (dots and slashes included, the empty run too), `?` any one character,
 * `[abc]`, `[a-z]`, `[^a-z]` one character of a set or not of it (a `!` first is one of the
 * set, as picomatch read it), `{a,b}` either alternative (nested groups too), `\` before a
 * character takes it as itself. A `[` or `{` that does not close, or braces without a comma, are
 * characters. Throws {@link GlobError} past {@link globLimits}.alternatives alternatives.
 * Matching costs O(alternatives × value × ⌈longest segment with a set / 32⌉).
 */
export function compileGlob(pattern: string): (value: string) => boolean {
  const items = parse(pattern.toLowerCase());
  if (alternativeCount(items, globLimits.alternatives) > globLimits.alternatives) {
    throw new GlobError(`braces must give at most ${globLimits.alternatives} alternatives`);
  }
  const alternatives = expand(items).map(alternativeMatcher);
  return (value) => {
    const lowered = value.toLowerCase();
    for (const matches of alternatives) if (matches(lowered)) return true;
    return false;
  };
}
