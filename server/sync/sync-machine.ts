import type { SyncMode } from '../../contracts/enums.js';

/**
 * The states of one sync (docs/sync.md, "The sync's states"): choosing its mode, running one of
 * the three modes, checking the remote's totals after a mode applied its changes, and its two ends.
 */
export type SyncMachineState = 'choosing' | SyncMode | 'counting' | 'done' | 'failed';

/** What ends a state's work, and so chooses the next state ({@link syncTransitions}). */
export type SyncEvent =
  /** The first sync, a full one asked for, or a remote that ignores `updatedSince`. */
  | 'full-due'
  /** A reconcile asked for, or due by the replica's interval or after `fullSyncEvery` incremental syncs. */
  | 'reconcile-due'
  | 'incremental-due'
  /** An incremental sync found the replica holding more rows than the remote's totals: its merge rolled back. */
  | 'deletions-found'
  /** More changes or differences than a sync keeps in memory (`incrementalMaxItems`). */
  | 'too-many-changes'
  /** The mode wrote its changes, or its record alone, with its success. */
  | 'applied'
  /** After an incremental sync the remote's totals differ from the replica's beyond the baseline. */
  | 'counts-differ'
  /** The totals matched, were taken as the baseline (after a reconcile or full sync), or could not be asked. */
  | 'counts-checked'
  /** A step threw: the remote failed, a bound was passed, the sync was interrupted or the organization removed. */
  | 'failed';

/**
 * Every transition of a sync, and the only ones: from each state, the state each event leads
 * to. The driver (sync-organization.ts) runs a state's work, which answers an event, and moves
 * to the state this table gives; `done` and `failed` end the sync. The only cycle,
 * counting → reconcile → counting, runs once: a count check after a reconcile takes the
 * differences it sees as its baseline, so it never answers `counts-differ`.
 */
export const syncTransitions = {
  choosing: { 'full-due': 'full', 'reconcile-due': 'reconcile', 'incremental-due': 'incremental', failed: 'failed' },
  incremental: { applied: 'counting', 'deletions-found': 'reconcile', 'too-many-changes': 'full', failed: 'failed' },
  reconcile: { applied: 'counting', 'too-many-changes': 'full', failed: 'failed' },
  full: { applied: 'counting', failed: 'failed' },
  counting: { 'counts-checked': 'done', 'counts-differ': 'reconcile', failed: 'failed' },
  done: {},
  failed: {},
} as const satisfies Record<SyncMachineState, Partial<Record<SyncEvent, SyncMachineState>>>;

/** The states in which the sync still works. */
export type RunningState = Exclude<SyncMachineState, 'done' | 'failed'>;

/** The events that may end the work of state `S`. */
export type EventFrom<S extends SyncMachineState> = keyof (typeof syncTransitions)[S] & SyncEvent;

/** One transition taken, as {@link SyncOptions.onTransition} is told it. */
export interface SyncTransition {
  from: RunningState;
  event: SyncEvent;
  to: SyncMachineState;
}

/** The state `event` leads to from `state`; throws for an event the table does not list there (a bug, not a remote's doing). */
export function nextSyncState(state: RunningState, event: SyncEvent): SyncMachineState {
  const next = (syncTransitions[state] as Partial<Record<SyncEvent, SyncMachineState>>)[event];
  if (next === undefined) throw new Error(`The sync has no transition from ${state} on ${event}`);
  return next;
}
