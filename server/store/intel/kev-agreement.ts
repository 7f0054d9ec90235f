import type { KevAgreement } from '../../../contracts/console/threat-intel-changes.js';
import type { Database } from '../engine/database.js';
import type { ShownInventory } from '../basics/inventory-ids.js';
import type { ListSearch } from '../inventory/sorted-orders.js';
import type { KevSource } from './kev-catalog.js';

const sourceOfKind: Record<string, KevSource> = { 'cisa-kev': 'cisa', 'eu-kev': 'eu' };

/** Which way the remote's `is_kev` and the current catalogs disagree on an open finding. */
export type KevDisagreement = 'flagged-not-listed' | 'listed-not-flagged';

/**
 * The SQL condition on an open finding of each way, given `?` the JSON list of the `cves` rows a
 * current catalog lists: a few thousand CVEs, so that the findings are read by the indexes of
 * their kev flag or their CVE rather than joined one by one to the catalogs.
 */
const disagreementSql: Record<KevDisagreement, string> = {
  'flagged-not-listed': "status = 'open' AND is_kev = 1 AND cve_ref NOT IN (SELECT value FROM json_each(?))",
  'listed-not-flagged': "cve_ref IN (SELECT value FROM json_each(?)) AND status = 'open' AND is_kev = 0",
};

/** The ids of the `cves` rows (of every inventory) that a current catalog lists, as JSON (kev_entries stores CVE ids upper case). */
function listedCveRefs(db: Database): string {
  return JSON.stringify(db.column('SELECT id FROM cves WHERE upper(cve_id) IN (SELECT cve_id FROM kev_entries WHERE cve_id IS NOT NULL)'));
}

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
            db.column(`SELECT seq FROM findings WHERE org_id = ? AND ${disagreementSql[way]} ORDER BY seq`, [shown.inventoryId, listedCveRefs(db)]) as number[],
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
 * findings: those flagged whose CVE no catalog lists, and those of listed CVEs not flagged.
 */
export function kevAgreement(db: Database, inventoryId: number): KevAgreement {
  const catalogs = kevCatalogs(db);
  const listed = catalogs.length === 0 ? '[]' : listedCveRefs(db);
  const count = (way: KevDisagreement) =>
    catalogs.length === 0 ? 0 : Number(db.value(`SELECT count(*) FROM findings WHERE org_id = ? AND ${disagreementSql[way]}`, [inventoryId, listed]));
  return { catalogs, flagged_not_listed: count('flagged-not-listed'), listed_not_flagged: count('listed-not-flagged') };
}
