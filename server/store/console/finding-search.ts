import type { SqlValue } from 'sql.js';
import { containing } from '../basics/collection-tables.js';
import type { Database } from '../engine/database.js';
import { TimeSlices } from '../derived/time-slices.js';

/** Findings read per statement while a search's rows are listed: a few milliseconds along an index. */
const rowsPerChunk = 2048;
/** Seqs collected between two looks at the clock. */
const seqsBetweenLooks = 65_536;

/**
 * The findings a free-text search over findings names, ascending by seq: those whose CVE id,
 * title, or endpoint's hostname contains `q`. A substring over a million findings would be a
 * full scan, so the few thousand CVEs, texts and endpoints are searched instead and the
 * findings reached through the (cve_ref, org_id) and (org_id, endpoint_id) indexes, a CVE or an
 * endpoint at a time in chunks of {@link rowsPerChunk} rows (keyset on seq along the index),
 * with turns of the event loop between them: a search that names a hundred thousand findings
 * held the thread for a tenth of a second, at every page and count, when SQLite listed them in
 * one subquery. A text is shared by the findings of one CVE, so `textCves` ({@link textCvesOf},
 * kept by the caller until the next write) turns matching texts into CVEs to look up.
 */
export async function searchedFindings(
  db: Database,
  inventoryId: number,
  q: string,
  textCves: Map<number, number[]>,
  slices: TimeSlices,
): Promise<Int32Array> {
  const pattern = containing(q);
  const cveMatches = db.column("SELECT id FROM cves WHERE lower(cve_id) LIKE ? ESCAPE '\\'", [pattern]) as number[];
  const textMatches = db.column("SELECT id FROM finding_texts WHERE lower(title) LIKE ? ESCAPE '\\'", [pattern]) as number[];
  const hostMatches = db.column("SELECT id FROM endpoints WHERE org_id = ? AND lower(hostname) LIKE ? ESCAPE '\\'", [inventoryId, pattern]) as string[];
  const whole = new Set(cveMatches);
  const byText = new Set<number>();
  for (const text of textMatches) for (const cve of textCves.get(text) ?? []) if (!whole.has(cve)) byText.add(cve);

  const first = db.value('SELECT min(seq) FROM findings WHERE org_id = ?', [inventoryId]);
  const last = db.value('SELECT max(seq) FROM findings WHERE org_id = ?', [inventoryId]);
  if (first == null || last == null) return new Int32Array(0);
  // Marked by seq as the branches find them (a finding may be found by several), then listed in order.
  const found = new Uint8Array(Number(last) - Number(first) + 1);
  const mark = async (sql: string, params: SqlValue[]) => {
    for (let after = -1; ; ) {
      const seqs = db.column(`${sql} AND seq > ? ORDER BY seq LIMIT ?`, [...params, after, rowsPerChunk]) as number[];
      for (const seq of seqs) found[seq - Number(first)] = 1;
      await slices.pause();
      if (seqs.length < rowsPerChunk) return;
      after = seqs.at(-1)!;
    }
  };
  for (const cve of whole) await mark('SELECT seq FROM findings WHERE org_id = ? AND cve_ref = ?', [inventoryId, cve]);
  const texts = JSON.stringify(textMatches);
  for (const cve of byText) {
    await mark('SELECT seq FROM findings WHERE org_id = ? AND cve_ref = ? AND text_ref IN (SELECT value FROM json_each(?))', [inventoryId, cve, texts]);
  }
  for (const endpoint of hostMatches) await mark('SELECT seq FROM findings WHERE org_id = ? AND endpoint_id = ?', [inventoryId, endpoint]);

  let count = 0;
  for (const flag of found) count += flag;
  const seqs = new Int32Array(count);
  for (let offset = 0, at = 0; offset < found.length; offset++) {
    if (offset % seqsBetweenLooks === 0) await slices.pause();
    if (found[offset]) seqs[at++] = offset + Number(first);
  }
  return seqs;
}

/** Findings read per statement by {@link textCvesOf}: a few milliseconds of SQL. */
const findingsPerChunk = 4_096;

/**
 * Text row id to the CVE row ids of the inventory's findings that carry it: a pass over them,
 * in ranges of seq read along the (org_id) index, with turns of the event loop between them;
 * `checkpoint` (of a DerivedCache computation) throws when the data changed meanwhile.
 */
export async function textCvesOf(db: Database, inventoryId: number, checkpoint: () => void): Promise<Map<number, number[]>> {
  const slices = new TimeSlices(checkpoint);
  const pairs = new Map<number, Set<number>>();
  const last = db.value('SELECT max(seq) FROM findings WHERE org_id = ?', [inventoryId]);
  const first = db.value('SELECT min(seq) FROM findings WHERE org_id = ?', [inventoryId]);
  for (let from = Number(first ?? 0); last != null && from <= Number(last); from += findingsPerChunk) {
    const rows = db.all<{ text_ref: number; cve_ref: number }>(
      'SELECT DISTINCT text_ref, cve_ref FROM findings WHERE org_id = ? AND seq >= ? AND seq < ?',
      [inventoryId, from, from + findingsPerChunk],
    );
    for (const row of rows) {
      const cves = pairs.get(row.text_ref);
      if (cves) cves.add(row.cve_ref);
      else pairs.set(row.text_ref, new Set([row.cve_ref]));
    }
    await slices.pause();
  }
  return new Map([...pairs].map(([text, cves]) => [text, [...cves]]));
}
