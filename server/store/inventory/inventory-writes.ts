import crypto from 'node:crypto';
import type { SqlValue } from 'sql.js';
import type { Endpoint } from '../../../contracts/endpoint.js';
import type { Inventory } from '../../../contracts/inventory.js';
import type { RemediationTarget } from '../../../contracts/remediation-target.js';
import type { Scope } from '../../../contracts/scope.js';
import type { VulnerabilityFinding } from '../../../contracts/vulnerability-finding.js';
import type { CollectionName } from '../../../contracts/collections.js';
import type { Database } from '../engine/database.js';
import { type InventoryTable, type StoredRow, inventoryTables, tableOf } from '../basics/inventory-ids.js';
import type { SyncChangeTally } from '../basics/change-tally.js';
import { hasAgent } from '../basics/count-check-moves.js';
import { sameUpdate } from './inventory-reads.js';
import { bulkLoadRows } from '../basics/bulk-load.js';

interface Timestamped {
  id: string;
  created_at: string;
}

/** The lists' default order: created_at (as an instant, whatever its offset), then id. */
function inDefaultOrder<T extends Timestamped>(items: readonly T[]): T[] {
  const keyed = items.map((item) => ({ item, at: Date.parse(item.created_at) }));
  keyed.sort((a, b) => a.at - b.at || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0));
  return keyed.map((entry) => entry.item);
}

const lower = (id: string | null) => (id === null ? null : id.toLowerCase());

/** An item's place in the default order; ids compare as stored (lowercase). */
interface SortKey {
  at: number;
  id: string;
}

const sortKey = (item: Timestamped): SortKey => ({ at: Date.parse(item.created_at), id: item.id.toLowerCase() });

