import type { ThreatIntelImport } from '../../../contracts/console/threat-intel.js';
import {
  type IntelChange,
  type IntelChangeCve,
  type IntelSettings,
  intelChangeCvesListed,
  intelChangePlacesListed,
  intelChangesKept,
} from '../../../contracts/console/threat-intel-changes.js';
import type { Database } from '../engine/database.js';
import { softwareId } from '../basics/software-id.js';
import { inventoryOf } from '../basics/inventory-ids.js';
import { compareSqlValues } from '../derived/sql-value-order.js';
import { RowsPerWrite } from '../inventory/rows-per-write.js';
import { cveIdOfKey, cveKey } from './cve-key.js';
import { FirstInOrder } from './first-in-order.js';
import { readIntelSettings, saveIntelSettings } from './intel-settings.js';
import type { KevSource } from './kev-catalog.js';
import { keepNewest } from '../basics/keep-newest.js';

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
  seq: number;
  endpoint_id: string | null;
  hostname: string | null;
  vendor: string | null;
  product: string | null;
}

/** Where a CVE's open findings are: its first endpoints and plan steps, with their totals. */
type Places = Pick<IntelChangeCve, 'endpoints' | 'endpoints_total' | 'plan_steps' | 'plan_steps_total'>;

type ChangeWithoutIds = Omit<IntelChange, 'id' | 'recorded_at'>;

/** What an import changed for each organization it touches, computed before its last write ({@link IntelChanges.prepare}). */
export interface PreparedIntelChanges {
  changes: { orgRowId: number; change: ChangeWithoutIds }[];
}

/** The import whose changes are prepared: its record as started (it becomes current: only such an import records changes). */
export type PreparedImport = Pick<ThreatIntelImport, 'id' | 'kind' | 'source_date' | 'version'>;

