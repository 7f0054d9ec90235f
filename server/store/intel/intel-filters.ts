import type { findingIntelFilters } from '../../../contracts/console/exploit-intel.js';
import type { CveIntel } from './cve-intel.js';

/** A filter of the findings' list by the intelligence of their CVE (contracts/console/exploit-intel.ts). */
export type FindingIntelFilter = keyof typeof findingIntelFilters;

/**
 * Which CVEs (by cves row id) each intelligence filter keeps, given its parsed value: typed by
 * the registry's filters, so that a filter without its test does not compile. A CVE without a
 * score is kept by no EPSS bound, one no catalog lists by no KEV filter.
 */
const tests: { [F in FindingIntelFilter]: (intel: CveIntel, value: never) => (ref: number) => boolean } = {
  epssMin: (intel, min: number) => (ref) => (intel.epss[ref] ?? Number.NaN) >= min,
  epssPercentileMin: (intel, min: number) => (ref) => (intel.percentile[ref] ?? Number.NaN) >= min,
  kevRansomware: (intel, known: boolean) => (ref) => {
    const listed = intel.kev.get(ref);
    return listed !== undefined && (listed.ransomware === true) === known;
  },
  kevAddedSince: (intel, since: string) => (ref) => {
    const listed = intel.kev.get(ref);
    return listed !== undefined && listed.date_added >= since;
  },
};

/** The test of a CVE by an intelligence filter and its value. */
export function intelFilterTest(intel: CveIntel, filter: FindingIntelFilter, value: unknown): (ref: number) => boolean {
  return tests[filter](intel, value as never);
}
