import type { Database } from '../engine/database.js';
import type { ShownInventory } from '../basics/inventory-ids.js';
import type { ListSearch } from '../inventory/sorted-orders.js';
import { cveKey } from './cve-key.js';

/**
 * The keys of the CVEs whose EPSS rose by at least `rise` over 7 days, as epss-trend.ts computes
 * one CVE's change, for all at once: the newest EPSS import's score less that of the newest
 * kept import of the CVE dated at least 7 days before it (by day), of the same model.
 */
function risingKeys(db: Database, rise: number): Set<number> {
  const keys = db.column(
    `WITH newest AS (SELECT id, source_date, version FROM intel_imports WHERE kind = 'epss' AND finished = 1 ORDER BY source_date DESC, id DESC LIMIT 1),
     earlier AS (
       SELECT h.cve_key, h.epss, i.version, row_number() OVER (PARTITION BY h.cve_key ORDER BY i.source_date DESC, i.id DESC) AS rank
       FROM epss_history h JOIN intel_imports i ON i.id = h.import_id, newest n
       WHERE i.finished = 1 AND date(i.source_date) <= date(n.source_date, '-7 days'))
     SELECT l.cve_key FROM epss_history l JOIN newest n ON l.import_id = n.id JOIN earlier e ON e.cve_key = l.cve_key AND e.rank = 1
     WHERE e.version IS n.version AND round(l.epss - e.epss, 5) >= ?`,
    [rise],
  ) as number[];
  return new Set(keys);
}

/**
 * The rows of the inventory's findings whose CVE's EPSS is rising (the findings list's
 * `epssRising`), seqs ascending. Keyed by the newest EPSS import and the rise setting, so that
 * an import or a new setting reads them anew.
 */
export function epssRisingRows(db: Database, shown: ShownInventory, rise: number): ListSearch {
  const newest = db.value("SELECT id FROM intel_imports WHERE kind = 'epss' AND finished = 1 ORDER BY source_date DESC, id DESC LIMIT 1") ?? 'none';
  return {
    key: `epss-rising@${newest}|${rise}`,
    rows: async () => {
      const rising = risingKeys(db, rise);
      if (rising.size === 0) return new Int32Array(0);
      const cveRefs = db
        .all<{ id: number; cve_id: string }>('SELECT id, cve_id FROM cves')
        .filter((row) => rising.has(cveKey(row.cve_id) ?? -1))
        .map((row) => row.id);
      return Int32Array.from(
        db.column('SELECT seq FROM findings WHERE org_id = ? AND cve_ref IN (SELECT value FROM json_each(?)) ORDER BY seq', [shown.inventoryId, JSON.stringify(cveRefs)]) as number[],
      );
    },
  };
}
