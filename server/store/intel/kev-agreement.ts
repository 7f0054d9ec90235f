import type { KevAgreement } from '../../../contracts/console/threat-intel-changes.js';
import type { Database } from '../engine/database.js';
import type { ShownInventory } from '../inventory/inventory-ids.js';
import type { ListSearch } from '../inventory/sorted-orders.js';
import type { KevSource } from './kev-catalog.js';

const sourceOfKind: Record<string, KevSource> = { 'cisa-kev': 'cisa', 'eu-kev': 'eu' };

/** Which way the remote's `is_kev` and the current catalogs disagree on an open finding. */
export type KevDisagreement = 'flagged-not-listed' | 'listed-not-flagged';

/** The SQL condition on a finding `f` joined to its `cves` row `c` for each way. */
const disagreementSql: Record<KevDisagreement, string> = {
  'flagged-not-listed': 'f.is_kev = 1 AND NOT EXISTS (SELECT 1 FROM kev_entries k WHERE k.cve_id = upper(c.cve_id))',
  'listed-not-flagged': 'f.is_kev = 0 AND EXISTS (SELECT 1 FROM kev_entries k WHERE k.cve_id = upper(c.cve_id))',
};

/**
 * The rows of the inventory's open findings that disagree `way` with the current catalogs, as
 * a console filter keeps them (seqs ascending); none before a catalog is imported. Keyed by the
 * current catalogs' imports, so that a new catalog reads them anew.
 */
export function kevDisagreeingRows(db: Database, shown: ShownInventory, way: KevDisagreement): ListSearch {
  const imports = db.column("SELECT id FROM intel_imports WHERE kind IN ('cisa-kev', 'eu-kev') AND current = 1 ORDER BY id").join(',');
  return {
    key: `kev-${way}@${imports}`,
    rows: async () =>
      imports === ''
        ? new Int32Array(0)
        : Int32Array.from(
            db.column(`SELECT f.seq FROM findings f JOIN cves c ON c.id = f.cve_ref WHERE f.org_id = ? AND f.status = 'open' AND ${disagreementSql[way]} ORDER BY f.seq`, [
              shown.inventoryId,
            ]) as number[],
          ),
  };
}

/** The current KEV catalogs, CISA's first. */
export function kevCatalogs(db: Database): KevAgreement['catalogs'] {
  return db
    .all<{ kind: string; version: string | null; source_date: string }>("SELECT kind, version, source_date FROM intel_imports WHERE kind IN ('cisa-kev', 'eu-kev') AND current = 1 ORDER BY kind")
    .map((row) => ({ source: sourceOfKind[row.kind]!, version: row.version, source_date: row.source_date }));
}

/**
 * Where the remote's `is_kev` and the current catalogs disagree over the inventory's open
 * findings: those flagged whose CVE no catalog lists, and those of listed CVEs not flagged
 * (kev_entries stores CVE ids upper case, as the catalogs write them).
 */
export function kevAgreement(db: Database, inventoryId: number): KevAgreement {
  const catalogs = kevCatalogs(db);
  const count = (way: KevDisagreement) =>
    catalogs.length === 0
      ? 0
      : Number(db.value(`SELECT count(*) FROM findings f JOIN cves c ON c.id = f.cve_ref WHERE f.org_id = ? AND f.status = 'open' AND ${disagreementSql[way]}`, [inventoryId]));
  return { catalogs, flagged_not_listed: count('flagged-not-listed'), listed_not_flagged: count('listed-not-flagged') };
}