function compareKeys(a: SortKey, b: SortKey): number {
  return a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** SQLite's page cache while indexes are rebuilt: 2 MiB (a negative cache_size is KiB). */
const rebuildCacheSize = -2048;

/** Rows added to each collection by a merge. */
export type AddedRows = Record<CollectionName, number>;

/** How a merge writes: whether it leaves out what a row holds as of the same update, and whether it places items after every row. */
interface MergeHow {
  skipUnchanged: boolean;
  placeAtEnd: boolean;
}

/** What a merge did to one collection: the rows it added, and whether its rows are still in the default order. */
interface Merged {
  added: number;
  inOrder: boolean;
}

/** What {@link InventoryWrites.append} found. */
export interface AppendOutcome {
  /** Whether the rows, after those stored before them, are in the default order. */
  inOrder: boolean;
  /** An id the inventory held already (the page's rest is then not written), if any. */
  repeatedId?: string;
}

/**
 * Writes inventories (an organization's `inventory_id` says which it shows; see inventory-ids.ts).
 * Rows are inserted in the lists' default order so that `seq`, the table's rowid, is that order
 * (see migrations.ts).
 */
export class InventoryWrites {
  private readonly cveRefs = new Map<string, number>();
  /** The INSERT of each table, its columns in the order the row objects below list them. */
  private readonly inserts = new Map<InventoryTable, string>();
  /**
   * Row ids of finding texts by title, then description, then solution. Findings of one CVE
   * share these strings (the generator's objects, or equal strings of one sync page), so a
   * lookup hashes strings V8 has mostly hashed already, instead of digesting ~1 KB per finding.
   */
  private readonly textRefs = new Map<string, Map<string | null, Map<string | null, number>>>();

  constructor(private readonly db: Database) {}

  /** Replaces all of an inventory's rows with `inventory`, in the caller's transaction. */
  replace(inventoryId: number, inventory: Inventory): void {
    // A rolled-back transaction may have left ids in the caches that no longer exist.
    this.cveRefs.clear();
    this.textRefs.clear();
    const rows = inventory.endpoints.length + inventory.remediationTargets.length + inventory.findings.length;
    const stored = Object.values(this.counts(inventoryId)).reduce((sum, count) => sum + count, 0);
    // Building an index once from sorted data is far cheaper than updating it row by row, and so
    // is deleting rows that no index has to forget (the indexes are dropped first).
    const rebuild = rows >= bulkLoadRows || stored >= bulkLoadRows ? this.dropIndexes() : [];
    this.deleteAll(inventoryId);
    for (const endpoint of inDefaultOrder(inventory.endpoints)) this.writeEndpoint(inventoryId, endpoint);
    for (const target of inDefaultOrder(inventory.remediationTargets)) this.writeTarget(inventoryId, target);
    for (const scope of inDefaultOrder(inventory.scopes)) this.writeScope(inventoryId, scope);
    for (const finding of inDefaultOrder(inventory.findings)) this.writeFinding(inventoryId, finding);
    this.recreateIndexes(rebuild);
    this.dropUnusedTexts();
  }

  /**
   * Drops the inventory tables' secondary indexes (but, with `keepIds`, those that find an
   * inventory's row by id); returns the statements that recreate them
   * ({@link recreateIndexes}).
   */
  dropIndexes({ keepIds = false } = {}): string[] {
    const indexes = this.db.all<{ name: string; sql: string }>(
      `SELECT name, sql FROM sqlite_master
       WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('endpoints', 'remediation_targets', 'scopes', 'findings')
         AND NOT (? AND name = tbl_name || '_id')`,
      [keepIds ? 1 : 0],
    );
    for (const { name } of indexes) this.db.exec(`DROP INDEX "${name}"`);
    return indexes.map((index) => index.sql);
  }

  /**
   * Recreates indexes {@link dropIndexes} dropped, each built once from the rows, with a small
   * page cache meanwhile: SQLite's sorter keeps keys in memory up to the cache's size before it
   * writes runs out, and the WebAssembly heap it grows into never gives memory back (a rebuild
   * after a replacement of `large` grew it 44 → 87 MiB at the store's 32 MiB cache, not at all at
   * 2 MiB, in the same time).
   */
  recreateIndexes(statements: readonly string[]): void {
    const cacheSize = Number(this.db.value('PRAGMA cache_size'));
    this.db.exec(`PRAGMA cache_size = ${rebuildCacheSize}`);
    try {
      for (const statement of statements) this.db.exec(statement);
    } finally {
      this.db.exec(`PRAGMA cache_size = ${cacheSize}`);
    }
  }

  /**
   * Merges changed and new items into an inventory (upsert by id), in the caller's transaction,
   * keeping `seq` in the default order: an item whose created_at did not change keeps its seq;
   * others are placed by re-inserting only the rows that sort after the first of them, which
   * for new items (usually the newest) is none. Deletes nothing; answers how many rows each
   * collection gained. With a `tally`, counts there what each item changed (a sync's changes).
   * With `skipUnchanged`, an item whose row holds it as of the same update (sameUpdate) is left
   * out, uncounted: an incremental sync's margin brings back what the previous one merged, and
   * the merge reads each item's row anyway, so no lookup of its own is made for them.
   */
  merge(inventoryId: number, changes: Inventory, tally?: SyncChangeTally, { skipUnchanged = false } = {}): AddedRows {
    const merged = this.mergeAll(inventoryId, changes, tally, { skipUnchanged, placeAtEnd: false });
    return { endpoints: merged.endpoints.added, remediationTargets: merged.remediationTargets.added, scopes: merged.scopes.added, findings: merged.findings.added };
  }

  /**
   * Merges as {@link merge} does, but writes the items that need a place (new ones, and those whose
   * created_at changed) after every row, as they come, instead of moving the rows that sort after
   * them: a merge that goes over a whole collection in parts would move the same rows again with
   * each part. Answers, per collection, whether its rows are still in the default order (else
   * the caller puts them in it once, Inventories.putInDefaultOrder).
   */
  mergeAtEnd(inventoryId: number, changes: Inventory, tally: SyncChangeTally): Record<CollectionName, boolean> {
    const merged = this.mergeAll(inventoryId, changes, tally, { skipUnchanged: false, placeAtEnd: true });
    return { endpoints: merged.endpoints.inOrder, remediationTargets: merged.remediationTargets.inOrder, scopes: merged.scopes.inOrder, findings: merged.findings.inOrder };
  }

  private mergeAll(inventoryId: number, changes: Inventory, tally: SyncChangeTally | undefined, how: MergeHow): Record<CollectionName, Merged> {
    this.cveRefs.clear();
    this.textRefs.clear();
    // What the merge changed is told by the rows it reads anyway: each item's stored row, or none.
    const seen = (collection: CollectionName) =>
      tally
        ? (item: object, stored: StoredRow | undefined) => {
            tally.merged(collection, stored !== undefined);
            tally.totals.merged(collection, item, stored);
          }
        : undefined;
    const seenFinding = tally
      ? (finding: VulnerabilityFinding, stored: StoredRow | undefined) => {
          tally.mergedFinding(finding, stored && { status: stored.status as string, severity: stored.severity as string, isKev: stored.is_kev === 1 });
          tally.totals.merged('findings', finding, stored);
        }
      : undefined;
    // Texts a changed finding no longer uses stay until the inventory is replaced by a full sync.
    return {
      endpoints: this.mergeInto('endpoints', inventoryId, changes.endpoints, (item, seq, stored) => this.writeEndpoint(inventoryId, item, seq, stored), seen('endpoints'), how),
      remediationTargets: this.mergeInto(
        'remediation_targets',
        inventoryId,
        changes.remediationTargets,
        (item, seq, stored) => this.writeTarget(inventoryId, item, seq, stored),
        seen('remediationTargets'),
        how,
      ),
      scopes: this.mergeInto('scopes', inventoryId, changes.scopes, (item, seq, stored) => this.writeScope(inventoryId, item, seq, stored), seen('scopes'), how),
      findings: this.mergeInto('findings', inventoryId, changes.findings, (item, seq, stored) => this.writeFinding(inventoryId, item, seq, stored), seenFinding, how),
    };
  }

  /**
   * Appends a page of a collection to an inventory being staged, in the caller's transaction,
   * as it came (a full sync writes pages as they arrive, in the remote's order). Tells whether
   * that order is still the default one, and stops at an id the inventory holds already, or at
   * one of `invalidIds` (ids of the page's items that failed validation) that it holds.
   */
  append<C extends CollectionName>(inventoryId: number, collection: C, items: readonly Inventory[C][number][], invalidIds: readonly string[]): AppendOutcome {
    // Text and CVE row ids of an earlier transaction may have been rolled back or collected since.
    this.cveRefs.clear();
    this.textRefs.clear();
    const table = tableOf[collection];
    const last = this.db.get<{ created_at: string; id: string }>(`SELECT created_at, id FROM ${table} WHERE org_id = ? ORDER BY seq DESC LIMIT 1`, [
      inventoryId,
    ]);
    let previous = last && { at: Date.parse(last.created_at), id: last.id };
    let inOrder = true;
    const holds = (id: string) => this.db.value(`SELECT 1 FROM ${table} WHERE org_id = ? AND id = ?`, [inventoryId, id]) !== undefined;
    for (const item of items as readonly Timestamped[]) {
      const key = sortKey(item);
      if (previous && compareKeys(key, previous) < 0) inOrder = false;
      previous = key;
      try {
        this.writeNew(collection, inventoryId, item);
      } catch (error) {
        // The (org_id, id) index refused it: SQLite undid that statement, the transaction goes on.
        if (holds(key.id)) return { inOrder, repeatedId: key.id };
        throw error;
      }
    }
    const repeatedId = invalidIds.map((id) => id.toLowerCase()).find(holds);
    return repeatedId === undefined ? { inOrder } : { inOrder, repeatedId };
  }

  private writeNew(collection: CollectionName, inventoryId: number, item: Timestamped): void {
    if (collection === 'endpoints') this.writeEndpoint(inventoryId, item as Endpoint);
    else if (collection === 'remediationTargets') this.writeTarget(inventoryId, item as RemediationTarget);
    else if (collection === 'scopes') this.writeScope(inventoryId, item as Scope);
    else this.writeFinding(inventoryId, item as VulnerabilityFinding);
  }

  private mergeInto<T extends Timestamped>(
    table: InventoryTable,
    inventoryId: number,
    items: readonly T[],
    write: (item: T, seq: number | null, stored?: StoredRow) => void,
    seen: ((item: T, stored: StoredRow | undefined) => void) | undefined,
    { skipUnchanged, placeAtEnd }: MergeHow,
  ): Merged {
    const placed: T[] = [];
    let added = 0;
    for (const item of items) {
      const existing = this.db.get<StoredRow>(`SELECT * FROM ${table} WHERE org_id = ? AND id = ?`, [inventoryId, lower(item.id)]);
      if (skipUnchanged && existing && sameUpdate(existing, item)) continue;
      seen?.(item, existing);
      if (!existing) added++;
      if (existing && Date.parse(existing.created_at as string) === Date.parse(item.created_at)) {
        write(item, existing.seq as number, existing);
        continue;
      }
      if (existing) this.db.run(`DELETE FROM ${table} WHERE seq = ?`, [existing.seq!]);
      placed.push(item);
    }
    if (placed.length === 0) return { added, inOrder: true };
    const ordered = inDefaultOrder(placed);
    if (placeAtEnd) {
      // Along the table's seqs from the last (`+org_id`): while a bulk replacement's indexes are dropped, the (org_id, id) index would sort the inventory's rows.
      const last = this.db.get<{ created_at: string; id: string }>(`SELECT created_at, id FROM ${table} WHERE +org_id = ? ORDER BY seq DESC LIMIT 1`, [inventoryId]);
      for (const item of ordered) write(item, null);
      return { added, inOrder: !last || compareKeys({ at: Date.parse(last.created_at), id: last.id }, sortKey(ordered[0]!)) < 0 };
    }
    const tail = this.moveTailAside(table, inventoryId, sortKey(ordered[0]!));
    let copied = 0;
    for (const item of ordered) {
      const key = sortKey(item);
      let end = copied;
      while (end < tail.length && compareKeys(tail[end]!, key) < 0) end++;
      if (end > copied) this.copyBack(table, tail[copied]!.seq, tail[end - 1]!.seq);
      copied = end;
      write(item, null);
    }
    if (copied < tail.length) this.copyBack(table, tail[copied]!.seq, tail[tail.length - 1]!.seq);
    return { added, inOrder: true };
  }

  /**
   * Moves the inventory's rows that sort after `first` to a temporary table and returns their
   * keys in order; reading backwards from the last row stops at once when all sort before.
   */
  private moveTailAside(table: InventoryTable, inventoryId: number, first: SortKey): (SortKey & { seq: number })[] {
    let boundary = 0;
    let before = Number.MAX_SAFE_INTEGER;
    search: for (;;) {
      const rows = this.db.all<{ seq: number; created_at: string; id: string }>(
        `SELECT seq, created_at, id FROM ${table} WHERE org_id = ? AND seq < ? ORDER BY seq DESC LIMIT 1000`,
        [inventoryId, before],
      );
      for (const row of rows) {
        if (compareKeys({ at: Date.parse(row.created_at), id: row.id }, first) < 0) {
          boundary = row.seq;
          break search;
        }
      }
      if (rows.length < 1000) break;
      before = rows[rows.length - 1]!.seq;
    }
    this.db.exec(
      `CREATE TEMP TABLE IF NOT EXISTS tail_${table} AS SELECT * FROM main.${table} WHERE 0;
       CREATE INDEX IF NOT EXISTS temp.tail_${table}_seq ON tail_${table} (seq);
       DELETE FROM temp.tail_${table};`,
    );
    this.db.run(`INSERT INTO temp.tail_${table} SELECT * FROM main.${table} WHERE org_id = ? AND seq > ?`, [inventoryId, boundary]);
    this.db.run(`DELETE FROM main.${table} WHERE org_id = ? AND seq > ?`, [inventoryId, boundary]);
    return this.db
      .all<{ seq: number; created_at: string; id: string }>(`SELECT seq, created_at, id FROM temp.tail_${table} ORDER BY seq`)
      .map((row) => ({ seq: row.seq, at: Date.parse(row.created_at), id: row.id }));
  }

  /** Re-inserts the moved-aside rows with seq from `from` to `to`, in order, with new seqs. */
  private copyBack(table: InventoryTable, from: number, to: number): void {
    const columns = this.columnsOf(table);
    this.db.run(
      `INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM temp.tail_${table} WHERE seq BETWEEN ? AND ? ORDER BY seq`,
      [from, to],
    );
  }

  private readonly columns = new Map<InventoryTable, string>();

  private columnsOf(table: InventoryTable): string {
    let columns = this.columns.get(table);
    if (columns === undefined) {
      const names = this.db.column(`SELECT name FROM pragma_table_info('${table}')`) as string[];
      columns = names.filter((name) => name !== 'seq').join(', ');
      this.columns.set(table, columns);
    }
    return columns;
  }

  /** How many rows of each collection an inventory has, as the caller's transaction sees them. */
  counts(inventoryId: number): Record<CollectionName, number> {
    const count = (table: InventoryTable) => Number(this.db.value(`SELECT count(*) FROM ${table} WHERE org_id = ?`, [inventoryId]));
    return { endpoints: count('endpoints'), remediationTargets: count('remediation_targets'), scopes: count('scopes'), findings: count('findings') };
  }

  /** Deletes every row of an inventory, in the caller's transaction. */
  deleteAll(inventoryId: number): void {
    for (const table of inventoryTables) this.db.run(`DELETE FROM ${table} WHERE org_id = ?`, [inventoryId]);
  }

  /**
   * Drops CVE ids and texts no finding refers to any more: a lookup per CVE and per text along
   * the indexes that lead with cve_ref and text_ref, rather than a pass over every finding.
   */
  dropUnusedTexts(): void {
    this.db.run('DELETE FROM finding_texts WHERE NOT EXISTS (SELECT 1 FROM findings WHERE text_ref = finding_texts.id)');
    this.db.run('DELETE FROM cves WHERE NOT EXISTS (SELECT 1 FROM findings WHERE cve_ref = cves.id)');
    this.cveRefs.clear();
    this.textRefs.clear();
  }

  /**
   * Writes a row: a new one, or, given the row stored at its `seq`, only the columns whose
   * values changed, so that only the indexes over those columns are touched (a merged finding
   * usually changes its status and timestamps; findings have 13 indexes).
   */
  private writeRow(table: InventoryTable, row: StoredRow, stored?: StoredRow): void {
    if (!stored) {
      let insert = this.inserts.get(table);
      if (!insert) {
        const columns = Object.keys(row);
        this.inserts.set(table, (insert = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`));
      }
      this.db.run(insert, Object.values(row));
      return;
    }
    const changed = Object.keys(row).filter((column) => row[column] !== stored[column]);
    if (changed.length === 0) return;
    this.db.run(`UPDATE ${table} SET ${changed.map((column) => `${column} = ?`).join(', ')} WHERE seq = ?`, [
      ...changed.map((column) => row[column]!),
      stored.seq!,
    ]);
  }

  private writeEndpoint(inventoryId: number, e: Endpoint, seq: number | null = null, stored?: StoredRow): void {
    const os = e.operating_system;
    this.writeRow(
      'endpoints',
      {
        seq, org_id: inventoryId, id: lower(e.id), hostname: e.hostname, ip: e.ip, mac_address: e.mac_address, os_name: os.name,
        os_version: os.version, os_family: os.family, os_vendor: os.vendor, os_architecture: os.architecture,
        agent_id: lower(e.agent_id), agent_version: e.agent_version, has_agent: Number(hasAgent(e)),
        created_at: e.created_at, updated_at: e.updated_at, updated_ms: Date.parse(e.updated_at),
      },
      stored,
    );
  }

  private writeTarget(inventoryId: number, t: RemediationTarget, seq: number | null = null, stored?: StoredRow): void {
    this.writeRow(
      'remediation_targets',
      {
        seq, org_id: inventoryId, id: lower(t.id), endpoint_id: lower(t.endpoint_id), target_type: t.target_type, vendor: t.vendor,
        product: t.product, version: t.version, install_path: t.install_path, package_name: t.package_name,
        package_manager: t.package_manager, status: t.status, source: t.source, associated_cves: JSON.stringify(t.associated_cves),
        highest_cvss_score: t.highest_cvss_score, created_at: t.created_at, updated_at: t.updated_at, updated_ms: Date.parse(t.updated_at),
      },
      stored,
    );
  }

  private writeScope(inventoryId: number, s: Scope, seq: number | null = null, stored?: StoredRow): void {
    this.writeRow(
      'scopes',
      {
        seq, org_id: inventoryId, id: lower(s.id), name: s.name, description: s.description, status: s.status,
        subject_filter: JSON.stringify(s.subject_filter), endpoint_filter: JSON.stringify(s.endpoint_filter),
        finding_filter: JSON.stringify(s.finding_filter), created_at: s.created_at, updated_at: s.updated_at,
        updated_ms: Date.parse(s.updated_at),
      },
      stored,
    );
  }

  private writeFinding(inventoryId: number, f: VulnerabilityFinding, seq: number | null = null, stored?: StoredRow): void {
    this.writeRow(
      'findings',
      {
        seq, org_id: inventoryId, id: lower(f.id), endpoint_id: lower(f.endpoint_id), remediation_target_id: lower(f.remediation_target_id),
        cve_ref: this.cveRef(f.cve_id), text_ref: this.textRef(f.title, f.description, f.solution), severity: f.severity,
        cvss_score: f.cvss_score, is_kev: f.is_kev ? 1 : 0, status: f.status, source: f.source, first_detected_at: f.first_detected_at,
        remediated_at: f.remediated_at, created_at: f.created_at, updated_at: f.updated_at, updated_ms: Date.parse(f.updated_at),
      },
      stored,
    );
  }

  private cveRef(cveId: string): number {
    const key = cveId.toUpperCase();
    let ref = this.cveRefs.get(key);
    if (ref === undefined) {
      this.db.run('INSERT OR IGNORE INTO cves (cve_id) VALUES (?)', [cveId]);
      ref = Number(this.db.value('SELECT id FROM cves WHERE cve_id = ?', [cveId]));
      this.cveRefs.set(key, ref);
    }
    return ref;
  }

  private textRef(title: string, description: string | null, solution: string | null): number {
    let byDescription = this.textRefs.get(title);
    if (!byDescription) this.textRefs.set(title, (byDescription = new Map()));
    let bySolution = byDescription.get(description);
    if (!bySolution) byDescription.set(description, (bySolution = new Map()));
    let ref = bySolution.get(solution);
    if (ref === undefined) {
      ref = this.storeText(title, description, solution);
      bySolution.set(solution, ref);
    }
    return ref;
  }

  /** The row id of a finding text, inserted unless a row has the same text already. */
  private storeText(title: string, description: string | null, solution: string | null): number {
    const fields: SqlValue[] = [title, description, solution];
    const digest = crypto.createHash('sha1').update(JSON.stringify(fields)).digest('base64url');
    this.db.run('INSERT OR IGNORE INTO finding_texts (digest, title, description, solution) VALUES (?, ?, ?, ?)', [digest, ...fields]);
    return Number(this.db.value('SELECT id FROM finding_texts WHERE digest = ?', [digest]));
  }
}
