/**
 * Fix-by dates on the console (issue 37): an organization's fix-by settings
 * (`/app/orgs/:slug/fix-by-settings`: its deadline policy, the tags that mean "publicly
 * exposed", what an unknown input counts as), each finding's BOD 26-04 outcome, Coordinator
 * decision, fix-by date and path, and the findings' filters by them. The rules are
 * contracts/fix-by.ts, the tables contracts/ssvc-tables.ts. Console only, never in /v1.
 */
import * as z from 'zod';
import { countSchema, dateTimeSchema } from '../common.js';
import { deadlinePolicies, defaultFixBySettings, dueWindows, fixByInputs, unknownCountsAs } from '../fix-by.js';
import type { ConsoleFilter } from '../list-queries.js';
import { bod2604Outcomes, bod2604Table, coordinatorTable, ssvcDecisions, ssvcNotice } from '../ssvc-tables.js';
import { endpointTagListSchema } from './endpoint-context.js';

const dateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** One input of a finding's path. */
export const fixByStepSchema = z
  .object({
    input: z.enum(fixByInputs),
    value: z.string().meta({ example: 'yes' }),
    source: z.string().meta({ example: "tag internet-facing, from rule 'DMZ'", description: 'Where the value comes from; for an unknown input, "unknown, assumed (…)".' }),
    assumed: z.boolean().meta({ description: "True when the input has no data and `value` is what the organization's setting `unknown_as` counts it as." }),
    since: dateText.nullable().meta({ description: 'The day the input took this value, when known (a KEV listing, a tag rule, the ADP record).' }),
  })
  .meta({ id: 'FixByStep' });

/** What a finding gets from the fix-by rules: null members for a finding that is not open. */
export const findingFixByShape = {
  bod2604_outcome: z
    .enum(bod2604Outcomes)
    .nullable()
    .meta({ description: "CISA BOD 26-04's outcome of the open finding on its endpoint (table cisa:DT_BOD2604 1.0.0); null when not open." }),
  ssvc_decision: z.enum(ssvcDecisions).nullable().meta({ description: "The CISA Coordinator tree's decision (cisa:DT_CO 2.0.3); null when not open." }),
  fix_by: dateText
    .nullable()
    .meta({ description: "The later of first detection and the day it entered its outcome, plus the outcome's calendar days; null for fix on system upgrade, or when not open." }),
  fix_by_path: z.array(fixByStepSchema).meta({ description: 'The inputs, each with its value and source, in the order of the tables; empty when not open.' }),
};

/** A choice among `values` (an outcome, a decision), asked by a select of exactly them. */
const choiceOf = <const V extends readonly [string, ...string[]]>(values: V, description: string, example: V[number]) =>
  ({
    kind: 'intel',
    control: 'choice',
    values,
    schema: z.enum(values, { error: `must be one of ${values.join(', ')}` }).optional().meta({ example, description }),
  }) as const satisfies ConsoleFilter;

/** A day, asked by a calendar. */
const dayOf = (description: string) =>
  ({ kind: 'intel', control: 'date', schema: z.iso.date({ error: 'must be a date YYYY-MM-DD' }).optional().meta({ example: '2026-12-31', description }) }) as const satisfies ConsoleFilter;

/** The filters by outcome, decision and fix-by date of a list of `items`, which keep the open findings `of` them. */
const fixByFiltersOf = (items: string) => ({
  bod2604Outcome: choiceOf(bod2604Outcomes, `Only the ${items} of this BOD 26-04 outcome.`, '3 days'),
  ssvcDecision: choiceOf(ssvcDecisions, `Only the ${items} of this Coordinator decision.`, 'act'),
  fixByBefore: dayOf(`Only the ${items} whose fix-by date is on or before this day.`),
});

/** The console's filters of findings by outcome, decision and fix-by date. */
export const findingFixByFilters = fixByFiltersOf('open findings');

/**
 * The endpoints' filters by the fix-by fields of their open findings: an endpoint is kept when
 * one of its open findings is (`bod2604Outcome=3 days&fixByBefore=…`: one finding both).
 */
export const endpointFixByFilters = fixByFiltersOf('endpoints with an open finding');

/** What the console adds to an endpoint from the fix-by dates of its open findings. */
export const endpointFixByShape = {
  fix_by: dateText.nullable().meta({
    description: 'The earliest fix-by date of its open findings (excepted ones included, as the findings list shows them); null when none has a date.',
  }),
};

/** What a remediation plan step adds from the fix-by dates of the findings it closes. */
export const planStepFixByShape = {
  fix_by: dateText.nullable().meta({
    description: "The earliest fix-by date among the open findings the step closes (under the plan's filters, excepted ones left out); null when none has one.",
  }),
};

