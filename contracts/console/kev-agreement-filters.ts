import { flagFilter } from '../list-queries.js';

/**
 * The findings list's filters of where the remote's `is_kev` and the imported KEV catalogs
 * disagree (`/app/orgs/:slug/intel/kev-agreement` counts the same findings): each a flag.
 */
export const kevAgreementFilters = {
  kevNotListed: {
    ...flagFilter,
    schema: flagFilter.schema.meta({ description: 'Only the open findings the remote flags `is_kev` whose CVE no imported KEV catalog lists (none before a catalog is imported).' }),
  },
  kevListedNotFlagged: {
    ...flagFilter,
    schema: flagFilter.schema.meta({ description: 'Only the open findings of CVEs an imported KEV catalog lists that the remote does not flag `is_kev`.' }),
  },
} as const;
