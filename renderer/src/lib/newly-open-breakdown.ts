import { formatCount } from './format';

/**
 * The critical and KEV counts of newly open findings, saying how many are both: every such
 * finding is critical or KEV, so the two figures add up to more than the total by exactly the
 * findings that are both.
 */
export function newlyOpenBreakdown({ total, critical, kev }: { total: number; critical: number; kev: number }, kevLabel: string): string {
  const both = critical + kev - total;
  return `${formatCount(critical)} critical, ${formatCount(kev)} ${kevLabel}${both > 0 ? `; ${formatCount(both)} of them both` : ''}`;
}
