import type { CoverageColumns } from './coverage-columns.js';
import type { Database } from '../engine/database.js';
import { type ChangeVersions, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { TimeSlices } from '../derived/time-slices.js';
import { inventoryOf } from './inventory-ids.js';

/** The findings' timelines (a `FindingTimeline` per organization): read from the inventory. */
export const findingTimelines = derivedValue('finding timelines', ['inventory']);

/**
 * When each finding of one organization was first detected and remediated, by its index in the
 * coverage columns (coverage-columns.ts), whose severity, status and KEV flag it goes with: what
 * deadlines, ages and times to remediate are computed from.
 */
export interface FindingTimeline {
  /** The columns it is indexed like, of the same version of the data. */
  columns: CoverageColumns;
  /** `first_detected_at`, ms since the epoch. */
  firstDetectedMs: Float64Array;
  /** `remediated_at` of a remediated finding, ms since the epoch; NaN for an open finding, or a remediated one whose instant is unknown. */
  remediatedMs: Float64Array;
  /** A finding's index by its seq less {@link firstSeq}; -1 between the organization's seqs. */
  indexBySeq: Int32Array;
  firstSeq: number;
}

// As in coverage-columns.ts, a chunk comes back as one row of comma-separated lists: sql.js pays
// a call into WebAssembly for every value read. Timestamps hold no commas; an empty item is none.
const timesChunk = `
  SELECT group_concat(seq) AS seqs, group_concat(first_detected_at) AS firsts,
         group_concat(CASE WHEN status = 'remediated' THEN coalesce(remediated_at, '') ELSE '' END) AS remediated
  FROM findings WHERE org_id = ? AND seq >= ? AND seq < ?`;

/** Findings a statement reads: a few milliseconds of SQL. */
const findingsPerChunk = 2_048;
/** Findings indexed between two looks at the clock. */
const findingsBetweenLooks = 65_536;

/**
 * Reads the timeline of an inventory whose coverage columns are `columns`, in chunks with turns
 * of the event loop between them; `checkpoint` (of a DerivedCache computation) throws after a
 * turn during which the database was written. Only the two instants are read: severity, status
 * and KEV are the columns'.
 */
export async function loadFindingTimeline(db: Database, inventoryId: number, columns: CoverageColumns, checkpoint: () => void): Promise<FindingTimeline> {
  const slices = new TimeSlices(checkpoint);
  const { count, seq } = columns;
  const firstSeq = count ? seq[0]! : 0;
  const indexBySeq = new Int32Array(count ? seq[count - 1]! - firstSeq + 1 : 0).fill(-1);
  for (let i = 0; i < count; i++) {
    if (i % findingsBetweenLooks === 0) await slices.pause();
    indexBySeq[seq[i]! - firstSeq] = i;
  }
  const firstDetectedMs = new Float64Array(count).fill(Number.NaN);
  const remediatedMs = new Float64Array(count).fill(Number.NaN);
  for (let from = firstSeq; from < firstSeq + indexBySeq.length; from += findingsPerChunk) {
    const chunk = db.get<{ seqs: string | null; firsts: string; remediated: string }>(timesChunk, [inventoryId, from, from + findingsPerChunk])!;
    if (chunk.seqs !== null) {
      const seqs = chunk.seqs.split(',');
      const firsts = chunk.firsts.split(',');
      const remediated = chunk.remediated.split(',');
      for (let i = 0; i < seqs.length; i++) {
        const index = indexBySeq[Number(seqs[i]) - firstSeq] ?? -1;
        // A row the columns do not hold cannot be: they are of this version (checked at each pause).
        if (index < 0) continue;
        firstDetectedMs[index] = Date.parse(firsts[i]!);
        if (remediated[i]) remediatedMs[index] = Date.parse(remediated[i]!);
      }
    }
    await slices.pause();
  }
  return { columns, firstDetectedMs, remediatedMs, indexBySeq, firstSeq };
}

/**
 * The timeline of each organization's findings at the data's current version, read once per
 * version: what deadlines (remediation/) and fix-by dates (ssvc/) are computed from.
 */
export class FindingTimelines {
  /** Timelines by organization. Bound: 8 (20 MB each for a million findings). */
  private readonly timelines: DerivedCache<FindingTimeline>;

  constructor(
    private readonly db: Database,
    versions: ChangeVersions,
    /** Where the coverage columns come from (scope-coverage.ts), read once per version and shared. */
    private readonly coverage: { currentColumns(orgRowId: number): Promise<CoverageColumns> },
  ) {
    this.timelines = new DerivedCache(versions, findingTimelines, { bound: { entries: 8 } });
  }

  /** The organization's timeline at the data's current version. */
  of(orgRowId: number): Promise<FindingTimeline> {
    return this.timelines.settled(String(orgRowId), async (checkpoint) => {
      const columns = await this.coverage.currentColumns(orgRowId);
      checkpoint();
      return loadFindingTimeline(this.db, inventoryOf(this.db, orgRowId), columns, checkpoint);
    });
  }
}
