/** The findings list's controls of the filters built on the imported intelligence (contracts/console/intel-filters.ts). */
export const intelControls = {
  epssRising: { kind: 'flag', label: 'EPSS rising (7 days)' },
  kevNotListed: { kind: 'flag', label: 'KEV per remote, in no catalog' },
  kevListedNotFlagged: { kind: 'flag', label: 'In a KEV catalog, not per remote' },
} as const;
