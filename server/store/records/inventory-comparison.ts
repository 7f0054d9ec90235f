import type { CollectionName } from '../../../contracts/collections.js';
import type { FindingSeverity } from '../../../contracts/enums.js';
import type { Database } from '../engine/database.js';
import { tableOf } from '../basics/inventory-ids.js';
import { SyncChangeTally } from '../basics/change-tally.js';
import { TimeSlices } from '../derived/time-slices.js';

/** Rows of the new inventory compared per statement: each is one lookup along the (org_id, id) index of the old. */
const rowsPerChunk = 2_048;
/** Rows of the old inventory counted per statement, along its (org_id) index. */
const rowsPerCount = 32_768;

/** Open, and critical or KEV: of `x`, a findings row (SQL of sync-change-tally.ts's isOpenCriticalOrKev). */
const openCriticalOrKev = (x: string) => `(${x}.status = 'open' AND (${x}.severity = 'critical' OR ${x}.is_kev = 1))`;
/** Of a new row `n` and its old row `o` (null when it is new): open critical or KEV now, and not before. */
const newlyOpen = `(${openCriticalOrKev('n')} AND (o.seq IS NULL OR NOT ${openCriticalOrKev('o')}))`;
const remediated = `(n.status = 'remediated' AND o.status = 'open')`;
/** Of a new row `n` and its old row `o`, the ids of each move (change-tally.ts's findingMove), comma-separated: one value per chunk. */
const movedIds = `group_concat(CASE WHEN n.status = 'open' AND o.status IS NOT 'open' THEN n.id END) AS opened,
  group_concat(CASE WHEN n.status <> 'open' AND o.status = 'open' THEN n.id END) AS closed,
  group_concat(CASE WHEN n.status = 'open' AND o.status = 'open' AND n.is_kev = 1 AND o.is_kev = 0 THEN n.id END) AS became_kev`;

/**
 * A chunk of the new inventory's rows after a seq, each with its old row by id (one index
 * lookup): how many, how many the old held, how many of those have another `updated_at`; for
 * findings also how many became open critical or KEV and how many were remediated. One row back
 * per chunk: sql.js pays a call into WebAssembly for every value read.
 */
const chunkSql = (collection: CollectionName) => {
  const table = tableOf[collection];
  const findings = collection === 'findings';
  return `
    SELECT count(*) AS items, count(o.seq) AS kept, coalesce(sum(o.updated_ms <> n.updated_ms), 0) AS updated, max(n.seq) AS last
      ${findings ? `, coalesce(sum(${newlyOpen}), 0) AS newly_open, coalesce(sum(${newlyOpen} AND n.severity = 'critical'), 0) AS newly_critical,
                     coalesce(sum(${newlyOpen} AND n.is_kev = 1), 0) AS newly_kev, coalesce(sum(${remediated}), 0) AS remediated, ${movedIds}` : ''}
    FROM (SELECT seq, id, updated_ms${findings ? ', status, severity, is_kev' : ''} FROM ${table} WHERE org_id = ? AND seq > ? ORDER BY seq LIMIT ${rowsPerChunk}) n
    LEFT JOIN ${table} o ON o.org_id = ? AND o.id = n.id`;
};

/** The findings of a chunk (seqs after `from`, up to `to`) that one of the lists names, in the lists' order. */
const listedSql = (condition: string) => `
  SELECT n.id, c.cve_id, n.severity, n.is_kev, n.endpoint_id
  FROM findings n JOIN cves c ON c.id = n.cve_ref LEFT JOIN findings o ON o.org_id = ? AND o.id = n.id
  WHERE n.org_id = ? AND n.seq > ? AND n.seq <= ? AND ${condition}
  ORDER BY n.seq LIMIT ?`;

interface ChunkRow {
  items: number;
  kept: number;
  updated: number;
  last: number | null;
  newly_open?: number;
  newly_critical?: number;
  newly_kev?: number;
  remediated?: number;
  opened?: string | null;
  closed?: string | null;
  became_kev?: string | null;
}

interface ListedRow {
  id: string;
  cve_id: string;
  severity: FindingSeverity;
  is_kev: number;
  endpoint_id: string | null;
}

/**
 * What a full sync changed: the inventory it staged (`newInventoryId`) compared with the one it
 * replaces, collection by collection. Created: ids only in the new; removed: only in the old
 * (the old rows counted, less those the new kept); updated: in both with another `updated_at`.
 * Each row of the new is looked up by id in the old along the `(org_id, id)` unique index, a
 * chunk per statement, in slices of the event loop's time (time-slices.ts), so that the
 * comparison never holds the thread that answers requests. Both inventories stay as they are
 * meanwhile: the old is the organization's until the swap, the new is the sync's own.
 */