/** CVEs asked about in one statement: a slice of the work between two pauses. */
const cvesPerStatement = 200;

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
   * What the import `imported`, whose figures are written (held), changed against `before`, for
   * each organization with open findings of the CVEs concerned: read in slices of
   * {@link cvesPerStatement} CVEs with `pause` between them, before the import's last write, so
   * that a file crossing the threshold for thousands of CVEs of a large fleet never holds the
   * thread that answers. Undefined when there is nothing to record (the first file of a kind).
   */
  async prepare(imported: PreparedImport, before: IntelBefore, pause: () => Promise<void>): Promise<PreparedIntelChanges | undefined> {
    const threshold = this.settings().epss_threshold;
    let newlyKev: Map<string, { source: KevSource; dateAdded: string }> = new Map();
    let crossed: Map<string, { before: number | null; after: number | null }> = new Map();
    if (before.kind === 'kev') {
      if (!before.listed) return undefined;
      const rows = this.db.all<{ cve_id: string; date_added: string }>('SELECT cve_id, date_added FROM kev_entries WHERE source = ? AND cve_id IS NOT NULL', [before.source]);
      newlyKev = new Map(rows.filter((row) => !before.listed!.has(row.cve_id.toUpperCase())).map((row) => [row.cve_id.toUpperCase(), { source: before.source, dateAdded: row.date_added }]));
    } else {
      if (!before.scores) return undefined;
      crossed = this.crossings(before.scores, threshold);
    }
    const cves = [...newlyKev.keys(), ...crossed.keys()];
    // A new model is news for every organization even where no score crossed: its scores are not comparable with the previous ones.
    const modelChangedFrom = before.kind === 'epss' && before.model !== imported.version ? before.model : null;
    if (cves.length === 0 && modelChangedFrom === null) return undefined;
    const changes: PreparedIntelChanges['changes'] = [];
    const orgIds = this.db.column('SELECT id FROM organizations ORDER BY id') as number[];
    for (const orgRowId of orgIds) {
      const open = await this.cvesWithOpenFindings(orgRowId, cves, pause);
      const kevIds = [...newlyKev.keys()].filter((cveId) => open.has(cveId));
      const epssIds = [...crossed.keys()].filter((cveId) => open.has(cveId));
      if (kevIds.length === 0 && epssIds.length === 0 && modelChangedFrom === null) continue;
      const listedKev = kevIds.slice(0, intelChangeCvesListed);
      const listedEpss = epssIds.slice(0, intelChangeCvesListed);
      const places = await this.placesOf(orgRowId, [...listedKev, ...listedEpss], pause);
      const up = epssIds.filter((cveId) => (crossed.get(cveId)!.after ?? 0) >= threshold).length;
      changes.push({
        orgRowId,
        change: {
          import_id: imported.id,
          kind: imported.kind,
          source_date: imported.source_date,
          version: imported.version,
          epss_threshold: before.kind === 'epss' ? threshold : null,
          model_changed_from: modelChangedFrom,
          newly_kev: {
            total: kevIds.length,
            cves: listedKev.map((cveId) => ({ cve_id: cveId, source: newlyKev.get(cveId)!.source, date_added: newlyKev.get(cveId)!.dateAdded, epss_before: null, epss_after: null, ...places.get(cveId)! })),
          },
          epss_crossed: {
            up,
            down: epssIds.length - up,
            cves: listedEpss.map((cveId) => ({ cve_id: cveId, source: null, date_added: null, epss_before: crossed.get(cveId)!.before, epss_after: crossed.get(cveId)!.after, ...places.get(cveId)! })),
          },
        },
      });
    }
    return { changes };
  }

  /** Records the prepared changes, in the import's last write (all or nothing with it); keeps each organization's last {@link intelChangesKept}. */
  record(prepared: PreparedIntelChanges): void {
    const recordedAt = new Date(this.clock()).toISOString();
    for (const { orgRowId, change } of prepared.changes) {
      this.db.run('INSERT INTO intel_changes (org_id, import_id, recorded_at, change) VALUES (?, ?, ?, ?)', [orgRowId, change.import_id, recordedAt, JSON.stringify(change)]);
      keepNewest(this.db, 'intel_changes', orgRowId, intelChangesKept);
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

  /** Which of `cves` (upper case) the organization has an open finding of: one look-up per CVE, stopping at its first open finding. */
  private async cvesWithOpenFindings(orgRowId: number, cves: string[], pause: () => Promise<void>): Promise<Set<string>> {
    const inventoryId = inventoryOf(this.db, orgRowId);
    const open = new Set<string>();
    for (let from = 0; from < cves.length; from += cvesPerStatement) {
      const ids = this.db.column(
        `SELECT c.cve_id FROM cves c
         WHERE c.cve_id IN (SELECT value FROM json_each(?))
           AND EXISTS (SELECT 1 FROM findings f WHERE f.org_id = ? AND f.cve_ref = c.id AND f.status = 'open')`,
        [JSON.stringify(cves.slice(from, from + cvesPerStatement)), inventoryId],
      ) as string[];
      for (const id of ids) open.add(id.toUpperCase());
      await pause();
    }
    return open;
  }

  /**
   * Per CVE (upper case) among `cves`, the first {@link intelChangePlacesListed} endpoints (by
   * hostname, then id) and plan steps (by vendor, then product) of the organization's open
   * findings, with their totals: each endpoint and product counted once, by a set. A CVE of a
   * large fleet has thousands of open findings, so they are read a page at a time (by `seq`)
   * with `pause` between pages, and only the first places are kept in order, never all of them
   * sorted. A page is as many rows as keep a statement near 5 ms, and 256 at most: a row reads
   * its finding's, endpoint's and target's pages, scattered over the file (a page of 250 rows
   * took 187 ms on large on a loaded machine, and 60 ms read again).
   */
  private async placesOf(orgRowId: number, cves: string[], pause: () => Promise<void>): Promise<Map<string, Places>> {
    const inventoryId = inventoryOf(this.db, orgRowId);
    const rowsPerPage = new RowsPerWrite(16, 256, 5);
    const byCve = new Map<string, Places>();
    for (const cveId of cves) {
      const cveRef = this.db.value('SELECT id FROM cves WHERE cve_id = ?', [cveId]);
      const endpoints = new FirstInOrder<{ id: string; hostname: string | null }>(intelChangePlacesListed, (a, b) => compareSqlValues(a.hostname, b.hostname) || compareSqlValues(a.id, b.id));
      const steps = new FirstInOrder<{ product_id: string; vendor: string | null; product: string | null }>(
        intelChangePlacesListed,
        (a, b) => compareSqlValues(a.vendor, b.vendor) || compareSqlValues(a.product, b.product),
      );
      const seenEndpoints = new Set<string>();
      const seenProducts = new Set<string>();
      for (let after = -1; cveRef !== undefined; ) {
        const started = performance.now();
        const limit = rowsPerPage.size;
        const rows = this.db.all<OpenFindingRow>(
          `SELECT f.seq, f.endpoint_id, e.hostname, t.vendor, t.product
           FROM findings f
           LEFT JOIN endpoints e ON e.org_id = f.org_id AND e.id = f.endpoint_id
           LEFT JOIN remediation_targets t ON t.org_id = f.org_id AND t.id = f.remediation_target_id
           WHERE f.cve_ref = ? AND f.org_id = ? AND f.seq > ? AND f.status = 'open'
           ORDER BY f.seq LIMIT ?`,
          [cveRef, inventoryId, after, limit],
        );
        for (const row of rows) {
          if (row.endpoint_id !== null && !seenEndpoints.has(row.endpoint_id)) {
            seenEndpoints.add(row.endpoint_id);
            endpoints.offer({ id: row.endpoint_id, hostname: row.hostname });
          }
          const productKey = JSON.stringify([row.vendor, row.product]);
          if ((row.vendor !== null || row.product !== null) && !seenProducts.has(productKey)) {
            seenProducts.add(productKey);
            steps.offer({ product_id: softwareId([row.vendor, row.product]), vendor: row.vendor, product: row.product });
          }
        }
        rowsPerPage.took(performance.now() - started);
        if (rows.length < limit) break;
        after = rows.at(-1)!.seq;
        await pause();
      }
      byCve.set(cveId, { endpoints: endpoints.items, endpoints_total: seenEndpoints.size, plan_steps: steps.items, plan_steps_total: seenProducts.size });
      await pause();
    }
    return byCve;
  }
}
