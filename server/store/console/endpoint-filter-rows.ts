import type { Conditions } from '../basics/collection-tables.js';
import { type EndpointContextSource, type EndpointSelection, endpointTest, selectionKey, selects } from '../basics/endpoint-selection.js';
import { type CoverageColumns, forEachInteger } from '../basics/coverage-columns.js';
import type { Database } from '../engine/database.js';
import { type ChangeVersions, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { type ShownInventory, checkStillShown } from '../basics/inventory-ids.js';
import { TimeSlices } from '../derived/time-slices.js';

// The values this file keeps, by name and the kinds of change they are read from (derived/change-kinds.ts).
const rowsByEndpoint = derivedValue('rows filtered by endpoint', ['inventory']);
const rowsByEndpointContext = derivedValue('rows filtered by endpoint context', ['inventory', 'endpoint-context']);

/** Endpoints whose rows one statement lists: some fifty findings each, a few milliseconds of SQL. */
const endpointsPerChunk = 64;
/** Endpoint ids read per statement. */
const endpointIdsPerChunk = 2_048;
/** Slots or findings swept between two looks at the clock. */
const slotsBetweenLooks = 65_536;

/**
 * The inventory tables whose rows name an endpoint in `endpoint_id`, indexed by (org_id,
 * endpoint_id), and the endpoints themselves (whose rows are their own endpoint).
 */
export type TableWithEndpoints = 'findings' | 'remediation_targets' | 'endpoints';

/**
 * The rows of findings or remediation targets whose endpoint a filter of the endpoints' list
 * keeps (the console's `osFamily` and `hasAgent` of those lists, contracts/list-queries.ts
 * `byEndpoint`), and of endpoints, findings or targets whose endpoint a selection by local
 * context keeps (`tag`, `criticality`), as seqs ascending: the endpoints' own index picks the
 * endpoints (a few thousand ids), the context (basics/endpoint-selection.ts) narrows them; an
 * endpoint's row is its own, a finding's endpoint is read from the findings' coverage columns, which the
 * dashboard, coverage and the exposure figures share and `serve` reads ahead; a target's
 * along the (org_id, endpoint_id) index. Kept per filter until the next write; the console's
 * lists narrow them further (sorted-orders.ts) like a search's rows.
 */
export class EndpointFilterRows {
  /** Rows of filters by the endpoints' own facts. Bound: 4M seqs in all (16 MB): at a million findings, the rows of a few filters. */
  private readonly rows: DerivedCache<Int32Array>;
  /** Rows of filters by context too, which its writes change: the same bound. */
  private readonly rowsByContext: DerivedCache<Int32Array>;

  constructor(
    private readonly db: Database,
    versions: ChangeVersions,
    /** The findings' coverage columns of an organization, at the data's current version. */
    private readonly findingColumns: (orgRowId: number) => Promise<CoverageColumns>,
    /** Endpoints' tags and criticality: the rows of a filter by them depend on its writes. */
    private readonly context: EndpointContextSource,
  ) {
    const bound = { weight: 4_000_000, weigh: (rows: Int32Array) => rows.length };
    this.rows = new DerivedCache(versions, rowsByEndpoint, { bound });
    this.rowsByContext = new DerivedCache(versions, rowsByEndpointContext, { bound });
  }

  /**
   * The rows of `table` in the inventory of `shown` whose endpoint matches `endpoints` (a WHERE
   * clause of the endpoints' list over that inventory) and `selection`: rows naming an endpoint
   * the replica does not hold, or none, are never kept.
   */
  of(shown: ShownInventory, table: TableWithEndpoints, endpoints: Conditions, selection?: EndpointSelection): Promise<Int32Array> {
    const cache = selects(selection) ? this.rowsByContext : this.rows;
    return cache.settled(`${table}|${endpoints.key}|${selectionKey(selection)}`, async (checkpoint) => {
      const selected = selects(selection) ? endpointTest(await this.context(shown.orgRowId), selection) : () => true;
      checkpoint();
      checkStillShown(this.db, shown);
      const slices = new TimeSlices(checkpoint);
      const { ids, seqs } = await this.endpointIds(endpoints, selected, slices);
      if (table === 'endpoints') return Int32Array.from(seqs);
      if (table === 'remediation_targets') return this.alongIndex(shown, table, ids, slices);
      const columns = await this.findingColumns(shown.orgRowId);
      // Of the version this computation started on, hence of the inventory checked above.
      checkpoint();
      const kept = new Set(ids);
      const keptKey = Uint8Array.from(columns.endpoints.id, (id) => (kept.has(id) ? 1 : 0));
      const isKept = (i: number) => columns.endpoint[i]! >= 0 && keptKey[columns.endpoint[i]!] === 1;
      let count = 0;
      for (let i = 0; i < columns.count; i++) {
        if (i % slotsBetweenLooks === 0) await slices.pause();
        if (isKept(i)) count++;
      }
      // The columns are in seq order: so are the rows.
      const rows = new Int32Array(count);
      for (let i = 0, found = 0; i < columns.count; i++) {
        if (i % slotsBetweenLooks === 0) await slices.pause();
        if (isKept(i)) rows[found++] = columns.seq[i]!;
      }
      return rows;
    });
  }

  /**
   * The ids and seqs (ascending) of the endpoints `endpoints` matches and `selected` keeps, read
   * along its index (which ends in seq) a chunk at a time.
   */
  private async endpointIds(endpoints: Conditions, selected: (id: string) => boolean, slices: TimeSlices): Promise<{ ids: string[]; seqs: number[] }> {
    const ids: string[] = [];
    const seqs: number[] = [];
    const chunk = `SELECT json_group_array(json_array(seq, id)) AS rows, max(seq) AS last FROM (SELECT seq, id FROM endpoints WHERE ${endpoints.sql} AND seq > ? ORDER BY seq LIMIT ?)`;
    for (let after = -1; ; ) {
      const read = this.db.get<{ rows: string; last: number | null }>(chunk, [...endpoints.params, after, endpointIdsPerChunk])!;
      if (read.last === null) return { ids, seqs };
      for (const [seq, id] of JSON.parse(read.rows) as [number, string][]) {
        if (!selected(id)) continue;
        ids.push(id);
        seqs.push(seq);
      }
      after = read.last;
      await slices.pause();
    }
  }

  /**
   * The rows of `table` naming one of the endpoint `ids`, read along its (org_id, endpoint_id)
   * index in chunks of endpoints with pauses between them: the seqs are marked in a bitmap of
   * the inventory's span and swept out in order, which sorts them in linear time.
   */
  private async alongIndex(shown: ShownInventory, table: TableWithEndpoints, ids: string[], slices: TimeSlices): Promise<Int32Array> {
    const { inventoryId } = shown;
    // Apart, min and max are each one step along the (org_id) index.
    const first = Number(this.db.value(`SELECT min(seq) FROM ${table} WHERE org_id = ?`, [inventoryId]) ?? 0);
    const last = Number(this.db.value(`SELECT max(seq) FROM ${table} WHERE org_id = ?`, [inventoryId]) ?? first - 1);
    const marked = new Uint8Array(last - first + 1);
    let count = 0;
    // CROSS JOIN keeps the listed endpoints the outer loop: each one's rows by the index.
    const chunk = `SELECT group_concat(x.seq) FROM json_each(?) AS listed CROSS JOIN ${table} x ON x.org_id = ? AND x.endpoint_id = listed.value`;
    for (let start = 0; start < ids.length; start += endpointsPerChunk) {
      const seqs = this.db.value(chunk, [JSON.stringify(ids.slice(start, start + endpointsPerChunk)), inventoryId]);
      if (typeof seqs === 'string') {
        forEachInteger(seqs, (seq) => {
          marked[seq - first] = 1;
          count++;
        });
      }
      await slices.pause();
    }
    const rows = new Int32Array(count);
    for (let slot = 0, found = 0; slot < marked.length; slot++) {
      if (slot % slotsBetweenLooks === 0) await slices.pause();
      if (marked[slot] === 1) rows[found++] = slot + first;
    }
    return rows;
  }
}
