/**
 * Fix-by dates (issue 37): each open finding's BOD 26-04 outcome and CISA Coordinator decision
 * from its inputs (In KEV, Publicly exposed, Automatable, Technical impact, Exploitation, Mission
 * and well-being), the date it is due by, and the path of inputs with their sources that led
 * there. Written once for the store that computes them, the console that shows them and the
 * tests that compute them again. Free of zod, for the renderer's bundle.
 *
 * Days are calendar days (docs/decisions/fix-by-dates/calendar-days.md): a fix-by date is the
 * later of the first detection's day and the day the finding entered its outcome, plus the
 * outcome's days; a finding is due by the end of that day (UTC).
 */
import type { EndpointCriticality } from './enums.js';
import {
  type Bod2604Outcome,
  type Exploitation,
  type MissionImpact,
  type SsvcDecision,
  type TechnicalImpact,
  type YesNo,
  bod2604OutcomeDays,
  bod2604OutcomeOf,
  coordinatorDecisionOf,
} from './ssvc-tables.js';

/** How an organization's deadlines are set: days per severity (the console's first rule), BOD 26-04's timelines, or CISA's KEV due date. */
export const deadlinePolicies = ['severity-days', 'bod-26-04', 'kev-due-date'] as const;
export type DeadlinePolicy = (typeof deadlinePolicies)[number];

/** What an input with no data counts as: the value that gives the shorter timeline (the default), or the longer. */
export const unknownCountsAs = ['shorter-timeline', 'longer-timeline'] as const;
export type UnknownCountsAs = (typeof unknownCountsAs)[number];

/** An organization's fix-by settings as it reads them. */
export interface FixBySettingsValues {
  deadline_policy: DeadlinePolicy;
  /** The tags (compared without case) that mean "publicly exposed". */
  exposure_tags: string[];
  unknown_as: UnknownCountsAs;
}

/** The settings of an organization that never set its own. */
export const defaultFixBySettings: FixBySettingsValues = { deadline_policy: 'severity-days', exposure_tags: ['internet-facing'], unknown_as: 'shorter-timeline' };

/** The inputs of the two tables, in the order a path names them. */
export const fixByInputs = ['In KEV', 'Publicly exposed', 'Automatable', 'Technical impact', 'Exploitation', 'Mission and well-being'] as const;
export type FixByInputName = (typeof fixByInputs)[number];

/** One input as the path shows it: its value (or "unknown" read as `value`, `assumed`), where it comes from, since when. */
export interface FixByStep {
  input: FixByInputName;
  value: string;
  /** Where the value comes from, as a reader says it: `CISA 2025.08.25`, `tag internet-facing, from rule 'DMZ'`, `CISA ADP, 2024-10-23`. */
  source: string;
  /** True when the input has no data and `value` is what the organization's setting counts unknown as. */
  assumed: boolean;
  /** The day (YYYY-MM-DD) the input took this value, when known: a KEV listing's date added, the ADP record's date, when a tag rule was written. */
  since: string | null;
}

/** An input as its source gives it: a value, or undefined for no data. */
export interface KnownInput<V extends string> {
  value: V | undefined;
  source: string;
  since: string | null;
}

/** Everything a finding's outcome, decision and date are computed from. */
export interface FixByFacts {
  inKev: KnownInput<YesNo>;
  exposed: KnownInput<YesNo>;
  automatable: KnownInput<YesNo>;
  technicalImpact: KnownInput<TechnicalImpact>;
  exploitation: KnownInput<Exploitation>;
  mission: KnownInput<MissionImpact>;
  /** The finding's first detection, ISO date-time. */
  firstDetectedAt: string;
}

/** A finding's outcome, decision, date and path. */
export interface FixBy {
  bod2604_outcome: Bod2604Outcome;
  ssvc_decision: SsvcDecision;
  /** YYYY-MM-DD; null for "fix on system upgrade". */
  fix_by: string | null;
  fix_by_path: FixByStep[];
}

