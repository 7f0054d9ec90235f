import * as z from 'zod';
import { countSchema, dateTimeSchema } from '../common.js';
import { syncModes, syncPhases } from '../enums.js';
import { syncChangesSummarySchema } from './sync-changes.js';
import { type SyncCountCheckId, maxReconcileIntervalHours, syncCountChecks } from './sync-basics.js';

/** Items a sync stored per collection (named as in the registry). */
export const syncCountsSchema = z
  .object({ endpoints: countSchema, remediationTargets: countSchema, scopes: countSchema, findings: countSchema })
  .meta({ id: 'SyncCounts' });
export type SyncCounts = z.infer<typeof syncCountsSchema>;

/** A total that differs between the remote and the replica. */
export const syncCountDifferenceSchema = z
  .object({
    check: z.enum(syncCountChecks.map((check) => check.id) as [SyncCountCheckId, ...SyncCountCheckId[]]),
    remote: countSchema,
    replica: countSchema,
  })
  .meta({ id: 'SyncCountDifference' });
export type SyncCountDifference = z.infer<typeof syncCountDifferenceSchema>;

/** The sync settings of a replica (`PUT /app/orgs/:slug/sync/settings`); unknown keys are refused. */
export const syncSettingsSchema = z
  .strictObject({
    reconcileIntervalHours: z
      .number({ error: 'must be a number of hours' })
      .int({ error: 'must be a whole number of hours' })
      .min(1, { error: 'must be at least 1 hour' })
      .max(maxReconcileIntervalHours, { error: `must be at most ${maxReconcileIntervalHours} hours (30 days)` })
      .meta({ description: 'How often the replica is reconciled with its remote, in hours (default 24).', example: 24 }),
  })
  .meta({ id: 'SyncSettings' });
export type SyncSettings = z.infer<typeof syncSettingsSchema>;

/** `PUT /app/orgs/:slug/sync/paused`: pauses or resumes a replica's background syncs; unknown keys are refused. */
export const syncPausedSchema = z
  .strictObject({
    paused: z
      .boolean({ error: 'must be true or false' })
      .meta({ description: 'true pauses the background syncs (a running one is interrupted); false resumes them.', example: true }),
  })
  .meta({ id: 'SyncPaused' });
export type SyncPaused = z.infer<typeof syncPausedSchema>;

/** What the store remembers of a replica's syncs. */
export const syncStateSchema = z
  .object({
    lastAttemptAt: dateTimeSchema.nullable(),
    lastAttemptMode: z.enum(syncModes).nullable(),
    lastSuccessAt: dateTimeSchema.nullable(),
    /** When the last successful sync started: the base of the next incremental one. */
    lastSuccessStartedAt: dateTimeSchema.nullable(),
    lastSuccessMode: z.enum(syncModes).nullable(),
    incrementalsSinceFull: countSchema,
    /** Whether the remote filtered by `updatedSince` when last asked; null before the first sync. */
    remoteHonoursUpdatedSince: z.boolean().nullable(),
    /** Why the last attempt failed; null when it succeeded. */
    lastError: z.string().nullable(),
    /** Items received (after validation) by the last successful sync. */
    counts: syncCountsSchema.nullable(),
    /** Invalid items the last successful sync skipped, and the first of their ids. */
    skippedCount: countSchema,
    skippedIds: z.array(z.string()),
    /** How often the replica is reconciled with its remote, in hours (its setting). */
    reconcileIntervalHours: syncSettingsSchema.shape.reconcileIntervalHours,
    /** When the last reconcile (or full sync, which replaces the whole replica) ended; null before any. */
    lastReconciledAt: dateTimeSchema.nullable(),
    /** Items the last reconcile changed: 0 when it found the replica equal to its remote; null before any (or after a full sync). */
    lastReconcileChanged: countSchema.nullable(),
    /**
     * When the replica last matched its remote: the end of the last reconcile or full sync (which
     * found it equal or made it so), or a later count check whose totals matched; null before any.
     */
    lastMatchedAt: dateTimeSchema.nullable(),
    /** The totals that differed at the last count check, until a reconcile settles them; empty when they matched. */
    countDifferences: z.array(syncCountDifferenceSchema),
    /** Whether its owner paused its syncs: none runs in the background, at start or on the interval, until they are resumed; Sync now still runs one. */
    paused: z.boolean(),
  })
  .meta({ id: 'SyncState' });
export type SyncState = z.infer<typeof syncStateSchema>;

/** Where a running sync is: checking the remote, fetching a collection, or writing the replica. */
export const syncProgressSchema = z
  .object({
    org: z.string(),
    mode: z.enum(syncModes).optional(),
    phase: z.enum(syncPhases),
    collection: syncCountsSchema.keyof().optional(),
    /** Items of the collection received so far, and the remote's total of it. */
    fetched: countSchema,
    total: countSchema,
  })
  .meta({ id: 'SyncProgress' });
export type SyncProgress = z.infer<typeof syncProgressSchema>;

/** A replica's sync as `GET /app/sync` and `GET /app/orgs/:slug/sync` answer it. */
export const syncStatusSchema = z
  .object({
    org: z.string(),
    running: z.boolean(),
    /** Where the running sync is; null when none runs. */
    progress: syncProgressSchema.nullable(),
    state: syncStateSchema,
    /** The newest recorded changes (a sync that changed nothing records none); null before any. */
    latestChanges: syncChangesSummarySchema.nullable(),
  })
  .meta({ id: 'SyncStatus' });
export type SyncStatus = z.infer<typeof syncStatusSchema>;

/** `GET /app/sync`: every replica's sync. */
export const syncOverviewSchema = z.object({ data: z.array(syncStatusSchema) }).meta({ id: 'SyncOverview' });

const flag = (description: string) =>
  z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true')
    .meta({ type: 'boolean', description });

/**
 * `POST /app/orgs/:slug/sync`: `full=true` asks for a full sync even when an incremental one
 * would do; `reconcile=true` for a reconcile (not both).
 */
export const syncRequestQuerySchema = z
  .object({
    full: flag('A full sync even when an incremental one would do.'),
    reconcile: flag('A reconcile: the whole remote compared with the replica item by item, only the differences written.'),
  })
  .refine((query) => !(query.full && query.reconcile), { error: 'full and reconcile cannot both be true', path: ['reconcile'] });

/** `POST /app/orgs/:slug/sync` answer (202): whether the sync was already running, and the status now. */
export const syncStartedSchema = z
  .object({ alreadyRunning: z.boolean(), status: syncStatusSchema })
  .meta({ id: 'SyncStarted' });