/** `PUT /app/orgs/:slug/fix-by-settings`: the whole settings, no other key. */
export const fixBySettingsBodySchema = z
  .strictObject({
    deadline_policy: z.enum(deadlinePolicies, { error: `must be one of ${deadlinePolicies.join(', ')}` }).meta({
      description: '`severity-days` (days per severity, the sla-policy), `bod-26-04` (the fix-by date of each open finding), `kev-due-date` (CISA\'s KEV due date where a finding\'s CVE has one, else days per severity).',
    }),
    exposure_tags: endpointTagListSchema.meta({ description: 'The tags that mean "publicly exposed" (compared without case); empty: exposure is unknown for every endpoint.' }),
    unknown_as: z.enum(unknownCountsAs, { error: `must be one of ${unknownCountsAs.join(', ')}` }).meta({
      description: 'What an input with no data counts as: the value that gives the shorter timeline (the default) or the longer; the path says "assumed".',
    }),
  })
  .meta({ id: 'FixBySettingsUpdate', example: defaultFixBySettings });
export type FixBySettingsBody = z.output<typeof fixBySettingsBodySchema>;

/** `GET` and `PUT /app/orgs/:slug/fix-by-settings`. */
export const fixBySettingsSchema = z
  .object({
    ...fixBySettingsBodySchema.shape,
    updated_at: dateTimeSchema.nullable().meta({ description: 'When they were last saved; null for the defaults, never edited.' }),
  })
  .meta({ id: 'FixBySettings' });
export type FixBySettings = z.output<typeof fixBySettingsSchema>;

/** `GET /app/orgs/:slug/fix-by-summary`: the open findings due soon under the fix-by dates, at now. */
export const fixBySummarySchema = z
  .object({
    as_of: dateTimeSchema.meta({ description: 'The instant of the counts: now, to the minute.' }),
    deadline_policy: z.enum(deadlinePolicies).meta({ description: "The organization's deadline policy (the counts are of the fix-by dates whatever it is)." }),
    open: countSchema.meta({ description: 'Open findings, excepted ones left out.' }),
    overdue: countSchema.meta({ description: 'Of them, past the end of their fix-by day.' }),
    due_within: z
      .object(Object.fromEntries(dueWindows.map((days) => [`days_${days}`, countSchema.meta({ description: `Due by the end of the day ${days} days from now, not yet past.` })])) as Record<`days_${(typeof dueWindows)[number]}`, typeof countSchema>)
      .meta({ description: 'Findings due within 3, 14 and 60 days (each window holds the shorter ones).' }),
    on_upgrade: countSchema.meta({ description: 'Findings whose outcome is fix on system upgrade: they have no date and can wait for the next upgrade.' }),
    tables: z
      .array(z.object({ key: z.string(), version: z.string(), name: z.string() }))
      .meta({ description: 'The decision tables the outcomes come from, with their versions.' }),
    notice: z.literal(ssvcNotice),
  })
  .meta({ id: 'FixBySummary' });
export type FixBySummary = z.output<typeof fixBySummarySchema>;

/** The tables as the summary names them. */
export const fixByTables = [bod2604Table, coordinatorTable].map(({ key, version, name }) => ({ key, version, name }));

/** How many fix-by changes each organization keeps. */
export const fixByChangesKept = 100;

/** One change of context or settings and what it did to the open findings' outcomes and dates (`GET /app/orgs/:slug/fix-by-changes`). */
export const fixByChangeSchema = z
  .object({
    id: z.number().int().min(1),
    recorded_at: dateTimeSchema,
    cause: z.string().meta({ example: 'bulk change of 12 endpoints (filter "q=web-prod"): tags added internet-facing', description: 'What was changed, by whom it was asked: the write that caused it.' }),
    findings_changed: countSchema.meta({ description: 'Open findings whose outcome, decision or fix-by date changed.' }),
    moves: z
      .array(z.object({ from: z.enum(bod2604Outcomes), to: z.enum(bod2604Outcomes), findings: countSchema }))
      .meta({ description: 'Open findings that changed outcome, by outcome before and after, the most first.' }),
    earlier: countSchema.meta({ description: 'Open findings now due earlier (or given a date).' }),
    later: countSchema.meta({ description: 'Open findings now due later (or no longer dated).' }),
  })
  .meta({ id: 'FixByChange' });
export type FixByChange = z.output<typeof fixByChangeSchema>;

/** `GET /app/orgs/:slug/fix-by-changes`: the newest first. */
export const fixByChangeListSchema = z.object({ data: z.array(fixByChangeSchema) }).meta({ id: 'FixByChangeList' });
