import type { ThreatIntelImport } from '../../../contracts/console/threat-intel.js';
import {
  type IntelChange,
  type IntelChangeCve,
  type IntelSettings,
  intelChangeCvesListed,
  intelChangesKept,
} from '../../../contracts/console/threat-intel-changes.js';
import type { Database } from '../engine/database.js';
import { softwareId } from '../basics/software-id.js';
import { inventoryOf } from '../basics/inventory-ids.js';
import { cveIdOfKey, cveKey } from './cve-key.js';
import { readIntelSettings, saveIntelSettings } from './intel-settings.js';
import type { KevSource } from './kev-catalog.js';

/**
 * What was current before an import wrote anything, to compare with after it: the CVEs the
 * catalog of its source listed, or the EPSS scores of the CVEs some inventory names (with the
 * model); undefined where no file of the kind was current (a first file changes nothing).
 */
export type IntelBefore =
  | { kind: 'kev'; source: KevSource; listed: Set<string> | undefined }
  | { kind: 'epss'; scores: Map<number, number> | undefined; model: string | null };

/** The organizations' open findings of some CVEs: per CVE, its endpoints and the products of its targets. */
interface OpenFindingRow {
  cve_id: string;
  endpoint_id: string | null;
  hostname: string | null;
  vendor: string | null;
  product: string | null;
}

type ChangeWithoutIds = Omit<IntelChange, 'id' | 'recorded_at'>;

/**
 * The SQL of intel_changes (what each import changed for each organization it touches: the
 * CVEs of its open findings newly listed in a KEV catalog, and those whose EPSS crossed the
 * threshold, up or down) and intel_settings (the threshold). A change is recorded in the
 * import's last write, all or nothing with it; the last {@link intelChangesKept} of each
 * organization are kept.
 */
export class IntelChanges {
  constructor(
    private readonly db: Database,
    private readonly clock: () => number,
    /** Writes the settings, as one store write of the `threat-intel` kind (threat-intel.ts). */
    private readonly write: <T>(work: () => T) => T,
  ) {}

  /** The installation's settings; the defaults until some are saved. */
  settings(): IntelSettings {
    return readIntelSettings(this.db);
  }

  /** Saves the settings, in a write of their own. */
  saveSettings(settings: IntelSettings): void {
    this.write(() => saveIntelSettings(this.db, settings));
  }

  /** What a catalog of `source` listed before its import (undefined when none was current). */
  kevBefore(source: KevSource, current: ThreatIntelImport | undefined): IntelBefore {
    const listed = current ? new Set((this.db.column('SELECT cve_id FROM kev_entries WHERE source = ? AND cve_id IS NOT NULL', [source]) as string[]).map((id) => id.toUpperCase())) : undefined;
    return { kind: 'kev', source, listed };
  }

  /** The current EPSS scores of the CVEs some inventory names, before an EPSS import (undefined when none was current). */
  epssBefore(current: ThreatIntelImport | undefined, named: Set<number>): IntelBefore {
    if (!current) return { kind: 'epss', scores: undefined, model: null };
    const rows = this.db.all<{ cve_key: number; epss: number }>('SELECT cve_key, epss FROM epss_current WHERE cve_key IN (SELECT value FROM json_each(?))', [
      JSON.stringify([...named]),
    ]);
    return { kind: 'epss', scores: new Map(rows.map((row) => [row.cve_key, row.epss])), model: current.version };
  }

  /**
   * Records, for each organization with open findings of the CVEs concerned, what the finished
   * import `imported` changed against `before` (in the import's last write, after its figures
   * are written). An import that did not become current, or the first of its kind, records nothing.
   */
  record(imported: ThreatIntelImport, before: IntelBefore): void {
    if (!imported.current) return;
    const threshold = this.settings().epss_threshold;
    let newlyKev: Map<string, { source: KevSource; dateAdded: string }> = new Map();
    let crossed: Map<string, { before: number | null; after: number | null }> = new Map();
    if (before.kind === 'kev') {
      if (!before.listed) return;
      const rows = this.db.all<{ cve_id: string; date_added: string }>('SELECT cve_id, date_added FROM kev_entries WHERE source = ? AND cve_id IS NOT NULL', [before.source]);
      newlyKev = new Map(rows.filter((row) => !before.listed!.has(row.cve_id.toUpperCase())).map((row) => [row.cve_id.toUpperCase(), { source: before.source, dateAdded: row.date_added }]));
    } else {
      if (!before.scores) return;
      crossed = this.crossings(before.scores, threshold);
    }
    const cves = [...newlyKev.keys(), ...crossed.keys()];
    // A new model is news for every organization even where no score crossed: its scores are not comparable with the previous ones.
    const modelChangedFrom = before.kind === 'epss' && before.model !== imported.version ? before.model : null;
    if (cves.length === 0 && modelChangedFrom === null) return;
    const recordedAt = new Date(this.clock()).toISOString();
    const orgIds = this.db.column('SELECT id FROM organizations ORDER BY id') as number[];
    for (const orgRowId of orgIds) {
      const open = this.openFindingsOf(orgRowId, cves);
      const listedOf = (ids: string[], extra: (cveId: string) => Pick<IntelChangeCve, 'source' | 'date_added' | 'epss_before' | 'epss_after'>) =>
        ids.filter((cveId) => open.has(cveId)).map((cveId) => ({ cve_id: cveId, ...extra(cveId), ...open.get(cveId)! }));
      const kevCves = listedOf([...newlyKev.keys()], (cveId) => ({ source: newlyKev.get(cveId)!.source, date_added: newlyKev.get(cveId)!.dateAdded, epss_before: null, epss_after: null }));
      const epssCves = listedOf([...crossed.keys()], (cveId) => ({ source: null, date_added: null, epss_before: crossed.get(cveId)!.before, epss_after: crossed.get(cveId)!.after }));
      if (kevCves.length === 0 && epssCves.length === 0 && modelChangedFrom === null) continue;
      const up = epssCves.filter((cve) => (cve.epss_after ?? 0) >= threshold).length;
      const change: ChangeWithoutIds = {
        import_id: imported.id,
        kind: imported.kind,
        source_date: imported.source_date,
        version: imported.version,
        epss_threshold: before.kind === 'epss' ? threshold : null,
        model_changed_from: modelChangedFrom,
        newly_kev: { total: kevCves.length, cves: kevCves.slice(0, intelChangeCvesListed) },
        epss_crossed: { up, down: epssCves.length - up, cves: epssCves.slice(0, intelChangeCvesListed) },
      };
      this.db.run('INSERT INTO intel_changes (org_id, import_id, recorded_at, change) VALUES (?, ?, ?, ?)', [orgRowId, imported.id, recordedAt, JSON.stringify(change)]);
      this.db.run(
        `DELETE FROM intel_changes WHERE org_id = ? AND id < (SELECT min(id) FROM (SELECT id FROM intel_changes WHERE org_id = ? ORDER BY id DESC LIMIT ${intelChangesKept}))`,
        [orgRowId, orgRowId],
      );
    }
  }

