import type { KevAgreement } from '../../../contracts/console/threat-intel-changes.js';
import type { Database } from '../engine/database.js';
import { inventoryOf } from '../inventory/inventory-ids.js';

const kindOfSource = { cisa: 'cisa-kev', eu: 'eu-kev' } as const;

/**
 * Where the remote's `is_kev` and each current KEV catalog disagree over the organization's
 * open findings: those flagged whose CVE the catalog does not list, and those of listed CVEs
 * not flagged. One entry per catalog imported (none before any).
 */
export function kevAgreement(db: Database, orgRowId: number): KevAgreement[] {
  const inventoryId = inventoryOf(db, orgRowId);
  const agreement: KevAgreement[] = [];
  for (const source of ['cisa', 'eu'] as const) {
    const current = db.get<{ version: string | null; source_date: string }>('SELECT version, source_date FROM intel_imports WHERE kind = ? AND current = 1', [kindOfSource[source]]);
    if (!current) continue;
    const counts = db.get<{ flagged_not_listed: number; listed_not_flagged: number }>(
      `SELECT coalesce(sum(f.is_kev = 1 AND l.cve_id IS NULL), 0) AS flagged_not_listed, coalesce(sum(f.is_kev = 0 AND l.cve_id IS NOT NULL), 0) AS listed_not_flagged
       FROM findings f JOIN cves c ON c.id = f.cve_ref
       LEFT JOIN (SELECT DISTINCT upper(cve_id) AS cve_id FROM kev_entries WHERE source = ? AND cve_id IS NOT NULL) l ON l.cve_id = upper(c.cve_id)
       WHERE f.org_id = ? AND f.status = 'open'`,
      [source, inventoryId],
    )!;
    agreement.push({ source, version: current.version, source_date: current.source_date, ...counts });
  }
  return agreement;
}
