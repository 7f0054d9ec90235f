import type { SqlValue } from 'sql.js';
import type { findingFixByFilters } from '../../../contracts/console/fix-by.js';
import { findingStatuses } from '../../../contracts/enums.js';
import { type FixByFacts, type KnownInput, assumedValue, dueWindows, fixByOf } from '../../../contracts/fix-by.js';
import {
  type Bod2604Outcome,
  type SsvcDecision,
  bod2604OutcomeDays,
  bod2604OutcomeOf,
  bod2604Outcomes,
  coordinatorDecisionOf,
  exploitations,
  missionImpacts,
  ssvcDecisions,
  technicalImpacts,
  yesNo,
} from '../../../contracts/ssvc-tables.js';
import type { EndpointContextSource } from '../basics/endpoint-selection.js';
import type { FindingTimelines } from '../basics/finding-timeline.js';
import type { FixByColumns } from './fix-by-columns.js';
import { type ShownInventory, checkStillShown, shownInventory } from '../basics/inventory-ids.js';
import type { Database } from '../engine/database.js';
import { type ChangeVersions, type RecordWrite, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { TimeSlices } from '../derived/time-slices.js';
import { nextTurn } from '../engine/next-turn.js';
import type { FindingIntel } from '../intel/finding-intel.js';
import type { FigureSort, ListSearch } from '../inventory/sorted-orders.js';
import type { CoverageColumns } from '../basics/coverage-columns.js';
import { type ExceptedFindings, noExceptedFindings } from '../basics/excepted-findings.js';
import { VersionMoved } from '../derived/one-version.js';
import { type FixByInputs, readFixByInputs } from './fix-by-inputs.js';
import { FixBySettingsRecords, type StoredFixBySettings } from './fix-by-settings.js';
import { FixByChanges, fixByDifference } from './fix-by-changes.js';

/**
 * The fix-by dates of every finding (`FixByColumns`): read from the inventory, the organizations
 * (what a replica shows), the endpoint context (exposure tags, criticality) and the imported
 * intelligence (KEV catalogs, Vulnrichment). The settings are named in the key.
 */
export const fixByColumns = derivedValue('fix-by dates', ['inventory', 'organizations', 'endpoint-context', 'threat-intel']);
const fixByInputValues = derivedValue('fix-by inputs', ['inventory', 'organizations', 'endpoint-context', 'threat-intel']);
const fixByFilteredFindings = derivedValue('findings kept by fix-by filters', ['inventory', 'organizations', 'endpoint-context', 'threat-intel']);
const fixByDueCounts = derivedValue('fix-by due counts', ['inventory', 'organizations', 'endpoint-context', 'threat-intel', 'exceptions']);

/** The filters of findings by outcome, decision and date. */
export type FixByFilter = keyof typeof findingFixByFilters;
/** The fix-by filters a query gives, by parameter (absent: not given). */
export type FixByFilterValues = Partial<Record<FixByFilter, string>>;
/** The fix-by filters `query` gives, or undefined when it gives none. */
export function fixByFiltersGiven(query: Record<string, unknown>): FixByFilterValues | undefined {
  const given = Object.keys(fixByFilterNames).filter((filter) => query[filter] !== undefined);
  return given.length === 0 ? undefined : Object.fromEntries(given.map((filter) => [filter, String(query[filter])]));
}
/** Text naming the given filters in a key: `bod2604Outcome=3 days&fixByBefore=2026-12-31`. */
const filtersKey = (given: FixByFilterValues) =>
  Object.entries(given)
    .map(([filter, value]) => `${filter}=${value}`)
    .join('&');
const fixByFilterNames: Record<FixByFilter, true> = { bod2604Outcome: true, ssvcDecision: true, fixByBefore: true };

/**
 * Whether the finding at index `i` of `columns` is open and kept by every one of `given`: of the
 * outcome, of the decision, dated on or before the day.
 */
export function keptByFixByFilters(columns: FixByColumns, given: FixByFilterValues): (i: number) => boolean {
  const { outcome, decision, fixByDay } = columns;
  const { status } = columns.timeline.columns;
  const outcomeWanted = given.bod2604Outcome === undefined ? -1 : bod2604Outcomes.indexOf(given.bod2604Outcome as Bod2604Outcome);
  const decisionWanted = given.ssvcDecision === undefined ? -1 : ssvcDecisions.indexOf(given.ssvcDecision as SsvcDecision);
  const lastDay = given.fixByBefore === undefined ? Number.POSITIVE_INFINITY : Date.parse(`${given.fixByBefore}T00:00:00Z`) / dayMs;
  // NaN (fix on system upgrade) is on or before no day; with no day given every finding passes.
  return (i) =>
    status[i] === open &&
    (outcomeWanted < 0 || outcome[i] === outcomeWanted) &&
    (decisionWanted < 0 || decision[i] === decisionWanted) &&
    (given.fixByBefore === undefined || fixByDay[i]! <= lastDay);
}

/** What a finding's row gives its fix-by (collection-tables.ts, `consoleFacts`). */
export interface FixByRow {
  is_kev: number;
  first_detected_at: string;
  endpoint_id: string | null;
  cve_id: string;
}


/** How many findings are due in each window, overdue, and can wait for an upgrade (`/fix-by-summary`). */
export interface FixByCounts {
  open: number;
  overdue: number;
  dueWithin: Record<(typeof dueWindows)[number], number>;
  onUpgrade: number;
}

const dayMs = 86_400_000;
/** A fix-by day (days since the epoch) as its date, YYYY-MM-DD; null for NaN (fix on system upgrade, or no date). */
export const dateOfDay = (day: number) => (Number.isNaN(day) ? null : new Date(day * dayMs).toISOString().slice(0, 10));
const open = findingStatuses.indexOf('open');
/** Findings computed between two looks at the clock: 65,536 ran 67 ms on a loaded machine. */
const findingsBetweenLooks = 8_192;
const urgent = (value: string) => value === 'yes' || value === 'total' || value === 'active';
const dayOf = (since: string | null) => (since === null ? Number.NEGATIVE_INFINITY : Date.parse(`${since}T00:00:00Z`) / dayMs);

/** A resolved input: its value's index in its table's values, and the day it pushes the outcome from (when urgent and dated). */
function resolved<V extends string>(known: KnownInput<V>, values: readonly string[], input: Parameters<typeof assumedValue>[0], unknownAs: StoredFixBySettings['settings']['unknown_as']) {
  const value = known.value ?? assumedValue(input, unknownAs);
  return { index: values.indexOf(value), since: known.value !== undefined && urgent(value) ? dayOf(known.since) : Number.NEGATIVE_INFINITY };
}

/** What an unknown input counts as. */
type UnknownAs = StoredFixBySettings['settings']['unknown_as'];
/** The day of an exposure without one (no day pushes the outcome), as an Int32. */
const noDay = -0x80000000;

/**
 * Each endpoint's exposure and mission resolved under `unknownAs`, packed two Int32 an endpoint
 * (the index of the exposure times 4 plus the mission's; the day the exposure took its value,
 * or {@link noDay}), the inputs' endpoints in order and then the values of a finding that names
 * none: what the columns read of the endpoint context, and what a pending change keeps of it.
 */
function packEndpointValues(inputs: FixByInputs, unknownAs: UnknownAs): Int32Array {
  const packed = new Int32Array(2 * (inputs.endpoints.length + 1));
  [...inputs.endpoints, inputs.noEndpoint].forEach((endpoint, key) => {
    const exposed = resolved(endpoint.exposed, yesNo, 'Publicly exposed', unknownAs);
    packed[2 * key] = (exposed.index << 2) | resolved(endpoint.mission, missionImpacts, 'Mission and well-being', unknownAs).index;
    packed[2 * key + 1] = Number.isFinite(exposed.since) ? exposed.since : noDay;
  });
  return packed;
}

/** The packed values as a pending change kept them (bytes of an Int32Array). */
const unpackEndpointValues = (bytes: Uint8Array) => new Int32Array(bytes.slice().buffer);

/**
 * Fix-by dates (issue 37; the rules are contracts/fix-by.ts): each finding's BOD 26-04 outcome,
 * Coordinator decision and fix-by date, computed for every finding of an organization at once
 * from its inputs (fix-by-inputs.ts) and kept per version of what they are read from and the
 * settings: a tag or a criticality written changes them at the next read. The path of one
 * finding is built from the same inputs when its item is read.
 */
export class FixByFigures {
  readonly settings: FixBySettingsRecords;
  /** What each change of context or settings did to the findings' outcomes and dates. */
  readonly changes: FixByChanges;
  /** Per organization and settings. Bound: 4 (a few MB of strings for 20,000 endpoints and the CVEs). */
  private readonly inputCache: DerivedCache<FixByInputs>;
  /** Per organization and settings. Bound: 4 (18 MB for a million findings). */
  private readonly columnCache: DerivedCache<FixByColumns>;
  /** Per filter, value and inventory. Bound: 4M seqs in all. */
  private readonly filtered: DerivedCache<Int32Array>;
  /** Per organization, settings, excepted findings and minute. Bound: 16 (a few numbers each). */
  private readonly countCache: DerivedCache<FixByCounts>;
  /** The last recording of each organization's writes under way (see {@link recording}). */
  private readonly recordings = new Map<number, Promise<void>>();
  /** The pending changes this process is recording: never completed at a start's pace. */
  private readonly inFlight = new Set<number>();

  constructor(
    private readonly db: Database,
    private readonly versions: ChangeVersions,
    private readonly intel: FindingIntel,
    private readonly timelines: FindingTimelines,
    private readonly context: EndpointContextSource,
    now: () => number,
    /** How the settings write (their kind: `deadline-policies`). */
    write: RecordWrite,
    /** How the change feed writes (a change kept pending, then its comparison): held until a durable write logs it. */
    held: RecordWrite,
  ) {
    this.settings = new FixBySettingsRecords(db, now, write);
    this.changes = new FixByChanges(db, now, held);
    this.inputCache = new DerivedCache(versions, fixByInputValues, { bound: { entries: 4 } });
    this.columnCache = new DerivedCache(versions, fixByColumns, { bound: { entries: 4 } });
    this.filtered = new DerivedCache(versions, fixByFilteredFindings, { bound: { weight: 4_000_000, weigh: (seqs) => seqs.length } });
    this.countCache = new DerivedCache(versions, fixByDueCounts, { bound: { entries: 16 } });
  }

  /** The version of what the dates are read from, which a value kept under the inventory's version alone names in its key. */
  version(): number {
    return this.versions.version(fixByColumns);
  }

  /**
   * Runs `change` (a write of endpoint context or fix-by settings) and answers when it is
   * written; what it did to the organization's open findings is recorded in the change feed
   * after it, with `cause`, when it changed any (the what-if made visible). The write itself
   * pays little when the dates were read since the last write (the warm-up, a list, the
   * previous recording): their columns are kept and are the "before". Before the change, a
   * write (logged with the change's) keeps the change pending with what the "before" was computed from (each
   * endpoint's exposure and mission: a few bytes an endpoint): a shutdown before the comparison
   * leaves it for {@link completePending} at the next start. The "after" and the comparison run
   * in time slices once the write answered, one recording of the organization after another, in
   * the order of their writes; {@link recorded} waits for them.
   */
  async recording<T>(orgRowId: number, cause: string, change: () => Promise<T> | T): Promise<T> {
    // A turn between the request's reading (a CSV file of 1,000 lines parsed) and the pending
    // record's durable write: in one turn they held the thread 166 ms (large, load 4, profiled).
    await nextTurn();
    await this.completePending(orgRowId);
    const before = await this.columns(orgRowId);
    const pending = this.changes.pend(orgRowId, cause, before.unknownAs, before.timeline.columns.count, before.endpointValues);
    this.inFlight.add(pending);
    let result: T;
    try {
      // A turn between the pending record and the change's own writes: with the request's
      // reading and the "after" below, chained in one turn, they held the thread 270 ms when
      // 1,000 endpoints were tagged (medium, loaded machine; /health 130 ms on large, quiet).
      await nextTurn();
      result = await change();
    } catch (error) {
      // A refused change wrote nothing: nothing to record.
      this.changes.complete(pending, undefined);
      this.inFlight.delete(pending);
      throw error;
    }
    // A recording that fails (the store closed under it) leaves its change pending for the next
    // start, never loses the write; the next recording goes on.
    const previous = this.recordings.get(orgRowId)?.catch(() => undefined) ?? Promise.resolve();
    // The "after" starts a turn after the write that answered, not in the write's turn.
    const recording = previous.then(nextTurn).then(() => this.record(orgRowId, pending, before));
    this.recordings.set(orgRowId, recording);
    void recording
      .catch(() => undefined)
      .finally(() => {
        this.inFlight.delete(pending);
        if (this.recordings.get(orgRowId) === recording) this.recordings.delete(orgRowId);
      });
    return result;
  }

  /** Waits until the changes written so far to the organization's context or settings are in its feed (or failed to be). */
  async recorded(orgRowId: number): Promise<void> {
    await this.recordings.get(orgRowId)?.catch(() => undefined);
  }

  /**
   * Records what a write did: the columns now against `before`. A sync that swapped the
   * findings meanwhile leaves it unrecorded (the two readings would be of other findings); a
   * write that came meanwhile is counted with this one.
   */
  private async record(orgRowId: number, pending: number, before: FixByColumns): Promise<void> {
    const after = await this.columns(orgRowId);
    // Kept columns answer at once, computed ones end a slice: either way the comparison's slices start a turn later.
    await nextTurn();
    const same = after.timeline.columns === before.timeline.columns;
    this.changes.complete(pending, same ? await fixByDifference(before, after, new TimeSlices(() => undefined)) : undefined);
  }

  /**
   * Compares and records the organization's changes left pending by a shutdown (none of this
   * process's recordings): the columns now against those computed from what the pending record
   * kept. The findings are those of the change when their count is (no sync ran between a
   * change and a shutdown that cut its comparison); otherwise it is left unrecorded, as a sync
   * meanwhile leaves a live recording. The server's warm-up calls it at start, and a recording
   * before its "before".
   */
  async completePending(orgRowId: number): Promise<void> {
    for (const row of this.changes.pendingOf(orgRowId)) {
      if (this.inFlight.has(row.id)) continue;
      const after = await this.columns(orgRowId);
      const slices = new TimeSlices(() => undefined);
      const comparable = after.timeline.columns.count === row.findings && after.endpointValues.byteLength === row.endpointValues.byteLength;
      const before = comparable ? await this.computeColumns(orgRowId, row.unknownAs, () => unpackEndpointValues(row.endpointValues), slices) : undefined;
      this.changes.complete(row.id, before && (await fixByDifference(before, after, slices)));
    }
  }

  /** The organization's inputs under its settings now. */
  inputs(orgRowId: number): Promise<FixByInputs> {
    const settings = this.settings.get(orgRowId);
    return this.inputCache.settled(`${orgRowId}|${settings.key}`, async (checkpoint) => {
      const intel = await this.intel.cveIntel();
      const timeline = await this.timelines.of(orgRowId);
      const context = await this.context(orgRowId);
      checkpoint();
      return readFixByInputs(this.db, intel, timeline.columns.endpoints, context, settings.settings, new TimeSlices(checkpoint));
    });
  }

  /** Every finding's outcome, decision and date, computed once per version and settings. */
  columns(orgRowId: number): Promise<FixByColumns> {
    const settings = this.settings.get(orgRowId);
    const unknownAs = settings.settings.unknown_as;
    return this.columnCache.settled(`${orgRowId}|${settings.key}`, (checkpoint) =>
      this.computeColumns(orgRowId, unknownAs, (inputs) => packEndpointValues(inputs, unknownAs), new TimeSlices(checkpoint)),
    );
  }

  /**
   * Every finding's columns from the organization's inputs now, with each endpoint's resolved
   * exposure and mission as `endpointValuesOf` gives them (from the inputs, or as a pending
   * change kept them) and CVE inputs resolved with `unknownAs`.
   */
  private async computeColumns(orgRowId: number, unknownAs: UnknownAs, endpointValuesOf: (inputs: FixByInputs) => Int32Array, slices: TimeSlices): Promise<FixByColumns> {
    const inputs = await this.inputs(orgRowId);
    const timeline = await this.timelines.of(orgRowId);
    const { first, refs } = await this.intel.findingCvesOf(shownInventory(this.db, orgRowId));
    await slices.pause();
    const { columns, firstDetectedMs } = timeline;
    // The outcome of every combination of values by index, and the decision: 16 and 36 entries.
    const outcomes = new Uint8Array(16);
    for (let code = 0; code < 16; code++) {
      outcomes[code] = bod2604Outcomes.indexOf(bod2604OutcomeOf(yesNo[code >> 3]!, yesNo[(code >> 2) & 1]!, yesNo[(code >> 1) & 1]!, technicalImpacts[code & 1]!));
    }
    const decisions = new Uint8Array(36);
    for (let code = 0; code < 36; code++) {
      decisions[code] = ssvcDecisions.indexOf(coordinatorDecisionOf(exploitations[Math.floor(code / 12)]!, yesNo[Math.floor(code / 6) % 2]!, technicalImpacts[Math.floor(code / 3) % 2]!, missionImpacts[code % 3]!));
    }
    const outcomeDays = bod2604Outcomes.map((outcome) => bod2604OutcomeDays[outcome] ?? Number.NaN);
    const cveValues = inputs.cves.map(
      (cve) =>
        cve && {
          listedSince: cve.listed ? dayOf(cve.listed.since) : undefined,
          kevDueDay: cve.kevDueDate === null ? Number.NaN : dayOf(cve.kevDueDate),
          automatable: resolved(cve.automatable, yesNo, 'Automatable', unknownAs),
          impact: resolved(cve.technicalImpact, technicalImpacts, 'Technical impact', unknownAs),
          exploitation: resolved(cve.exploitation, exploitations, 'Exploitation', unknownAs).index,
        },
    );
    const endpointValues = endpointValuesOf(inputs);
    const count = columns.count;
    const outcome = new Uint8Array(count);
    const decision = new Uint8Array(count);
    const fixByDay = new Float64Array(count);
    const kevDueDay = new Float64Array(count);
    const endpointFixByDay = new Float64Array(columns.endpoints.id.length).fill(Number.NaN);
    for (let i = 0; i < count; i++) {
      if (i % findingsBetweenLooks === 0) await slices.pause();
      const cve = cveValues[refs[columns.seq[i]! - first]!]!;
      const key = columns.endpoint[i]!;
      // The finding's endpoint's values: the last pair holds those of a finding that names none.
      const at = 2 * (key < 0 ? inputs.endpoints.length : key);
      const exposedAndMission = endpointValues[at]!;
      const exposedSince = endpointValues[at + 1] === noDay ? Number.NEGATIVE_INFINITY : endpointValues[at + 1]!;
      const kev = cve.listedSince !== undefined ? 1 : columns.kev[i]!;
      const kevSince = cve.listedSince ?? Number.NEGATIVE_INFINITY;
      outcome[i] = outcomes[(kev << 3) | ((exposedAndMission >> 2) << 2) | (cve.automatable.index << 1) | cve.impact.index]!;
      decision[i] = decisions[cve.exploitation * 12 + cve.automatable.index * 6 + cve.impact.index * 3 + (exposedAndMission & 3)]!;
      const entered = Math.max(Math.floor(firstDetectedMs[i]! / dayMs), kevSince, exposedSince, cve.automatable.since, cve.impact.since);
      fixByDay[i] = entered + outcomeDays[outcome[i]!]!;
      kevDueDay[i] = cve.kevDueDay;
      const day = fixByDay[i]!;
      // An endpoint's day starts NaN, which no comparison holds: its first dated open finding sets it.
      if (key >= 0 && columns.status[i] === open && !Number.isNaN(day) && !(day >= endpointFixByDay[key]!)) endpointFixByDay[key] = day;
    }
    return { timeline, outcome, decision, fixByDay, kevDueDay, endpointFixByDay, unknownAs, endpointValues };
  }

  /**
   * The console's fix-by members of findings of the organization, as JSON without braces
   * (`"bod2604_outcome":…,"fix_by_path":[…]`), from each row's facts and the inputs: null and an
   * empty path for a finding that is not open. Call it, then use the function without awaiting.
   */
  async findingMembers(orgRowId: number): Promise<(row: FixByRow & { status: string }) => string> {
    const inputs = await this.inputs(orgRowId);
    const { unknown_as: unknownAs } = this.settings.get(orgRowId).settings;
    return (row) => {
      if (row.status !== 'open') return '"bod2604_outcome":null,"ssvc_decision":null,"fix_by":null,"fix_by_path":[]';
      return JSON.stringify(fixByOf(factsOf(inputs, row), unknownAs)).slice(1, -1);
    };
  }

  /**
   * Each finding's fix-by day and CISA KEV due date from its row's facts, open or not, as the
   * deadlines of the `bod-26-04` and `kev-due-date` policies read them (YYYY-MM-DD, null for none).
   * Call it, then use the function without awaiting anything in between.
   */
  async findingDates(orgRowId: number): Promise<(row: FixByRow) => { fixBy: string | null; kevDue: string | null }> {
    const inputs = await this.inputs(orgRowId);
    const { unknown_as: unknownAs } = this.settings.get(orgRowId).settings;
    return (row) => ({
      fixBy: fixByOf(factsOf(inputs, row), unknownAs).fix_by,
      kevDue: inputs.cves[inputs.refOf.get(row.cve_id.toUpperCase()) ?? -1]?.kevDueDate ?? null,
    });
  }

  /** The open findings of the inventory `shown` a fix-by filter keeps, ascending by seq, named by the filter, the settings and the inputs' version. */
  filterRows(shown: ShownInventory, filter: FixByFilter, value: unknown): ListSearch {
    const given: FixByFilterValues = { [filter]: String(value) };
    return this.keptRows(shown, `${filtersKey(given)}`, async (slices) => {
      const columns = await this.columns(shown.orgRowId);
      const keeps = keptByFixByFilters(columns, given);
      const { count, seq } = columns.timeline.columns;
      const kept = new Int32Array(count);
      let found = 0;
      for (let i = 0; i < count; i++) {
        if (i % findingsBetweenLooks === 0) await slices.pause();
        if (keeps(i)) kept[found++] = seq[i]!;
      }
      return kept.slice(0, found);
    });
  }

  /** The endpoints of the inventory `shown` with an open finding that every one of `given` keeps, ascending by their seq. */
  endpointRows(shown: ShownInventory, given: FixByFilterValues): ListSearch {
    return this.keptRows(shown, `endpoints:${filtersKey(given)}`, async (slices) => {
      const columns = await this.columns(shown.orgRowId);
      const keeps = keptByFixByFilters(columns, given);
      const { count, endpoint, endpoints } = columns.timeline.columns;
      const ids = new Set<string>();
      for (let i = 0; i < count; i++) {
        if (i % findingsBetweenLooks === 0) await slices.pause();
        if (endpoint[i]! >= 0 && keeps(i)) ids.add(endpoints.id[endpoint[i]!]!);
      }
      const seqs = this.db.column('SELECT seq FROM endpoints WHERE org_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY seq', [shown.inventoryId, JSON.stringify([...ids])]);
      return Int32Array.from(seqs as number[]);
    });
  }

  /** Rows of the inventory `shown` that `keep` reads from the fix-by columns in time slices, kept under `name`, the inputs' version and the settings. */
  private keptRows(shown: ShownInventory, name: string, keep: (slices: TimeSlices) => Promise<Int32Array>): ListSearch {
    const settings = this.settings.get(shown.orgRowId);
    const key = `${name}@fixby${this.version()}|${settings.key}`;
    return {
      key,
      rows: () =>
        this.filtered.settled(`${shown.inventoryId}|${key}`, async (checkpoint) => {
          checkStillShown(this.db, shown);
          return keep(new TimeSlices(checkpoint));
        }),
    };
  }

  /**
   * The endpoints' sort by the earliest fix-by date of their open findings, each endpoint found by
   * its seq through `keyOfSeq` (its key in the coverage columns); those without a date last in both directions.
   */
  endpointSort(shown: ShownInventory, descending: boolean, keyOfSeq: () => Promise<{ columns: CoverageColumns; keyOf: (seq: number) => number }>): FigureSort {
    const settings = this.settings.get(shown.orgRowId);
    return {
      key: `endpoint fix_by@${this.version()}|${settings.key}|${descending ? 'desc' : 'asc'}`,
      lookup: async () => {
        const { timeline, endpointFixByDay } = await this.columns(shown.orgRowId);
        const { columns, keyOf } = await keyOfSeq();
        // Keys of other columns than the dates' would name other endpoints: asked again.
        if (columns !== timeline.columns) throw new VersionMoved();
        const none = descending ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
        return (seq: number): SqlValue => {
          const day = endpointFixByDay[keyOf(seq)] ?? Number.NaN;
          return Number.isNaN(day) ? none : day;
        };
      },
    };
  }

  /** Each endpoint's fix-by members by its key in the coverage columns (`"fix_by":"2026-12-04"`), as JSON without braces, and the columns they are of. */
  async endpointMembers(orgRowId: number): Promise<{ columns: CoverageColumns; members: (key: number) => string }> {
    const { timeline, endpointFixByDay } = await this.columns(orgRowId);
    return {
      columns: timeline.columns,
      members: (key) => {
        const day = endpointFixByDay[key] ?? Number.NaN;
        return `"fix_by":${JSON.stringify(dateOfDay(day))}`;
      },
    };
  }

  /** The findings' sort by fix-by date: an open finding's day by its seq, the others (and fix on system upgrade) after every date in both directions. */
  sort(shown: ShownInventory, descending: boolean): FigureSort {
    const settings = this.settings.get(shown.orgRowId);
    return {
      key: `fix_by@${this.version()}|${settings.key}|${descending ? 'desc' : 'asc'}`,
      lookup: async () => {
        const { timeline, fixByDay } = await this.columns(shown.orgRowId);
        const { indexBySeq, firstSeq, columns } = timeline;
        const none = descending ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
        return (seq: number): SqlValue => {
          const index = indexBySeq[seq - firstSeq] ?? -1;
          if (index < 0) return null;
          const day = fixByDay[index]!;
          return columns.status[index] !== open || Number.isNaN(day) ? none : day;
        };
      },
    };
  }

  /**
   * The open findings' due-date counts at `asOf` (a minute): overdue, due within each window
   * (not yet past), and those that can wait for an upgrade; `excepted` findings left out. Kept
   * per minute, settings and excepted findings, and counted in time slices: a million findings
   * counted in one turn held the thread that answers for 166 ms (large, quiet machine).
   */
  counts(orgRowId: number, asOf: number, excepted: ExceptedFindings = noExceptedFindings): Promise<FixByCounts> {
    const settings = this.settings.get(orgRowId);
    return this.countCache.settled(`${orgRowId}|${settings.key}|${excepted.key}|${asOf}`, async (checkpoint) => {
      const { timeline, fixByDay } = await this.columns(orgRowId);
      checkpoint();
      const slices = new TimeSlices(checkpoint);
      const { count, status } = timeline.columns;
      const { byColumn } = excepted;
      const counts: FixByCounts = { open: 0, overdue: 0, dueWithin: { 3: 0, 14: 0, 60: 0 }, onUpgrade: 0 };
      for (let i = 0; i < count; i++) {
        if (i % findingsBetweenLooks === 0) await slices.pause();
        if (status[i] !== open || byColumn[i] === 1) continue;
        counts.open++;
        const day = fixByDay[i]!;
        if (Number.isNaN(day)) {
          counts.onUpgrade++;
          continue;
        }
        const dueMs = (day + 1) * dayMs;
        if (asOf > dueMs) counts.overdue++;
        else for (const window of dueWindows) if (dueMs <= asOf + window * dayMs) counts.dueWithin[window]++;
      }
      return counts;
    });
  }
}

/** A finding's facts for fixByOf from the organization's inputs and the row. */
function factsOf(inputs: FixByInputs, row: FixByRow): FixByFacts {
  const cve = inputs.cves[inputs.refOf.get(row.cve_id.toUpperCase()) ?? -1];
  const key = row.endpoint_id === null ? undefined : inputs.endpointKey.get(row.endpoint_id.toLowerCase());
  const endpoint = key === undefined ? inputs.noEndpoint : inputs.endpoints[key]!;
  const unknown = { value: undefined, source: 'no Vulnrichment record', since: null };
  return {
    inKev: cve?.listed ?? (row.is_kev === 1 ? inputs.notListed.yes : inputs.notListed.no),
    exposed: endpoint.exposed,
    automatable: cve?.automatable ?? unknown,
    technicalImpact: cve?.technicalImpact ?? unknown,
    exploitation: cve?.exploitation ?? unknown,
    mission: endpoint.mission,
    firstDetectedAt: row.first_detected_at,
  };
}