/** Each input's value that gives the shorter timeline and the longer: both tables rise with yes, total, active and high. */
const assumedValues = {
  'In KEV': { 'shorter-timeline': 'yes', 'longer-timeline': 'no' },
  'Publicly exposed': { 'shorter-timeline': 'yes', 'longer-timeline': 'no' },
  Automatable: { 'shorter-timeline': 'yes', 'longer-timeline': 'no' },
  'Technical impact': { 'shorter-timeline': 'total', 'longer-timeline': 'partial' },
  Exploitation: { 'shorter-timeline': 'active', 'longer-timeline': 'none' },
  'Mission and well-being': { 'shorter-timeline': 'high', 'longer-timeline': 'low' },
} as const satisfies Record<FixByInputName, Record<UnknownCountsAs, string>>;

/** The value an unknown input counts as under the setting. */
export function assumedValue(input: FixByInputName, unknownAs: UnknownCountsAs): string {
  return assumedValues[input][unknownAs];
}

/** The Mission and well-being impact of an endpoint's criticality: normal is medium, critical is high. */
export const missionOfCriticality: Readonly<Record<EndpointCriticality, MissionImpact>> = { low: 'low', normal: 'medium', high: 'high', critical: 'high' };

const dayMs = 86_400_000;

/** A day YYYY-MM-DD plus `days` calendar days. */
export function addCalendarDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
}

/** The instant a finding due by `fixBy` (YYYY-MM-DD) is past due: the end of that day, UTC. */
export function fixByDueMs(fixBy: string): number {
  return Date.parse(`${fixBy}T00:00:00Z`) + dayMs;
}

/** The values an input's step pushes towards a shorter timeline: from the day it took one of them, the finding is in its outcome. */
const urgentValues: ReadonlySet<string> = new Set(['yes', 'total', 'active']);

/**
 * A finding's outcome, decision, fix-by date and path, from its facts and the organization's
 * setting for unknown inputs. The day it entered its outcome is the latest `since` of the BOD
 * inputs that hold an urgent value (yes, total): a KEV listing, a tag, an ADP record.
 */
export function fixByOf(facts: FixByFacts, unknownAs: UnknownCountsAs): FixBy {
  const step = <V extends string>(input: FixByInputName, known: KnownInput<V>): FixByStep => ({
    input,
    value: known.value ?? assumedValue(input, unknownAs),
    source: known.value === undefined ? `unknown, assumed (${known.source})` : known.source,
    assumed: known.value === undefined,
    since: known.value === undefined ? null : known.since,
  });
  const path = [
    step('In KEV', facts.inKev),
    step('Publicly exposed', facts.exposed),
    step('Automatable', facts.automatable),
    step('Technical impact', facts.technicalImpact),
    step('Exploitation', facts.exploitation),
    step('Mission and well-being', facts.mission),
  ];
  const [kev, exposed, automatable, impact, exploitation, mission] = path.map((entry) => entry.value) as [YesNo, YesNo, YesNo, TechnicalImpact, Exploitation, MissionImpact];
  const outcome = bod2604OutcomeOf(kev, exposed, automatable, impact);
  const decision = coordinatorDecisionOf(exploitation, automatable, impact, mission);
  const days = bod2604OutcomeDays[outcome];
  let entered = new Date(Date.parse(facts.firstDetectedAt)).toISOString().slice(0, 10);
  for (const entry of path.slice(0, 4)) if (entry.since !== null && urgentValues.has(entry.value) && entry.since > entered) entered = entry.since;
  return { bod2604_outcome: outcome, ssvc_decision: decision, fix_by: days === null ? null : addCalendarDays(entered, days), fix_by_path: path };
}

/** The path as one line: "In KEV: yes (CISA 2025.08.25) → … → 3 days & forensic investigation, by 2026-12-01". */
export function fixByPathText(fixBy: Pick<FixBy, 'bod2604_outcome' | 'fix_by' | 'fix_by_path'>): string {
  const steps = fixBy.fix_by_path.slice(0, 4).map((entry) => `${entry.input}: ${entry.value} (${entry.source})`);
  return [...steps, `${fixBy.bod2604_outcome}${fixBy.fix_by ? `, by ${fixBy.fix_by}` : ''}`].join(' → ');
}

/** The console's "due in" windows of the plan and the dashboard, in days. */
export const dueWindows = [3, 14, 60] as const;
