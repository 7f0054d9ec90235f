import type { Exploitation, TechnicalImpact, YesNo } from '../../../contracts/ssvc-tables.js';
import type { Database } from '../engine/database.js';
import { cveKey } from './cve-key.js';
import type { VulnrichmentRecord } from './vulnrichment-file.js';


/**
 * The SQL of the vulnrichment table: each CVE's SSVC values from CISA's ADP, by CVE key. An
 * import writes the records it holds and leaves the others: one record imported after the
 * repository's archive changes that CVE alone.
 */
export class VulnrichmentEntries {
  constructor(private readonly db: Database) {}

  /** Writes the records of import `importId` (in the caller's write); answers how many rows changed. */
  write(importId: number, records: readonly VulnrichmentRecord[]): number {
    const rows = records.map((record) => [cveKey(record.cveId), record.cveId, record.exploitation, record.automatable, record.technicalImpact, record.timestamp, record.version]);
    return this.db.run(
      `INSERT INTO vulnrichment (cve_key, cve_id, exploitation, automatable, technical_impact, timestamp, version, import_id)
         SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'),
                json_extract(value, '$[4]'), json_extract(value, '$[5]'), json_extract(value, '$[6]'), ? FROM json_each(?) WHERE true
       ON CONFLICT (cve_key) DO UPDATE SET exploitation = excluded.exploitation, automatable = excluded.automatable,
         technical_impact = excluded.technical_impact, timestamp = excluded.timestamp, version = excluded.version, import_id = excluded.import_id`,
      [importId, JSON.stringify(rows)],
    );
  }

  /** How many CVEs have values. */
  count(): number {
    return Number(this.db.value('SELECT count(*) FROM vulnrichment'));
  }

  /** The values of the CVEs of `keys` that have them, by key. */
  of(keys: readonly number[]): Map<number, VulnrichmentRecord> {
    const rows = this.db.all<{ cve_key: number; cve_id: string; exploitation: Exploitation; automatable: YesNo; technical_impact: TechnicalImpact; timestamp: string; version: string }>(
      'SELECT cve_key, cve_id, exploitation, automatable, technical_impact, timestamp, version FROM vulnrichment WHERE cve_key IN (SELECT value FROM json_each(?))',
      [JSON.stringify(keys)],
    );
    return new Map(
      rows.map((row) => [
        row.cve_key,
        { cveId: row.cve_id, exploitation: row.exploitation, automatable: row.automatable, technicalImpact: row.technical_impact, timestamp: row.timestamp, version: row.version },
      ]),
    );
  }
}
