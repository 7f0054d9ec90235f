import { z } from 'zod';
import { countSchema, dateTimeSchema } from '../common.js';
import { syncModes, syncPhases } from '../enums.js';
import { syncChangesSummarySchema } from './sync-changes.js';

/** Items a sync stored per collection (named as in the registry). */
export const syncCountsSchema = z
  .object({ endpoints: countSchema, remediationTargets: countSchema, scopes: countSchema, findings: countSchema })
  .meta({ id: 'SyncCounts' });
export type SyncCounts = z.infer<typeof syncCountsSchema>;

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

/** `POST /app/orgs/:slug/sync`: `full=true` asks for a full sync even when an incremental one would do. */
export const syncRequestQuerySchema = z.object({
  full: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true')
    .meta({ type: 'boolean', description: 'A full sync even when an incremental one would do.' }),
});

/** `POST /app/orgs/:slug/sync` answer (202): whether the sync was already running, and the status now. */
export const syncStartedSchema = z
  .object({ alreadyRunning: z.boolean(), status: syncStatusSchema })
  .meta({ id: 'SyncStarted' });
