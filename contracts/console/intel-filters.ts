import { flagFilter } from '../list-queries.js';

/**
 * The findings list's filters built on the imported exploit intelligence, each a flag: EPSS
 * rising (the 7-day change of `/app/intel/epss/:cveId` at least the setting `epss_rise`), and
 * where the remote's `is_kev` and the imported KEV catalogs disagree
 * (`/app/orgs/:slug/intel/kev-agreement` counts the same findings).
 */
export const intelFilters = {
  epssRising: {
    ...flagFilter,
    schema: flagFilter.schema.meta({
      description: "Only the findings whose CVE's EPSS rose by at least the setting `epss_rise` over 7 days (same model; none before two such EPSS imports).",
    }),
  },
  kevNotListed: {
    ...flagFilter,
    schema: flagFilter.schema.meta({ description: 'Only the open findings the remote flags `is_kev` whose CVE no imported KEV catalog lists (none before a catalog is imported).' }),
  },
  kevListedNotFlagged: {
    ...flagFilter,
    schema: flagFilter.schema.meta({ description: 'Only the open findings of CVEs an imported KEV catalog lists that the remote does not flag `is_kev`.' }),
  },
} as const;
