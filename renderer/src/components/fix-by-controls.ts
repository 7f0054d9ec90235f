import { bod2604Outcomes, ssvcDecisions } from '../../../contracts/ssvc-tables';

/**
 * The controls of the filters by fix-by fields (contracts/console/fix-by.ts, on findings,
 * endpoints and the plan): selects of exactly the BOD 26-04 outcomes and Coordinator decisions,
 * and a calendar for the last fix-by day. `of` begins the labels where the list is not of
 * findings ("With a finding of" on endpoints).
 */
export function fixByControls(of = '') {
  const label = (text: string) => (of ? `${of} ${text}` : text.charAt(0).toUpperCase() + text.slice(1));
  return {
    bod2604Outcome: { kind: 'choice', label: label('BOD 26-04 outcome'), values: bod2604Outcomes },
    ssvcDecision: { kind: 'choice', label: label('SSVC decision'), values: ssvcDecisions },
    fixByBefore: { kind: 'date', label: label('fix-by date on or before') },
  } as const;
}