  /** The organization's recorded import changes, newest first. */
  list(orgRowId: number): IntelChange[] {
    return this.db
      .all<{ id: number; recorded_at: string; change: string }>('SELECT id, recorded_at, change FROM intel_changes WHERE org_id = ? ORDER BY id DESC', [orgRowId])
      .map((row) => ({ id: row.id, recorded_at: row.recorded_at, ...(JSON.parse(row.change) as ChangeWithoutIds) }));
  }

  /**
   * The named CVEs whose score crossed `threshold` between `before` and the current figures:
   * from under it to at least it (up) or back (down). A CVE scored on one side only counts as
   * 0 on the other (not scored is no chance the file saw), so a newly scored CVE at 0.2 is up.
   */
  private crossings(before: Map<number, number>, threshold: number): Map<string, { before: number | null; after: number | null }> {
    const keys = new Set([...before.keys(), ...this.namedKeys()]);
    const after = new Map(
      this.db
        .all<{ cve_key: number; epss: number }>('SELECT cve_key, epss FROM epss_current WHERE cve_key IN (SELECT value FROM json_each(?))', [JSON.stringify([...keys])])
        .map((row) => [row.cve_key, row.epss]),
    );
    const crossed = new Map<string, { before: number | null; after: number | null }>();
    for (const key of keys) {
      const was = before.get(key);
      const is = after.get(key);
      if ((was ?? 0) >= threshold !== (is ?? 0) >= threshold) crossed.set(cveIdOfKey(key), { before: was ?? null, after: is ?? null });
    }
    return crossed;
  }

  private namedKeys(): number[] {
    return (this.db.column('SELECT cve_id FROM cves') as string[]).map(cveKey).filter((key) => key !== undefined);
  }

  /** Per CVE (upper case) among `cves`, the organization's open findings' endpoints and plan steps; CVEs with none are absent. */
  private openFindingsOf(orgRowId: number, cves: string[]): Map<string, Pick<IntelChangeCve, 'endpoints' | 'plan_steps'>> {
    const inventoryId = inventoryOf(this.db, orgRowId);
    const rows = this.db.all<OpenFindingRow>(
      `SELECT c.cve_id, f.endpoint_id, e.hostname, t.vendor, t.product
       FROM findings f JOIN cves c ON c.id = f.cve_ref
       LEFT JOIN endpoints e ON e.org_id = f.org_id AND e.id = f.endpoint_id
       LEFT JOIN remediation_targets t ON t.org_id = f.org_id AND t.id = f.remediation_target_id
       WHERE f.org_id = ? AND f.status = 'open' AND c.cve_id IN (SELECT value FROM json_each(?))
       ORDER BY e.hostname, f.endpoint_id`,
      [inventoryId, JSON.stringify(cves)],
    );
    const byCve = new Map<string, Pick<IntelChangeCve, 'endpoints' | 'plan_steps'>>();
    for (const row of rows) {
      const cveId = row.cve_id.toUpperCase();
      let entry = byCve.get(cveId);
      if (!entry) byCve.set(cveId, (entry = { endpoints: [], plan_steps: [] }));
      if (row.endpoint_id !== null && !entry.endpoints.some((endpoint) => endpoint.id === row.endpoint_id)) entry.endpoints.push({ id: row.endpoint_id, hostname: row.hostname });
      const productId = softwareId([row.vendor, row.product]);
      if ((row.vendor !== null || row.product !== null) && !entry.plan_steps.some((step) => step.product_id === productId)) {
        entry.plan_steps.push({ product_id: productId, vendor: row.vendor, product: row.product });
      }
    }
    return byCve;
  }
}
