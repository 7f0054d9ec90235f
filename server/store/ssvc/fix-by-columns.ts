import type { FindingTimeline } from '../basics/finding-timeline.js';

/** Each finding's outcome, decision and date, by its index in the timeline's coverage columns. */
export interface FixByColumns {
  timeline: FindingTimeline;
  /** Index into bod2604Outcomes. */
  outcome: Uint8Array;
  /** Index into ssvcDecisions. */
  decision: Uint8Array;
  /** The fix-by day, in days since the epoch; NaN for fix on system upgrade. */
  fixByDay: Float64Array;
  /** CISA's KEV due date of the finding's CVE, in days since the epoch; NaN for none. */
  kevDueDay: Float64Array;
  /** Per endpoint key of the columns, the earliest fix-by day of its open findings; NaN when none has one. */
  endpointFixByDay: Float64Array;
  /** What an unknown input counted as. */
  unknownAs: 'shorter-timeline' | 'longer-timeline';
  /** Each endpoint's resolved exposure and mission, packed (fix-by-figures.ts, packEndpointValues): what a pending change keeps. */
  endpointValues: Int32Array;
}
