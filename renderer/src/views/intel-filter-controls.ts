/** The findings list's controls of the filters built on the imported intelligence (contracts/console/intel-filters.ts). */
export const intelControls = {
  // Labels without "KEV": the KEV select beside them keeps a label no other control's contains.
  epssRising: { kind: 'flag', label: 'EPSS rising (7 days)' },
  kevNotListed: { kind: 'flag', label: 'Remote flag only, in no catalog' },
  kevListedNotFlagged: { kind: 'flag', label: 'In a catalog, no remote flag' },
} as const;
