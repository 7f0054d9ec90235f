import type { ThreatIntelImport, ThreatIntelKind, VulnrichmentReport } from '../../../contracts/console/threat-intel.js';
import type { Database } from '../engine/database.js';

interface ImportRow {
  id: number;
  kind: ThreatIntelKind;
  source_date: string;
  version: string | null;
  rows: number;
  sha256: string;
  imported_at: string;
  finished: number;
  current: number;
  report: string | null;
}

const columns = 'id, kind, source_date, version, rows, sha256, imported_at, finished, current, report';

const asImport = (row: ImportRow): ThreatIntelImport => ({
  ...row,
  finished: row.finished === 1,
  current: row.current === 1,
  report: row.report === null ? null : (JSON.parse(row.report) as VulnrichmentReport),
});

/** What a new import records before its rows are written. */
export interface NewImport {
  kind: ThreatIntelKind;
  sourceDate: string;
  version: string | null;
  rows: number;
  sha256: string;
  importedAt: string;
  /** A Vulnrichment import's counts and normalisations. */
  report?: VulnrichmentReport;
}

/**
 * The SQL of intel_imports: one row per import of an intelligence file, written unfinished
 * before its rows and finished by the write that ends it; `current` marks, per kind, the
 * import whose figures are the current ones.
 */
export class IntelImports {
  constructor(private readonly db: Database) {}

  /** Every import, the newest first. */
  list(): ThreatIntelImport[] {
    return this.db.all<ImportRow>(`SELECT ${columns} FROM intel_imports ORDER BY id DESC`).map(asImport);
  }

  /** The import whose figures are the current ones of `kind`, if any. */
  current(kind: ThreatIntelKind): ThreatIntelImport | undefined {
    const row = this.db.get<ImportRow>(`SELECT ${columns} FROM intel_imports WHERE kind = ? AND current = 1`, [kind]);
    return row && asImport(row);
  }

  /** The finished import of this very file (kind and SHA-256), if it was imported before. */
  finishedWith(kind: ThreatIntelKind, sha256: string): ThreatIntelImport | undefined {
    const row = this.db.get<ImportRow>(`SELECT ${columns} FROM intel_imports WHERE kind = ? AND sha256 = ? AND finished = 1 ORDER BY id DESC`, [kind, sha256]);
    return row && asImport(row);
  }

  /**
   * Deletes the records of imports of this file (kind and SHA-256) that a stopped process left
   * unfinished, answering their ids (their history goes with them): imports run one at a time,
   * in the one process that holds the data directory, so an unfinished one met here is not running.
   */
  dropInterrupted(kind: ThreatIntelKind, sha256: string): number[] {
    const ids = this.db.column('SELECT id FROM intel_imports WHERE kind = ? AND sha256 = ? AND finished = 0', [kind, sha256]) as number[];
    if (ids.length > 0) this.db.run('DELETE FROM intel_imports WHERE id IN (SELECT value FROM json_each(?))', [JSON.stringify(ids)]);
    return ids;
  }

  /** Records an import as started (in the caller's write); answers its id. */
  start(started: NewImport): number {
    this.db.run('INSERT INTO intel_imports (kind, source_date, version, rows, sha256, imported_at, report) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      started.kind,
      started.sourceDate,
      started.version,
      started.rows,
      started.sha256,
      started.importedAt,
      started.report === undefined ? null : JSON.stringify(started.report),
    ]);
    return Number(this.db.value('SELECT last_insert_rowid()'));
  }

  /** Marks an import finished and, when its figures replaced the current ones, the current one of its kind (in the caller's write). */
  finish(id: number, kind: ThreatIntelKind, isCurrent: boolean): ThreatIntelImport {
    if (isCurrent) this.db.run('UPDATE intel_imports SET current = 0 WHERE kind = ? AND current = 1', [kind]);
    this.db.run('UPDATE intel_imports SET finished = 1, current = ? WHERE id = ?', [isCurrent ? 1 : 0, id]);
    return asImport(this.db.get<ImportRow>(`SELECT ${columns} FROM intel_imports WHERE id = ?`, [id])!);
  }

  /** The EPSS imports past the newest `kept` by score date (the latest import first among equal dates). */
  epssImportsPast(kept: number): number[] {
    return this.db.column("SELECT id FROM intel_imports WHERE kind = 'epss' ORDER BY source_date DESC, id DESC LIMIT -1 OFFSET ?", [kept]) as number[];
  }
}
