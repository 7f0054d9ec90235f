import type { SqlValue } from 'sql.js';
import { containing } from './collection-tables.js';
import type { Database } from './database.js';

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
 * the (cve_ref, org_id) and (org_id, endpoint_id) indexes. A text is shared by the findings of
 * one CVE, so `textCves` (text row id to the CVE row ids its findings name, a pass over the
 * findings kept by the caller until the next write) turns matching texts into CVEs to look up.
 */
export function findingTextCondition(
  db: Database,
  inventoryId: number,
  q: string,
  textCves: () => Map<number, number[]>,
): FindingTextCondition {
  const pattern = containing(q);
  const cveMatches = db.column("SELECT id FROM cves WHERE lower(cve_id) LIKE ? ESCAPE '\\'", [pattern]) as number[];
  const textMatches = db.column("SELECT id FROM finding_texts WHERE lower(title) LIKE ? ESCAPE '\\'", [pattern]) as number[];
  const hostMatches = db.column("SELECT id FROM endpoints WHERE org_id = ? AND lower(hostname) LIKE ? ESCAPE '\\'", [inventoryId, pattern]) as string[];
  const whole = new Set(cveMatches);
  const byText = new Set<number>();
  const cvesOfTexts = textCves();
  for (const text of textMatches) for (const cve of cvesOfTexts.get(text) ?? []) if (!whole.has(cve)) byText.add(cve);
  // Each branch walks one index; seq IN (...) then lets the outer query read rows in seq order.
  return {
    sql: `seq IN (SELECT seq FROM findings WHERE org_id = ? AND ${inJson('cve_ref')}
                  UNION ALL SELECT seq FROM findings WHERE org_id = ? AND ${inJson('cve_ref')} AND ${inJson('text_ref')}
                  UNION ALL SELECT seq FROM findings WHERE org_id = ? AND ${inJson('endpoint_id')})`,
    params: [
      inventoryId,
      JSON.stringify([...whole]),
      inventoryId,
      JSON.stringify([...byText]),
      JSON.stringify(textMatches),
      inventoryId,
      JSON.stringify(hostMatches),
    ],
  };
}

/** Text row id to the CVE row ids of the inventory's findings that carry it: one pass over them. */
export function textCvesOf(db: Database, inventoryId: number): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const row of db.all<{ text_ref: number; cve_ref: number }>('SELECT DISTINCT text_ref, cve_ref FROM findings WHERE org_id = ?', [inventoryId])) {
    const cves = map.get(row.text_ref);
    if (cves) cves.push(row.cve_ref);
    else map.set(row.text_ref, [row.cve_ref]);
  }
  return map;
}
