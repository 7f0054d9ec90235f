/**
 * What each sync of a replica changed (`/app/orgs/:slug/sync-changes`): per collection the items
 * it created, updated and removed, and the findings that became open critical or KEV and those
 * remediated. Only a sync that changed something is recorded, in the transaction that applied
 * it; the last {@link syncChangesKept} are kept per replica.
 */
import * as z from 'zod';
import { countSchema, dateTimeSchema } from '../common.js';
import { findingSeverities, syncModes } from '../enums.js';
import { syncChangeFindingsListed, syncChangesKept, syncFindingMovesKept } from './sync-change-bounds.js';

/** A finding a sync's changes name, as it was after that sync. */
export const syncChangeFindingSchema = z
  .object({
    id: z.string(),
    cve_id: z.string(),
    severity: z.enum(findingSeverities),
    is_kev: z.boolean(),
    endpoint_id: z.string().nullable(),
    /** The endpoint's hostname when the replica held the endpoint at that sync; null otherwise. */
    endpoint_hostname: z.string().nullable(),
  })
  .meta({ id: 'SyncChangeFinding' });
export type SyncChangeFinding = z.infer<typeof syncChangeFindingSchema>;

/** Items of one collection a sync created (not in the replica before), updated (another `updated_at`) and removed. */
export const collectionChangeCountsSchema = z
  .object({ created: countSchema, updated: countSchema, removed: countSchema })
  .meta({ id: 'CollectionChangeCounts' });
export type CollectionChangeCounts = z.infer<typeof collectionChangeCountsSchema>;

/** The changes of each collection (named as in the registry). */
export const syncChangeCountsSchema = z
  .object({
    endpoints: collectionChangeCountsSchema,
    remediationTargets: collectionChangeCountsSchema,
    scopes: collectionChangeCountsSchema,
    findings: collectionChangeCountsSchema,
  })
  .meta({ id: 'SyncChangeCounts' });
export type SyncChangeCounts = z.infer<typeof syncChangeCountsSchema>;

/** Findings that became open critical or KEV: how many, of which critical and KEV (a finding may be both), and the first of them. */
export const newlyOpenFindingsSchema = z
  .object({
    total: countSchema,
    critical: countSchema,
    kev: countSchema,
    findings: z.array(syncChangeFindingSchema).meta({ description: `The first ${syncChangeFindingsListed} of them.` }),
  })
  .meta({ id: 'NewlyOpenFindings' });
export type NewlyOpenFindings = z.infer<typeof newlyOpenFindingsSchema>;

/** Findings that went from open to remediated: how many, and the first of them. */
export const remediatedFindingsSchema = z
  .object({
    total: countSchema,
    findings: z.array(syncChangeFindingSchema).meta({ description: `The first ${syncChangeFindingsListed} of them.` }),
  })
  .meta({ id: 'RemediatedFindings' });
export type RemediatedFindings = z.infer<typeof remediatedFindingsSchema>;

/** An id of a sync's changes, unique in the store and never reused. */
export const syncChangesIdSchema = z.number().int().min(1);

/** What one sync of a replica changed. */
export const syncChangesSchema = z
  .object({
    id: syncChangesIdSchema,
    startedAt: dateTimeSchema,
    finishedAt: dateTimeSchema,
    mode: z.enum(syncModes),
    firstSync: z.boolean().meta({
      description: 'The replica held nothing before: everything counts as created, and no finding is listed as newly open.',
    }),
    counts: syncChangeCountsSchema,
    newlyOpen: newlyOpenFindingsSchema.meta({
      description: 'Open critical or KEV findings that were not before this sync: new ones, reopened ones, and open ones that became critical or KEV.',
    }),
    remediated: remediatedFindingsSchema,
    findingsKept: z.boolean().meta({
      description:
        "Whether the record keeps every finding the sync opened and closed, by id: a report's delta between two syncs is taken only across syncs that do. " +
        `False for a sync recorded by an older version, or one that moved more than ${syncFindingMovesKept} findings.`,
    }),
  })
  .meta({ id: 'SyncChanges' });
export type SyncChanges = z.infer<typeof syncChangesSchema>;

/** `GET /app/orgs/:slug/sync-changes`: the replica's recorded syncs, newest first. */
export const syncChangesListSchema = z
  .object({ data: z.array(syncChangesSchema).meta({ description: `At most the last ${syncChangesKept}, newest first.` }) })
  .meta({ id: 'SyncChangesList' });
export type SyncChangesList = z.infer<typeof syncChangesListSchema>;

/** A replica's latest recorded changes in brief, beside its sync status: what the console's banner and the desktop notification say. */
export const syncChangesSummarySchema = z
  .object({
    id: syncChangesIdSchema,
    finishedAt: dateTimeSchema,
    newlyOpen: newlyOpenFindingsSchema.pick({ total: true, critical: true, kev: true }),
  })
  .meta({ id: 'SyncChangesSummary' });
export type SyncChangesSummary = z.infer<typeof syncChangesSummarySchema>;

/** The path parameter of one sync's changes. */
export const syncChangesIdParamSchema = z
  .string()
  .regex(/^[1-9]\d{0,14}$/, 'must be a positive whole number')
  .transform(Number)
  .meta({ type: 'integer', minimum: 1, maximum: 999_999_999_999_999, description: "The id of a sync's changes, from the list." });
