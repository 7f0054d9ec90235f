import type { SqlValue } from 'sql.js';
import { containing } from './collection-tables.js';
import type { Database } from './database.js';
import { TimeSlices } from './time-slices.js';

const inJson = (column: string) => `${column} IN (SELECT value FROM json_each(?))`;

/** A condition of a list's WHERE clause with its values. */
export interface FindingTextCondition {
  sql: string;
  params: SqlValue[];
}

/**
 * The condition of a free-text search over findings: the CVE id, the title, or the hostname of
 * the endpoint contains `q`. A substring over a million findings would be a full scan, so the
 * few thousand CVEs, texts and endpoints are searched instead and the findings reached through
 * the (org_id, cve_ref) and (org_id, endpoint_id) indexes. A text is shared by the findings of
 * one CVE, so `textCves` ({@link textCvesOf}, kept by the caller until the next write) turns
 * matching texts into CVEs to look up.
 */
export function findingTextCondition(db: Database, orgRowId: number, q: string, textCves: Map<number, number[]>): FindingTextCondition {
  const pattern = containing(q);
  const cveMatches = db.column("SELECT id FROM cves WHERE lower(cve_id) LIKE ? ESCAPE '\\'", [pattern]) as number[];
  const textMatches = db.column("SELECT id FROM finding_texts WHERE lower(title) LIKE ? ESCAPE '\\'", [pattern]) as number[];
  const hostMatches = db.column("SELECT id FROM endpoints WHERE org_id = ? AND lower(hostname) LIKE ? ESCAPE '\\'", [orgRowId, pattern]) as string[];
  const whole = new Set(cveMatches);
  const byText = new Set<number>();
  for (const text of textMatches) for (const cve of textCves.get(text) ?? []) if (!whole.has(cve)) byText.add(cve);
  // Each branch walks one index; seq IN (...) then lets the outer query read rows in seq order.
  return {
    sql: `seq IN (SELECT seq FROM findings WHERE org_id = ? AND ${inJson('cve_ref')}
                  UNION ALL SELECT seq FROM findings WHERE org_id = ? AND ${inJson('cve_ref')} AND ${inJson('text_ref')}
                  UNION ALL SELECT seq FROM findings WHERE org_id = ? AND ${inJson('endpoint_id')})`,
    params: [
      orgRowId,
      JSON.stringify([...whole]),
      orgRowId,
      JSON.stringify([...byText]),
      JSON.stringify(textMatches),
      orgRowId,
      JSON.stringify(hostMatches),
    ],
  };
}

/** Findings read per statement by {@link textCvesOf}: a few milliseconds of SQL. */
const findingsPerChunk = 4_096;

/**
 * Text row id to the CVE row ids of the organization's findings that carry it: a pass over
 * them, in ranges of seq read along the (org_id) index, with turns of the event loop between
 * them; `checkpoint` (of a DerivedCache computation) throws when the data changed meanwhile.
 */
export async function textCvesOf(db: Database, orgRowId: number, checkpoint: () => void): Promise<Map<number, number[]>> {
  const slices = new TimeSlices(checkpoint);
  const pairs = new Map<number, Set<number>>();
  const last = db.value('SELECT max(seq) FROM findings WHERE org_id = ?', [orgRowId]);
  const first = db.value('SELECT min(seq) FROM findings WHERE org_id = ?', [orgRowId]);
  for (let from = Number(first ?? 0); last != null && from <= Number(last); from += findingsPerChunk) {
    const rows = db.all<{ text_ref: number; cve_ref: number }>(
      'SELECT DISTINCT text_ref, cve_ref FROM findings WHERE org_id = ? AND seq >= ? AND seq < ?',
      [orgRowId, from, from + findingsPerChunk],
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