export async function compareInventories(db: Database, oldInventoryId: number, newInventoryId: number, signal?: AbortSignal): Promise<SyncChangeTally> {
  const tally = new SyncChangeTally();
  const slices = new TimeSlices(() => signal?.throwIfAborted());
  for (const collection of Object.keys(tableOf) as CollectionName[]) {
    const table = tableOf[collection];
    const counts = tally.counts[collection];
    let kept = 0;
    for (let after = Number.MIN_SAFE_INTEGER; ; ) {
      const chunk = db.get<ChunkRow>(chunkSql(collection), [newInventoryId, after, oldInventoryId])!;
      if (chunk.last === null) break;
      counts.created += chunk.items - chunk.kept;
      counts.updated += chunk.updated;
      kept += chunk.kept;
      if (collection === 'findings') listFindings(db, tally, chunk, { oldInventoryId, newInventoryId, after });
      after = chunk.last;
      await slices.pause();
    }
    const old = collection === 'findings' ? await countOldFindings(db, tally, { oldInventoryId, newInventoryId }, slices) : await countOldRows(db, table, oldInventoryId, slices);
    counts.removed = old - kept;
  }
  return tally;
}

/** Counts the old inventory's rows of `table`, along its (org_id) index. */
async function countOldRows(db: Database, table: string, oldInventoryId: number, slices: TimeSlices): Promise<number> {
  let old = 0;
  for (let after = Number.MIN_SAFE_INTEGER; ; ) {
    const counted = db.get<{ rows: number; last: number | null }>(
      `SELECT count(*) AS rows, max(seq) AS last FROM (SELECT seq FROM ${table} WHERE org_id = ? AND seq > ? ORDER BY seq LIMIT ${rowsPerCount})`,
      [oldInventoryId, after],
    )!;
    if (counted.last === null) return old;
    old += counted.rows;
    after = counted.last;
    await slices.pause();
  }
}

/**
 * Counts the old inventory's findings, chunk by chunk, and keeps the ids of the open ones the new
 * one no longer holds (closed: gone from the remote). Each old row is looked up by id in the new.
 */
async function countOldFindings(db: Database, tally: SyncChangeTally, inventories: { oldInventoryId: number; newInventoryId: number }, slices: TimeSlices): Promise<number> {
  let old = 0;
  for (let after = Number.MIN_SAFE_INTEGER; ; ) {
    const chunk = db.get<{ rows: number; last: number | null; gone: string | null }>(
      `SELECT count(*) AS rows, max(o.seq) AS last, group_concat(CASE WHEN o.status = 'open' AND n.seq IS NULL THEN o.id END) AS gone
       FROM (SELECT seq, id, status FROM findings WHERE org_id = ? AND seq > ? ORDER BY seq LIMIT ${rowsPerChunk}) o
       LEFT JOIN findings n ON n.org_id = ? AND n.id = o.id`,
      [inventories.oldInventoryId, after, inventories.newInventoryId],
    )!;
    if (chunk.last === null) return old;
    old += chunk.rows;
    if (chunk.gone) tally.moved('c', chunk.gone.split(','));
    after = chunk.last;
    await slices.pause();
  }
}

/** Counts a chunk's findings newly open and remediated, lists them while the lists have room, and keeps the ids it moved. */
function listFindings(db: Database, tally: SyncChangeTally, chunk: ChunkRow, range: { oldInventoryId: number; newInventoryId: number; after: number }): void {
  tally.addNewlyOpen(chunk.newly_open!, chunk.newly_critical!, chunk.newly_kev!);
  if (chunk.opened) tally.moved('o', chunk.opened.split(','));
  if (chunk.closed) tally.moved('c', chunk.closed.split(','));
  if (chunk.became_kev) tally.moved('k', chunk.became_kev.split(','));
  tally.addRemediated(chunk.remediated!);
  const list = (condition: string, room: number) =>
    db
      .all<ListedRow>(listedSql(condition), [range.oldInventoryId, range.newInventoryId, range.after, chunk.last!, room])
      .map((row) => ({ ...row, is_kev: row.is_kev === 1 }));
  if (chunk.newly_open! > 0 && tally.roomFor('newlyOpen') > 0) for (const finding of list(newlyOpen, tally.roomFor('newlyOpen'))) tally.listNewlyOpen(finding);
  if (chunk.remediated! > 0 && tally.roomFor('remediated') > 0) for (const finding of list(remediated, tally.roomFor('remediated'))) tally.listRemediated(finding);
}
