import type { SqlValue } from 'sql.js';
import type { KevListingItem } from '../../../contracts/console/exploit-intel.js';
import type { CveIntel } from './cve-intel.js';
import { type FindingIntelFilter, intelFilterTest } from './intel-filters.js';
import type { Database } from '../engine/database.js';
import { type ChangeVersions, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { TimeSlices } from '../derived/time-slices.js';
import { forEachInteger } from '../basics/coverage-columns.js';
import { type ShownInventory, checkStillShown } from '../basics/inventory-ids.js';
import type { ListSearch, FigureSort } from '../inventory/sorted-orders.js';
import { RowsPerWrite } from '../inventory/rows-per-write.js';
import { cveKey } from './cve-key.js';
import type { KevSource } from './kev-catalog.js';

/** The CVE of each finding of an inventory, by seq: `refs[seq - first]` is its cves row id (-1 between findings). */
export interface FindingCves {
  first: number;
  refs: Int32Array;
}

// The values this file keeps, by name and the kinds of change they are read from (derived/change-kinds.ts).
const cveIntelligence = derivedValue('CVE intelligence', ['inventory', 'threat-intel']);
const findingCveColumns = derivedValue('CVEs of the findings', ['inventory']);
const intelFilteredFindings = derivedValue('findings kept by intelligence filters', ['inventory', 'threat-intel']);
const epssSortValues = derivedValue('EPSS sort values of the findings', ['inventory', 'threat-intel']);
/** The imported intelligence as written: a key kept under the inventory's version alone names its version (`FindingIntel.version`). */
const importedIntel = derivedValue('imported intelligence as written', ['threat-intel']);

/**
 * CVEs whose findings are read per statement, as many as keep a read near 10 ms: a CVE has from
 * one finding to tens of thousands (on `large`, 576 CVEs share a million findings, and a fixed
 * 64 of them were 80 ms of CPU in one turn, in every EPSS import's recomputation).
 */
const cvesPerRead = () => new RowsPerWrite(1, 256, 10);
/** Findings looked at between two looks at the clock. */
const findingsBetweenLooks = 65_536;

/** The console's JSON members of a CVE's intelligence (contracts/console/exploit-intel.ts `findingIntelShape`), without braces. */
function intelMembers(intel: CveIntel, ref: number | undefined): string {
  const epss = ref === undefined ? Number.NaN : (intel.epss[ref] ?? Number.NaN);
  const scored = !Number.isNaN(epss);
  const members = {
    epss: scored ? epss : null,
    epss_percentile: scored ? intel.percentile[ref!]! : null,
    epss_score_date: scored ? intel.epssFile!.scoreDate : null,
    epss_model_version: scored ? intel.epssFile!.modelVersion : null,
    epss_state: scored ? 'scored' : intel.epssFile ? 'not-scored' : 'no-file',
    kev: (ref !== undefined && intel.kev.get(ref)) || null,
  };
  return JSON.stringify(members).slice(1, -1);
}

/** Adds one catalog's entry to a CVE's merged KEV listing: the earliest date added, CISA's due date and action, ransomware known if either says so. */
function mergedListing(
  listed: KevListingItem | undefined,
  row: { source: KevSource; date_added: string; due_date: string | null; ransomware: number | null; required_action: string | null },
): KevListingItem {
  const ransomware = row.ransomware === null ? null : row.ransomware === 1;
  if (!listed) return { date_added: row.date_added, due_date: row.due_date, ransomware, required_action: row.required_action, sources: [row.source] };
  return {
    date_added: row.date_added < listed.date_added ? row.date_added : listed.date_added,
    due_date: listed.due_date ?? row.due_date,
    ransomware: listed.ransomware === true || ransomware === true ? true : (listed.ransomware ?? ransomware),
    required_action: listed.required_action ?? row.required_action,
    sources: [...listed.sources, row.source],
  };
}

/**
 * The imported intelligence as the console's findings read it
 * (docs/decisions/exploit-intelligence/intelligence-read-by-cve-row-cached.md): each CVE's
 * EPSS and KEV entry, read once per version of the inventory and the intelligence (the
 * `threat-intel` change kind) for every CVE the store names, and each
 * inventory's finding → CVE column, read once per version of the inventory. A finding's fields,
 * filters and sort by EPSS are then lookups by seq, with no SQL per finding.
 */
export class FindingIntel {
  /** Bound: one value (the CVEs of every inventory: tens of thousands of rows, a few megabytes). */
  private readonly cves: DerivedCache<CveIntel>;
  /** Per inventory. Bound: 4 (4 MB an inventory of a million findings). */
  private readonly findingCves: DerivedCache<FindingCves>;
  /** Per filter and inventory, the findings it keeps. Bound: 4M seqs in all. */
  private readonly filtered: DerivedCache<Int32Array>;
  /** Per inventory, direction and version of the intelligence, each finding's EPSS as the sort compares it. Bound: 4. */
  private readonly sortValues: DerivedCache<Float64Array>;

  constructor(
    private readonly db: Database,
    private readonly versions: ChangeVersions,
  ) {
    this.cves = new DerivedCache(versions, cveIntelligence, { bound: { entries: 1 } });
    this.findingCves = new DerivedCache(versions, findingCveColumns, { bound: { entries: 4 } });
    this.filtered = new DerivedCache(versions, intelFilteredFindings, { bound: { weight: 4_000_000, weigh: (seqs) => seqs.length } });
    this.sortValues = new DerivedCache(versions, epssSortValues, { bound: { entries: 4 } });
  }

  /** The version of the intelligence, which a value kept under the inventory's version alone names in its key. */
  version(): number {
    return this.versions.version(importedIntel);
  }

  /** The intelligence of every CVE the store names, at the current version. */
  cveIntel(): Promise<CveIntel> {
    return this.cves.settled('cves', async (checkpoint) => {
      const slices = new TimeSlices(checkpoint);
      const file = this.db.get<{ source_date: string; version: string | null }>("SELECT source_date, version FROM intel_imports WHERE kind = 'epss' AND current = 1");
      const rows = this.db.all<{ id: number; cve_id: string }>('SELECT id, cve_id FROM cves');
      await slices.pause();
      const size = rows.reduce((max, row) => Math.max(max, row.id), -1) + 1;
      const epss = new Float64Array(size).fill(Number.NaN);
      const percentile = new Float64Array(size).fill(Number.NaN);
      const refOf = new Map<string, number>();
      const refOfKey = new Map<number, number>();
      for (const { id, cve_id } of rows) {
        refOf.set(cve_id.toUpperCase(), id);
        const key = cveKey(cve_id);
        if (key !== undefined) refOfKey.set(key, id);
      }
      if (file) {
        const scored = this.db.all<{ cve_key: number; epss: number; percentile: number }>(
          'SELECT cve_key, epss, percentile FROM epss_current WHERE cve_key IN (SELECT value FROM json_each(?))',
          [JSON.stringify([...refOfKey.keys()])],
        );
        for (const row of scored) {
          const ref = refOfKey.get(row.cve_key)!;
          epss[ref] = row.epss;
          percentile[ref] = row.percentile;
        }
      }
      await slices.pause();
      const kev = new Map<number, KevListingItem>();
      const listings = this.db.all<{ ref: number; source: KevSource; date_added: string; due_date: string | null; ransomware: number | null; required_action: string | null }>(
        `SELECT c.id AS ref, k.source, k.date_added, k.due_date, k.ransomware, k.required_action
         FROM kev_entries k JOIN cves c ON c.cve_id = k.cve_id ORDER BY k.source, k.entry_key`,
      );
      for (const row of listings) kev.set(row.ref, mergedListing(kev.get(row.ref), row));
      return { epssFile: file && { scoreDate: file.source_date, modelVersion: file.version }, epss, percentile, kev, refOf };
    });
  }

  /**
   * The CVE of each finding of the inventory `shown`, by seq: read CVE by CVE along the
   * (cve_ref, org_id) index, which holds each finding's seq, a chunk of CVEs at a time. Reading
   * the findings' own rows instead walks every page of the table (1.7 ms per thousand findings,
   * against a fraction of it here).
   */
  findingCvesOf(shown: ShownInventory): Promise<FindingCves> {
    const { inventoryId } = shown;
    return this.findingCves.settled(String(inventoryId), async (checkpoint) => {
      checkStillShown(this.db, shown);
      const slices = new TimeSlices(checkpoint);
      const first = Number(this.db.value('SELECT min(seq) FROM findings WHERE org_id = ?', [inventoryId]) ?? 0);
      const last = Number(this.db.value('SELECT max(seq) FROM findings WHERE org_id = ?', [inventoryId]) ?? -1);
      const refs = new Int32Array(Math.max(0, last - first + 1)).fill(-1);
      const chunk = `SELECT c.id AS ref, (SELECT group_concat(f.seq) FROM findings f INDEXED BY findings_cve WHERE f.cve_ref = c.id AND f.org_id = ?) AS seqs
                     FROM cves c WHERE c.id > ? ORDER BY c.id LIMIT ?`;
      const perRead = cvesPerRead();
      for (let after = -1; ; ) {
        const started = performance.now();
        const asked = perRead.size;
        const rows = this.db.all<{ ref: number; seqs: string | null }>(chunk, [inventoryId, after, asked]);
        for (const { ref, seqs } of rows) if (seqs !== null) forEachInteger(seqs, (seq) => (refs[seq - first] = ref));
        perRead.took(performance.now() - started);
        if (rows.length < asked) break;
        after = rows.at(-1)!.ref;
        await slices.pause();
      }
      return { first, refs };
    });
  }

  /** A finding's intelligence members by its CVE id, as JSON without braces (console-items.ts appends them to the item). */
  async findingMembers(): Promise<(cveId: string) => string> {
    const intel = await this.cveIntel();
    const members = new Map<number | undefined, string>();
    return (cveId) => {
      const ref = intel.refOf.get(cveId.toUpperCase());
      let text = members.get(ref);
      if (text === undefined) members.set(ref, (text = intelMembers(intel, ref)));
      return text;
    };
  }

  /**
   * The findings of the inventory `shown` an intelligence filter keeps (`epssMin=0.1`), ascending
   * by seq, named by the filter, its value and the intelligence's version (orders kept under the
   * inventory's version alone follow an import through this key).
   */
  filterRows(shown: ShownInventory, filter: FindingIntelFilter, value: unknown): ListSearch {
    const key = `${filter}=${String(value)}@intel${this.version()}`;
    return {
      key,
      rows: () =>
        this.filtered.settled(`${shown.inventoryId}|${key}`, async (checkpoint) => {
          const intel = await this.cveIntel();
          const { first, refs } = await this.findingCvesOf(shown);
          checkpoint();
          const keeps = intelFilterTest(intel, filter, value);
          const kept = new Int32Array(refs.length);
          let count = 0;
          for (let i = 0; i < refs.length; i++) if (refs[i]! >= 0 && keeps(refs[i]!)) kept[count++] = first + i;
          return kept.slice(0, count);
        }),
    };
  }

  /**
   * The findings' sort by EPSS: each finding's score by seq, findings without one (not scored, no
   * file) after every score in both directions, so the order of each direction is kept apart.
   */
  epssSort(shown: ShownInventory, descending: boolean): FigureSort {
    const version = this.version();
    return {
      key: `epss@${version}|${descending ? 'desc' : 'asc'}`,
      lookup: async () => {
        const values = await this.sortValues.settled(`${shown.inventoryId}|${descending}`, async (checkpoint) => {
          const intel = await this.cveIntel();
          const { refs } = await this.findingCvesOf(shown);
          checkpoint();
          // EPSS is within [0, 1]: -1 and 2 put a finding without one last read backwards or forwards.
          const none = descending ? -1 : 2;
          // A million findings, in slices: in one pass they held the thread 60 ms and more on large.
          const slices = new TimeSlices(checkpoint);
          const values = new Float64Array(refs.length);
          for (let i = 0; i < refs.length; i++) {
            if (i % findingsBetweenLooks === 0) await slices.pause();
            const ref = refs[i]!;
            const epss = ref < 0 ? Number.NaN : (intel.epss[ref] ?? Number.NaN);
            values[i] = Number.isNaN(epss) ? none : epss;
          }
          return values;
        });
        const { first } = await this.findingCvesOf(shown);
        return (seq: number): SqlValue => values[seq - first] ?? null;
      },
    };
  }
}
