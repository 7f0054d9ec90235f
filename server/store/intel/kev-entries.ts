import type { Database } from '../engine/database.js';
import type { KevEntry, KevSource } from './kev-catalog.js';

/** A CVE's entry in one KEV catalog, as the console will show it. */
export interface KevListing {
  source: KevSource;
  dateAdded: string;
  dueDate: string | null;
  ransomware: boolean | null;
  requiredAction: string | null;
}

/**
 * The SQL of kev_entries: the entries of the current catalog of each source (CISA's, ENISA's),
 * keyed by the entry's key in its catalog. A newer catalog changes only the entries that differ
 * and deletes those it no longer lists.
 */
export class KevEntries {
  constructor(private readonly db: Database) {}

  /** Makes `entries` the current ones of `source` (in the caller's write); answers how many rows changed. */
  replace(source: KevSource, entries: readonly KevEntry[]): number {
    const rows = entries.map((entry) => [
      entry.key,
      entry.cveId,
      entry.euvdId,
      entry.vendorProject,
      entry.product,
      entry.vulnerabilityName,
      entry.dateAdded,
      entry.dueDate,
      entry.ransomware === null ? null : Number(entry.ransomware),
      entry.requiredAction,
      entry.shortDescription,
      entry.notes,
      JSON.stringify(entry.cwes),
      JSON.stringify(entry.exploitationType),
    ]);
    const fields = [
      'entry_key',
      'cve_id',
      'euvd_id',
      'vendor_project',
      'product',
      'vulnerability_name',
      'date_added',
      'due_date',
      'ransomware',
      'required_action',
      'short_description',
      'notes',
      'cwes',
      'exploitation_type',
    ];
    const changed = this.db.run(
      `INSERT INTO kev_entries (source, ${fields.join(', ')})
         SELECT ?, ${fields.map((_field, index) => `json_extract(value, '$[${index}]')`).join(', ')} FROM json_each(?) WHERE true
       ON CONFLICT (source, entry_key) DO UPDATE SET ${fields.slice(1).map((field) => `${field} = excluded.${field}`).join(', ')}
         WHERE ${fields.slice(1).map((field) => `${field} IS NOT excluded.${field}`).join(' OR ')}`,
      [source, JSON.stringify(rows)],
    );
    return (
      changed +
      this.db.run('DELETE FROM kev_entries WHERE source = ? AND entry_key NOT IN (SELECT value FROM json_each(?))', [source, JSON.stringify(entries.map((entry) => entry.key))])
    );
  }

  /** How many entries the current catalog of `source` holds. */
  count(source: KevSource): number {
    return Number(this.db.value('SELECT count(*) FROM kev_entries WHERE source = ?', [source]));
  }

  /** A CVE's entries in the current catalogs, CISA's first. */
  listings(cveId: string): KevListing[] {
    return this.db
      .all<{ source: KevSource; date_added: string; due_date: string | null; ransomware: number | null; required_action: string | null }>(
        'SELECT source, date_added, due_date, ransomware, required_action FROM kev_entries WHERE cve_id = ? ORDER BY source',
        [cveId.toUpperCase()],
      )
      .map((row) => ({
        source: row.source,
        dateAdded: row.date_added,
        dueDate: row.due_date,
        ransomware: row.ransomware === null ? null : row.ransomware === 1,
        requiredAction: row.required_action,
      }));
  }
}
