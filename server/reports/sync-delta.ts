/**
 * A report's delta between two syncs of its organization (issue 40 item 4, "or any two syncs"):
 * read from the findings each recorded sync opened and closed (sync_finding_changes), kept whole
 * with its record, and from the findings the replica holds now. The state of a finding at a sync
 * is its state now, undone by the first move it made after that sync: a finding whose first move
 * after B closed it was open at B; one whose first move after B opened it was not.
 */
import type { FindingMove } from '../store/basics/change-tally.js';
import type { Store } from '../store/store.js';
import { type SectionFindings, idsBetweenLooks, marks, reportSlices } from './report-findings.js';

/** Two syncs a delta cannot be taken between; the message says why. */
export class SyncDeltaError extends Error {}

/** A recorded sync: its record's id and when it finished. */
export interface RecordedSync {
  id: number;
  finishedAt: string;
}

/** The two syncs of a delta, and every sync recorded after the first, oldest first, whose moves it reads. */
export interface SyncSpan {
  from: RecordedSync;
  until: RecordedSync;
  after: readonly RecordedSync[];
}

/**
 * The span between two recorded syncs of the organization, checked before a report is made.
 * @throws SyncDeltaError for a sync not recorded (never, or deleted as older than the kept ones),
 *   the first not older than the second, or a sync after the first that did not keep its findings
 */
export function syncSpan(store: Store, orgRowId: number, [fromId, untilId]: readonly [number, number]): SyncSpan {
  if (fromId >= untilId) throw new SyncDeltaError(`The first sync (${fromId}) must be older than the second (${untilId})`);
  const from = store.syncChanges.get(orgRowId, fromId);
  if (!from) throw new SyncDeltaError(`Sync ${fromId} is not among the organization's recorded syncs`);
  const after = store.syncChanges.recordedAfter(orgRowId, fromId);
  const until = after.find((sync) => sync.id === untilId);
  if (!until) throw new SyncDeltaError(`Sync ${untilId} is not among the organization's recorded syncs`);
  const unkept = after.find((sync) => !sync.findingsKept);
  if (unkept) {
    throw new SyncDeltaError(
      `Sync ${unkept.id} (finished ${unkept.finishedAt}) did not keep the findings it changed (recorded by an older version, or too many): ` +
        `no delta is taken from sync ${fromId}; choose a first sync from ${unkept.id} on`,
    );
  }
  return { from: { id: from.id, finishedAt: from.finishedAt }, until, after };
}

/** The instant a sync's state is read at: when it finished, down to the minute, as the report's figures are. */
export function syncInstant(sync: RecordedSync): number {
  return Math.floor(Date.parse(sync.finishedAt) / 60_000) * 60_000;
}

/** The findings open now under the filter, with their overdue ones at the two syncs' instants (indexes in `open`). */
export interface SyncDeltaInput {
  now: SectionFindings;
  overdueAtFrom: Int32Array;
  overdueAtUntil: Int32Array;
  /** Of ids not open now under the filter, those the filter takes (in any status); gone from the replica, only an empty filter takes them. */
  matching: (ids: string[]) => Promise<Set<string>>;
}

/** The ids of each list of a delta, in the order of the moves, then of the open list. */
export interface SyncDeltaIds {
  fixed: string[];
  appeared: string[];
  newlyKev: string[];
  newlyOverdue: string[];
}

/**
 * What changed between the span's two syncs, under the filter: fixed (open at the first, not at
 * the second), appeared (the reverse), newly KEV (open and KEV now and at the second, and not open
 * or not KEV at the first) and newly overdue (open now and at the second and overdue at its
 * instant, and not open or not overdue at the first's). KEV and overdue are read from the
 * findings as the replica holds them now, so a finding closed since the second sync is in
 * neither; with the newest sync as the second, every list is exact.
 */
export async function syncDeltaIds(store: Store, span: SyncSpan, input: SyncDeltaInput): Promise<SyncDeltaIds> {
  const slices = reportSlices();
  const firstBetween = new Map<string, FindingMove>();
  const lastBetween = new Map<string, FindingMove>();
  const firstAfter = new Map<string, FindingMove>();
  const becameKev = new Set<string>();
  const becameKevAfter = new Set<string>();
  for (const sync of span.after) {
    const between = sync.id <= span.until.id;
    const moves = store.syncChanges.moves(sync.id);
    for (const move of ['o', 'c'] as const) {
      for (const id of moves[move]) {
        if (!between) {
          if (!firstAfter.has(id)) firstAfter.set(id, move);
        } else {
          if (!firstBetween.has(id)) firstBetween.set(id, move);
          lastBetween.set(id, move);
        }
      }
    }
    for (const id of moves.k) (between ? becameKev : becameKevAfter).add(id);
    await slices.pause();
  }
  const { now } = input;
  // Open now under the filter, among the findings moved since the first sync.
  const openNow = new Set<string>();
  for (let i = 0; i < now.open.length; i++) {
    const id = now.open[i]!;
    if (firstBetween.has(id) || firstAfter.has(id)) openNow.add(id);
    if (i % idsBetweenLooks === 0) await slices.pause();
  }
  const notOpenNow: string[] = [];
  let looked = 0;
  for (const [moved, also] of [[firstBetween, undefined], [firstAfter, firstBetween]] as const) {
    for (const id of moved.keys()) {
      if (!openNow.has(id) && !also?.has(id)) notOpenNow.push(id);
      if (++looked % idsBetweenLooks === 0) await slices.pause();
    }
  }
  const matched = await input.matching(notOpenNow);
  const takes = (id: string) => openNow.has(id) || matched.has(id);
  /** Whether a finding open now under the filter was open at the second sync: unless its first move after it opened it. */
  const openAtUntil = (id: string) => firstAfter.get(id) !== 'o';
  /** Whether a finding open at the second sync was open at the first: unless its first move between them opened it. */
  const openAtFrom = (id: string) => firstBetween.get(id) !== 'o';

  const fixed: string[] = [];
  const appeared: string[] = [];
  looked = 0;
  for (const [id, first] of firstBetween) {
    if (first === lastBetween.get(id) && takes(id)) (first === 'c' ? fixed : appeared).push(id);
    if (++looked % idsBetweenLooks === 0) await slices.pause();
  }
  /** Today's open findings at `at` (indexes in `now.open`) that `isNew` keeps, pausing as it goes. */
  const newlyAmong = async (at: Int32Array, isNew: (id: string, index: number) => boolean) => {
    const ids: string[] = [];
    for (let i = 0; i < at.length; i++) {
      const id = now.open[at[i]!]!;
      if (openAtUntil(id) && isNew(id, at[i]!)) ids.push(id);
      if (i % idsBetweenLooks === 0) await slices.pause();
    }
    return ids;
  };
  const overdueThen = marks(now.open.length, input.overdueAtFrom);
  return {
    fixed,
    appeared,
    newlyKev: await newlyAmong(now.kevAt, (id) => !becameKevAfter.has(id) && (!openAtFrom(id) || becameKev.has(id))),
    newlyOverdue: await newlyAmong(input.overdueAtUntil, (id, index) => !(openAtFrom(id) && overdueThen[index] === 1)),
  };
}
