import { starMatcher } from '../../../contracts/glob.js';

/** A target's field as a CPE component: lowercased, spaces as underscores, `-` (CPE's "not applicable") when missing. */
export function cpeField(value: string | null | undefined): string {
  return (value ?? '-').replaceAll(' ', '_').toLowerCase();
}

/** A CPE pattern as a test of a target's vendor, product and version (each a {@link cpeField}). */
export type CpeTest = (vendor: string, product: string, version: string) => boolean;

/**
 * A CPE pattern as a test of a target, or undefined when it is not a CPE 2.3 formatted string.
 * Its part, vendor, product and version are compared component by component with the target's
 * `a` (an application), vendor, product and version (absent ones match anything); in each,
 * backslash escapes of CPE become plain characters and then `*` matches any run of characters;
 * the later components (update, edition, ...) are ignored because targets do not carry them.
 * Each component is a {@link starMatcher}: linear in the target's field and the pattern, so a
 * remote's pattern cannot hold the server however many stars it holds (issue 33).
 */
export function cpeTest(pattern: string): CpeTest | undefined {
  const components = pattern.trim().toLowerCase().split(/(?<!\\):/);
  if (components[0] !== 'cpe' || components[1] !== '2.3' || components.length < 3) return undefined;
  const [part, vendor, product, version] = [2, 3, 4, 5].map((index) => starMatcher((components[index] || '*').replace(/\\(.)/gs, '$1').split('*')));
  if (!part!('a')) return () => false;
  return (vendorField, productField, versionField) => vendor!(vendorField) && product!(productField) && version!(versionField);
}
