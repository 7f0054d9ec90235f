import type { Database } from '../engine/database.js';
import { cveKey } from './cve-key.js';

/** A CVE's EPSS figures: the probability of exploitation in the next 30 days and its percentile. */
export interface EpssScore {
  epss: number;
  percentile: number;
}

/** A CVE's figures in one EPSS import kept as history. */
export interface EpssHistoryPoint extends EpssScore {
  importId: number;
}

/** Rows `[key, epss, percentile]` as the JSON one statement reads with json_each. */
function rowsJson(keys: Float64Array, epss: Float64Array, percentile: Float64Array, indexes: Iterable<number>): string {
  const rows: number[][] = [];
  for (const index of indexes) rows.push([keys[index]!, epss[index]!, percentile[index]!]);
  return JSON.stringify(rows);
}

function* range(from: number, to: number): Generator<number> {
  for (let index = from; index < to; index++) yield index;
}

/**
 * The SQL of epss_current (the figures of the current EPSS import, one row per CVE it scores,
 * by cve-key.ts's key) and epss_history (the figures of the last EPSS imports for the CVEs some
 * organization's inventory names). Each piece is one statement over a JSON list of rows, run in
 * the caller's write.
 */
export class EpssScores {
  constructor(private readonly db: Database) {}

  /**
   * Writes rows `from`–`to` of a file as the current figures, changing only the rows whose
   * figures differ (an unchanged row writes no page); answers how many rows changed.
   */
  writeCurrent(keys: Float64Array, epss: Float64Array, percentile: Float64Array, from: number, to: number): number {
    return this.db.run(
      `INSERT INTO epss_current (cve_key, epss, percentile)
         SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?) WHERE true
       ON CONFLICT (cve_key) DO UPDATE SET epss = excluded.epss, percentile = excluded.percentile
         WHERE epss IS NOT excluded.epss OR percentile IS NOT excluded.percentile`,
      [rowsJson(keys, epss, percentile, range(from, to))],
    );
  }

  /** Up to `limit` keys of the current figures after `after`, in key order: a pass over them in pieces. */
  currentKeysAfter(after: number, limit: number): number[] {
    return this.db.column('SELECT cve_key FROM epss_current WHERE cve_key > ? ORDER BY cve_key LIMIT ?', [after, limit]) as number[];
  }

  /** Deletes current figures by key (CVEs the current file no longer scores). */
  deleteCurrent(keys: readonly number[]): void {
    this.db.run('DELETE FROM epss_current WHERE cve_key IN (SELECT value FROM json_each(?))', [JSON.stringify(keys)]);
  }

  /** Keeps the rows at `indexes` of a file as the history of import `importId`. */
  writeHistory(importId: number, keys: Float64Array, epss: Float64Array, percentile: Float64Array, indexes: readonly number[]): void {
    if (indexes.length === 0) return;
    this.db.run(
      `INSERT OR REPLACE INTO epss_history (import_id, cve_key, epss, percentile)
         SELECT ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?)`,
      [importId, rowsJson(keys, epss, percentile, indexes)],
    );
  }

  /** Drops the history of these imports. */
  dropHistory(importIds: readonly number[]): void {
    if (importIds.length > 0) this.db.run('DELETE FROM epss_history WHERE import_id IN (SELECT value FROM json_each(?))', [JSON.stringify(importIds)]);
  }

  /** The keys of the CVEs any inventory names (the cves table of every organization and staged inventory). */
  namedCveKeys(): Set<number> {
    const keys = new Set<number>();
    for (const cveId of this.db.column('SELECT cve_id FROM cves') as string[]) {
      const key = cveKey(cveId);
      if (key !== undefined) keys.add(key);
    }
    return keys;
  }

  /** The current figures of these CVEs, by CVE id as given; a CVE the current file does not score is absent. */
  current(cveIds: readonly string[]): Map<string, EpssScore> {
    const byKey = new Map<number, string>();
    for (const cveId of cveIds) {
      const key = cveKey(cveId);
      if (key !== undefined) byKey.set(key, cveId);
    }
    const rows = this.db.all<{ cve_key: number; epss: number; percentile: number }>(
      'SELECT cve_key, epss, percentile FROM epss_current WHERE cve_key IN (SELECT value FROM json_each(?))',
      [JSON.stringify([...byKey.keys()])],
    );
    return new Map(rows.map((row) => [byKey.get(row.cve_key)!, { epss: row.epss, percentile: row.percentile }]));
  }

  /** How many CVEs the current figures score. */
  currentCount(): number {
    return Number(this.db.value('SELECT count(*) FROM epss_current'));
  }

  /** A CVE's kept history, the latest import first. */
  history(cveId: string): EpssHistoryPoint[] {
    const key = cveKey(cveId);
    if (key === undefined) return [];
    return this.db
      .all<{ import_id: number; epss: number; percentile: number }>(
        `SELECT h.import_id, h.epss, h.percentile FROM epss_history h JOIN intel_imports i ON i.id = h.import_id
         WHERE h.cve_key = ? ORDER BY i.source_date DESC, i.id DESC`,
        [key],
      )
      .map((row) => ({ importId: row.import_id, epss: row.epss, percentile: row.percentile }));
  }
}

