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

/** A row of epss_current as stored: a CVE's key, its score and its percentile. */
export type StoredEpssScore = [key: number, epss: number, percentile: number];

/**
 * The rows one statement writes: 128 at most, then halves for what remains (64, 32, … 1),
 * their figures bound as numbers: no JSON to build, encode and parse per row (which, for
 * 400,000 rows, was most of an import's time and of the garbage the thread answering requests
 * had to collect). A log of statements records each statement's text with its values, so a
 * remainder in a few statements costs a few texts, not one a row.
 */
const statementRows = [128, 64, 32, 16, 8, 4, 2, 1] as const;

/** The text of a statement for each of {@link statementRows}, made once (the database keeps a statement per text). */
const textsBySize = (textOf: (rows: number) => string) => new Map(statementRows.map((rows) => [rows, textOf(rows)]));

/** `VALUES` of `rows` rows of `columns` parameters each. */
const valuesOf = (rows: number, columns: number) => `VALUES ${Array.from({ length: rows }, () => `(${Array.from({ length: columns }, () => '?').join(',')})`).join(',')}`;

/** The statements writing rows as the current figures: only rows new or changed are given them (EpssScores.writeCurrent). */
const upsertCurrent = textsBySize(
  (rows) => `INSERT INTO epss_current (cve_key, epss, percentile) ${valuesOf(rows, 3)}
   ON CONFLICT (cve_key) DO UPDATE SET epss = excluded.epss, percentile = excluded.percentile`,
);

/** The statements keeping rows as history. */
const insertHistory = textsBySize((rows) => `INSERT OR REPLACE INTO epss_history (import_id, cve_key, epss, percentile) ${valuesOf(rows, 4)}`);

/**
 * The SQL of epss_current (the figures of the current EPSS import, one row per CVE it scores,
 * by cve-key.ts's key) and epss_history (the figures of the last EPSS imports for the CVEs some
 * organization's inventory names). A piece is written by statements of {@link statementRows}
 * rows, in the caller's write.
 */
export class EpssScores {
  constructor(private readonly db: Database) {}

  /**
   * Writes the rows at `indexes` of a file as the current figures: the caller gives only the
   * rows that are new or differ from the stored ones (currentAfter), so that what an import
   * writes, and a log of statements records, follows the rows it changes.
   */
  writeCurrent(keys: Float64Array, epss: Float64Array, percentile: Float64Array, indexes: readonly number[]): void {
    this.runInStatements(upsertCurrent, indexes.length, (at, params) => {
      const index = indexes[at]!;
      params.push(keys[index]!, epss[index]!, percentile[index]!);
    });
  }

  /** Up to `limit` current figures of keys after `after`, in key order: a pass over them in pieces. */
  currentAfter(after: number, limit: number): StoredEpssScore[] {
    return this.db.rows('SELECT cve_key, epss, percentile FROM epss_current WHERE cve_key > ? ORDER BY cve_key LIMIT ?', [after, limit]) as StoredEpssScore[];
  }

  /** Deletes current figures by key (CVEs the current file no longer scores). */
  deleteCurrent(keys: readonly number[]): void {
    this.db.run('DELETE FROM epss_current WHERE cve_key IN (SELECT value FROM json_each(?))', [JSON.stringify(keys)]);
  }

  /** Keeps the rows at `indexes` of a file as the history of import `importId`. */
  writeHistory(importId: number, keys: Float64Array, epss: Float64Array, percentile: Float64Array, indexes: readonly number[]): void {
    this.runInStatements(insertHistory, indexes.length, (at, params) => {
      const index = indexes[at]!;
      params.push(importId, keys[index]!, epss[index]!, percentile[index]!);
    });
  }

  /** Runs `count` rows through the statements of `texts`, the largest that fit first; `bind` adds row `at`'s values. */
  private runInStatements(texts: ReadonlyMap<number, string>, count: number, bind: (at: number, params: number[]) => void): void {
    for (let at = 0; at < count; ) {
      const rows = statementRows.find((size) => size <= count - at)!;
      const params: number[] = [];
      for (const end = at + rows; at < end; at++) bind(at, params);
      this.db.run(texts.get(rows)!, params);
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

