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

/**
 * Rows a statement writes, their figures bound as numbers: no JSON to build, encode and parse
 * per row (which, for 400,000 rows, was most of an import's time and of the garbage the thread
 * answering requests had to collect). A remainder is written a row at a time.
 */
const rowsPerStatement = 128;

/** `VALUES` of `rows` rows of `columns` parameters each. */
const valuesOf = (rows: number, columns: number) => `VALUES ${Array.from({ length: rows }, () => `(${Array.from({ length: columns }, () => '?').join(', ')})`).join(', ')}`;

/** The statement writing `rows` rows as the current figures, changing only those whose figures differ. */
const upsertCurrentOf = (rows: number) =>
  `INSERT INTO epss_current (cve_key, epss, percentile) ${valuesOf(rows, 3)}
   ON CONFLICT (cve_key) DO UPDATE SET epss = excluded.epss, percentile = excluded.percentile
     WHERE epss IS NOT excluded.epss OR percentile IS NOT excluded.percentile`;

/** The statement keeping `rows` rows as history. */
const insertHistoryOf = (rows: number) => `INSERT OR REPLACE INTO epss_history (import_id, cve_key, epss, percentile) ${valuesOf(rows, 4)}`;

/** Each statement's text for a full statement and for one row, made once (the database keeps a statement per text). */
const upsertCurrent = { many: upsertCurrentOf(rowsPerStatement), one: upsertCurrentOf(1) };
const insertHistory = { many: insertHistoryOf(rowsPerStatement), one: insertHistoryOf(1) };

/**
 * The SQL of epss_current (the figures of the current EPSS import, one row per CVE it scores,
 * by cve-key.ts's key) and epss_history (the figures of the last EPSS imports for the CVEs some
 * organization's inventory names). A piece is written by statements of {@link rowsPerStatement}
 * rows, in the caller's write.
 */
export class EpssScores {
  constructor(private readonly db: Database) {}

  /**
   * Writes rows `from`–`to` of a file as the current figures, changing only the rows whose
   * figures differ (an unchanged row writes no page); answers how many rows changed.
   */
  writeCurrent(keys: Float64Array, epss: Float64Array, percentile: Float64Array, from: number, to: number): number {
    let changed = 0;
    for (let at = from; at < to; ) {
      const full = to - at >= rowsPerStatement;
      const params: number[] = [];
      for (const end = at + (full ? rowsPerStatement : 1); at < end; at++) params.push(keys[at]!, epss[at]!, percentile[at]!);
      changed += this.db.run(full ? upsertCurrent.many : upsertCurrent.one, params);
    }
    return changed;
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
    for (let at = 0; at < indexes.length; ) {
      const full = indexes.length - at >= rowsPerStatement;
      const params: number[] = [];
      for (const end = at + (full ? rowsPerStatement : 1); at < end; at++) {
        const index = indexes[at]!;
        params.push(importId, keys[index]!, epss[index]!, percentile[index]!);
      }
      this.db.run(full ? insertHistory.many : insertHistory.one, params);
    }
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

