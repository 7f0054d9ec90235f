/** The findings list's controls of the filters where the remote's `is_kev` and the imported KEV catalogs disagree (contracts/console/kev-agreement-filters.ts). */
export const kevAgreementControls = {
  kevNotListed: { kind: 'flag', label: 'KEV per remote, in no catalog' },
  kevListedNotFlagged: { kind: 'flag', label: 'In a KEV catalog, not per remote' },
} as const;
