import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cpeMatches } from '../../test/support/coverage-oracle.js';
import { bestMilliseconds, repeated, scanMilliseconds } from '../../test/support/linear-time.js';
import { cpeField, cpeTest } from './cpe-pattern.js';

/** The matcher before issue 33, the reference of its semantics on small inputs: one anchored expression, each `*` a `.*`. */
function backtrackingExpression(pattern: string): RegExp | undefined {
  const components = pattern.trim().toLowerCase().split(/(?<!\\):/);
  if (components[0] !== 'cpe' || components[1] !== '2.3' || components.length < 3) return undefined;
  const wanted = [2, 3, 4, 5].map((index) => components[index] || '*');
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const parts = wanted.map((part) => part.replace(/\\(.)/gs, '$1').split('*').map(literal).join('.*'));
  return new RegExp(`^cpe:2\\.3:${parts.join(':')}$`, 's');
}

const targetCpe = (vendor: string | null, product: string | null, version: string | null) =>
  `cpe:2.3:a:${cpeField(vendor)}:${cpeField(product)}:${cpeField(version)}`;

// Fields without ":": a field holding one is compared as one component now, where the expression let a `*` run across it.
const field = (characters: string[]) => fc.option(fc.array(fc.constantFrom(...characters), { maxLength: 5 }).map((each) => each.join('')));
const piece = (extra: string[]) => fc.constantFrom(':', 'a', 'b', 'B', '*', '.', '-', '?', '2.3', 'cpe', ...extra);
const cpePattern = (extra: string[]) =>
  fc.tuple(fc.boolean(), fc.array(piece(extra), { maxLength: 9 })).map(([prefixed, pieces]) => `${prefixed ? 'cpe:2.3:' : ''}${pieces.join('')}`);

describe('CPE patterns', () => {
  it('answer as the backtracking expression did, escapes and spaces included', () => {
    fc.assert(
      fc.property(cpePattern(['\\', '\\:', '\\*', ' ', '_']), field(['a', 'b', 'A', '.', '-', '*', ' ', '\\']), field(['a', 'b', '?']), field(['1', '.', 'a']), (pattern, vendor, product, version) => {
        const test = cpeTest(pattern);
        const expression = backtrackingExpression(pattern);
        expect(test === undefined).toBe(expression === undefined);
        expect(test?.(cpeField(vendor), cpeField(product), cpeField(version))).toBe(expression?.test(targetCpe(vendor, product, version)));
      }),
      { numRuns: 1000 },
    );
  });

  it('answer as the coverage oracle does on patterns without escapes or spaces', () => {
    fc.assert(
      fc.property(cpePattern([]), field(['a', 'b', 'A', '.', '-', '*']), field(['a', 'b', '?']), field(['1', '.']), (pattern, vendor, product, version) => {
        expect(cpeTest(pattern)?.(cpeField(vendor), cpeField(product), cpeField(version)) ?? false).toBe(cpeMatches(pattern, targetCpe(vendor, product, version)));
      }),
      { numRuns: 1000 },
    );
  });

  it('compare a vendor holding ":" as one component, as an escaped ":" names it', () => {
    expect(cpeTest('cpe:2.3:a:a\\:b:x')!('a:b', 'x', '1')).toBe(true);
    expect(cpeTest('cpe:2.3:a:a:b')!('a:b', 'x', '1')).toBe(false);
  });

  it('match in time linear in the target and the pattern, whatever a remote sends', () => {
    const megabyte = 2 ** 20;
    const thirty = 'a'.repeat(30);
    const patterns = [
      'cpe:2.3:a:*a*a*a*a*a*a*a*a*a*a*b',
      `cpe:2.3:a:${'a*'.repeat(16)}`,
      `cpe:2.3:a:*${'a*'.repeat(5000)}b:*:*`,
      // A remote's pattern of a megabyte, as long as the field it is matched against.
      `cpe:2.3:a:*${repeated('a*', megabyte)}`,
      `cpe:2.3:a:*:*${'ab*'.repeat(100)}c`,
      ...fc.sample(fc.array(fc.constantFrom('a', 'b', '*', 'ab', 'aab'), { minLength: 1, maxLength: 30 }).map((pieces) => `cpe:2.3:a:${pieces.join('')}:*${pieces.join('')}`), {
        numRuns: 20,
        seed: 33,
      }),
    ];
    const fields = [repeated('a', megabyte), `${repeated('a', megabyte - 1)}b`, `${repeated('ab', megabyte - 1)}c`];
    expect(cpeTest(patterns[0]!)!(thirty, thirty, thirty)).toBe(false);
    expect(cpeTest(patterns[1]!)!(thirty, thirty, thirty)).toBe(true);
    let total = 0;
    let scans = 0;
    for (const pattern of patterns) {
      const test = cpeTest(pattern)!;
      for (const value of fields) {
        const spent = bestMilliseconds(() => test(value, value, value));
        // The three fields, and the pattern, read once each.
        const scan = 3 * scanMilliseconds(value) + scanMilliseconds(pattern);
        expect(spent, `${pattern.slice(0, 40)}… on ${value.slice(0, 12)}…`).toBeLessThan(200 * scan + 50);
        total += spent;
        scans += scan;
      }
    }
    expect(total).toBeLessThan(Math.max(2000, 50 * scans));
    console.log(`CPE patterns: ${total.toFixed(0)} ms for the set, ${scans.toFixed(1)} ms to scan its inputs once`);
  });
});
