import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { GlobError, compileGlob, globLimits, globShape } from '../../../contracts/glob.js';
import { bestMilliseconds, repeated, scanMilliseconds } from '../../test/support/linear-time.js';

/** Tag rules' globs before issue 33: picomatch's expression, the reference on small inputs. */
const picomatchTest = (pattern: string) => {
  const expression = picomatch.makeRe(pattern, { nocase: true, dot: true });
  return (value: string) => expression.test(value);
};

/** Pieces of the documented syntax (`*`, `?`, sets, braces, escapes) and plain characters. */
const piece = fc.constantFrom('a', 'b', 'B', '-', '.', 'ab', '*', '?', '[ab]', '[a-c]', '[^a]', '{a,b}', '{a*,*b}', '{a,{b,-}}', '\\*', '\\?');
const pattern = fc
  .array(piece, { minLength: 1, maxLength: 7 })
  .map((pieces) => pieces.join(''))
  // Not `*.*` alone, whose last `*` picomatch reads as one character or more (a file's extension).
  .filter((glob) => globShape(glob).alternatives <= globLimits.alternatives && glob !== '*.*');
// Not `.` or `..`, which picomatch keeps from a leading `*` as path segments; never empty, which its `*` does not match.
const value = fc
  .array(fc.constantFrom('a', 'b', 'A', 'c', '-', '.', '*', '?'), { minLength: 1, maxLength: 8 })
  .map((characters) => characters.join(''))
  .filter((text) => text !== '.' && text !== '..');

describe('tag rule globs', () => {
  it('answer as picomatch did on the documented syntax, values without "/"', () => {
    fc.assert(
      fc.property(pattern, fc.array(value, { minLength: 1, maxLength: 6 }), (glob, values) => {
        const linear = compileGlob(glob);
        const reference = picomatchTest(glob);
        for (const text of values) expect(linear(text), `${glob} on ${text}`).toBe(reference(text));
      }),
      { numRuns: 400 },
    );
  });

  it('read what picomatch read differently as documented: "*" crosses "/" and matches the empty text, braces without a comma are characters', () => {
    expect(compileGlob('srv-*')('srv-a/b')).toBe(true);
    expect(compileGlob('*')('')).toBe(true);
    expect(compileGlob('{1..3}')('{1..3}')).toBe(true);
    expect(compileGlob('[!a]')('!')).toBe(true);
    expect(compileGlob('Windows Server*')('WINDOWS SERVER 2019')).toBe(true);
    expect(compileGlob('{LT-*,mbp-*,*-MacBook-Pro}')('Johns-MacBook-Pro')).toBe(true);
    // picomatch's `*.*` wants a character after the dot; every other `*` matches the empty text, and so does this one.
    expect(compileGlob('*.*')('a.')).toBe(true);
    expect(compileGlob('a.*')('a.')).toBe(true);
  });

  it('count stars and alternatives as the bounds do, and refuse braces past the limit', () => {
    expect(globShape('*-FIN-*')).toEqual({ stars: 2, alternatives: 1 });
    expect(globShape('{a,b}{c,d,e}\\**')).toEqual({ stars: 1, alternatives: 6 });
    expect(globShape('{a,{b,c}}x')).toEqual({ stars: 0, alternatives: 3 });
    const tooMany = '{a,b}'.repeat(6);
    expect(globShape(tooMany).alternatives).toBe(globLimits.alternatives + 1);
    expect(() => compileGlob(tooMany)).toThrow(GlobError);
  });

  it('match in time linear in the value: patterns within the bounds, pathological ones included, against values of 1 MB', () => {
    const megabyte = 2 ** 20;
    const pathological = [
      '*a*a*a*a*a*a*a*a*a*a*b',
      'a*'.repeat(16),
      '*web*prod*',
      `*${'a?'.repeat(40)}b*`,
      `*[ab]${'a'.repeat(150)}b*`,
      `{a,b}{a,b}{a,b}{a,b}{a,b}*${'?'.repeat(60)}*b*`,
    ];
    const random = fc.sample(
      fc.array(fc.constantFrom('a', 'b', 'web', 'prod', '*', '?', '[ab]', '{a,b}', '{a*,*b}', '-'), { minLength: 1, maxLength: 24 }).map((pieces) => pieces.join('')),
      { numRuns: 20, seed: 33 },
    );
    // Ending as most patterns end, so that the anchored ends hold and the middle segments are searched through the whole value.
    const inputs = [repeated('a', megabyte), `${repeated('a', megabyte - 1)}b`, `${repeated('ab', megabyte - 1)}b`, repeated('web', megabyte), repeated('a-b.c?', megabyte)];
    let total = 0;
    let scans = 0;
    for (const glob of [...pathological, ...random]) {
      const { stars, alternatives } = globShape(glob);
      if (glob.length > globLimits.length || stars > globLimits.stars || alternatives > globLimits.alternatives) continue;
      const test = compileGlob(glob);
      for (const input of inputs) {
        const spent = bestMilliseconds(() => test(input));
        const scan = scanMilliseconds(input);
        // A backtracking matcher spends the scan times the input's length here: hours, not a multiple.
        expect(spent, `${glob} on ${input.slice(0, 12)}…`).toBeLessThan(2000 * scan + 50);
        total += spent;
        scans += scan;
      }
    }
    expect(total).toBeLessThan(Math.max(2000, 400 * scans));
    console.log(`globs: ${total.toFixed(0)} ms for the set, ${scans.toFixed(1)} ms to scan its inputs once`);
  });
});
