import { derivedValue } from '../derived/change-kinds.js';
import { findingSeverities, findingStatuses } from '../../../contracts/enums.js';
import type { Database } from '../engine/database.js';
import { TimeSlices } from '../derived/time-slices.js';

/** The coverage columns of an organization's findings (a `CoverageColumns`): read from the inventory. */
export const coverageColumns = derivedValue('coverage columns', ['inventory']);

/**
 * The endpoints findings name, by key. A finding may name an endpoint the replica does not
 * hold: it has a key too (its id is all there is), with no family and `hasAgent` -1.
 */
export interface EndpointColumns {
  id: string[];
  osFamily: (string | null)[];
  /** 1 or 0, -1 when the endpoint is not in the replica. */
  hasAgent: Int8Array;
}

/**
 * What scope subject filters read of a remediation target. Targets that share all of it share
 * one kind, so a filter is evaluated once per kind (about a thousand) rather than per target.
 * A target the replica does not hold has the kind whose fields are all null.
 */
export interface TargetKinds {
  type: (string | null)[];
  vendor: (string | null)[];
  product: (string | null)[];
  version: (string | null)[];
}

/**
 * The facts scope filters read, for every finding of one organization, as parallel typed
 * arrays in the findings' default (seq) order: index `i` is the i-th finding of the list.
 */
export interface CoverageColumns {
  count: number;
  seq: Float64Array;
  /** Index into findingSeverities. */
  severity: Uint8Array;
  /** Index into findingStatuses. */
  status: Uint8Array;
  kev: Uint8Array;
  /** NaN when the finding has no score. */
  cvss: Float64Array;
  /** Month of first detection, as year × 12 + month - 1 (the dashboard's findings over time). */
  firstDetectedMonth: Int32Array;
  /** Endpoint key, -1 when the finding names none. */
  endpoint: Int32Array;
  /** Target key (one per distinct target named), -1 when the finding names none. */
  target: Int32Array;
  /** Kind of each target key. */
  targetKind: Int32Array;
  /** Id of each target key, ascending. */
  targetIds: string[];
  kinds: TargetKinds;
  endpoints: EndpointColumns;
}

const codeOf = (column: string, values: readonly string[]) =>
  `CASE ${column} ${values.map((value, index) => `WHEN '${value}' THEN ${index}`).join(' ')} ELSE 7 END`;

// sql.js pays a call into WebAssembly for every value read, so a chunk of findings comes back
// as one row of comma-separated lists (group_concat) rather than a row per finding. The lists
// of one row name the same findings in the same order.
const factsChunk = `
  SELECT group_concat(seq) AS seqs,
         group_concat(${codeOf('severity', findingSeverities)} | (${codeOf('status', findingStatuses)} << 3) | (is_kev << 6)) AS facts,
         group_concat(coalesce(cvss_score, 'none')) AS scores,
         group_concat(CAST(substr(first_detected_at, 1, 4) AS INTEGER) * 12 + CAST(substr(first_detected_at, 6, 2) AS INTEGER) - 1) AS months
  FROM findings WHERE org_id = ? AND seq >= ? AND seq < ?`;

// Findings grouped by endpoint walk the (org_id, endpoint_id) index: one endpoint lookup per
// endpoint rather than per finding. A chunk comes back as one row whose columns list the same
// endpoints in the same order; ids are UUIDs and families plain words, so commas separate them.
const endpointsChunk = `
  SELECT group_concat(g.endpoint_id) AS ids, group_concat(coalesce(e.os_family, '')) AS families,
         group_concat(coalesce(e.has_agent, -1)) AS agents, group_concat(g.seqs, ';') AS findings
  FROM (SELECT endpoint_id, group_concat(seq) AS seqs FROM findings
        WHERE org_id = ? AND endpoint_id > ? GROUP BY endpoint_id ORDER BY endpoint_id LIMIT ?) g
  LEFT JOIN endpoints e ON e.org_id = ? AND e.id = g.endpoint_id`;

// The same for targets. A target's kind is a JSON array, which escapes line breaks: kinds are
// one per line. Grouping by kind in SQL would sort every chunk.
const targetsChunk = `
  SELECT max(g.target_id) AS last_id, group_concat(g.target_id) AS ids,
         group_concat(json_array(t.target_type, t.vendor, t.product, t.version), char(10)) AS kinds,
         group_concat(g.seqs, ';') AS findings
  FROM (SELECT remediation_target_id AS target_id, group_concat(seq) AS seqs FROM findings
        WHERE org_id = ? AND remediation_target_id > ? GROUP BY remediation_target_id ORDER BY remediation_target_id LIMIT ?) g
  LEFT JOIN remediation_targets t ON t.org_id = ? AND t.id = g.target_id`;

// Each statement reads about 2,000 findings, a few milliseconds of SQL (more for findings whose
// pages SQLite has not cached); the chunks pause (time-slices.ts) so that other requests are
// answered while the columns load.
const findingsPerChunk = 2_048;
/** Targets have a few findings each, endpoints about fifty. */
const targetsPerChunk = 500;
const endpointsPerChunk = 50;
/** Slots packed between two looks at the clock. */
const slotsBetweenLooks = 65_536;

/**
 * Calls `each` with every integer of a comma-separated list, parsed in place: splitting a list
 * of a million numbers into strings first costs more than the query that made it.
 */
export function forEachInteger(list: string, each: (value: number) => void): void {
  let value = 0;
  for (let i = 0; i < list.length; i++) {
    const code = list.charCodeAt(i);
    if (code === 44) {
      each(value);
      value = 0;
    } else {
      value = value * 10 + code - 48;
    }
  }
  if (list.length) each(value);
}

/**
 * Reads the coverage columns of an inventory in chunks, with turns of the event loop
 * between them; `checkpoint` (of a DerivedCache computation) throws after a turn during which
 * the database was written, since rows read before and after a write do not make one state.
 */
export async function loadCoverageColumns(db: Database, inventoryId: number, checkpoint: () => void): Promise<CoverageColumns> {
  const slices = new TimeSlices(checkpoint);

  // Apart, min and max are each one step along the (org_id) index; together they scan it.
  const first = Number(db.value('SELECT min(seq) FROM findings WHERE org_id = ?', [inventoryId]) ?? 0);
  const last = db.value('SELECT max(seq) FROM findings WHERE org_id = ?', [inventoryId]) ?? null;
  const span = last === null ? 0 : Number(last) - first + 1;
  // Facts are placed by seq (seq - first) as they come, then packed into list order.
  const slotFacts = new Int16Array(span).fill(-1);
  const slotCvss = new Float64Array(span);
  const slotMonth = new Int32Array(span);
  for (let from = first; from < first + span; from += findingsPerChunk) {
    const chunk = db.get<{ seqs: string | null; facts: string; scores: string; months: string }>(factsChunk, [inventoryId, from, from + findingsPerChunk])!;
    if (chunk.seqs !== null) {
      const facts = chunk.facts.split(',');
      const scores = chunk.scores.split(',');
      const months = chunk.months.split(',');
      let i = 0;
      forEachInteger(chunk.seqs, (seq) => {
        slotFacts[seq - first] = Number(facts[i]);
        // 'none' becomes NaN, which no threshold passes.
        slotCvss[seq - first] = Number(scores[i]);
        slotMonth[seq - first] = Number(months[i++]);
      });
    }
    await slices.pause();
  }

  let count = 0;
  for (let s = 0; s < span; s++) {
    if (s % slotsBetweenLooks === 0) await slices.pause();
    if (slotFacts[s]! >= 0) count++;
  }
  const columns = {
    seq: new Float64Array(count),
    severity: new Uint8Array(count),
    status: new Uint8Array(count),
    kev: new Uint8Array(count),
    cvss: new Float64Array(count),
    firstDetectedMonth: new Int32Array(count),
    endpoint: new Int32Array(count).fill(-1),
    target: new Int32Array(count).fill(-1),
  };
  // slot: seq - first → index in list order.
  const slot = new Int32Array(span);
  let index = 0;
  for (let s = 0; s < span; s++) {
    if (s % slotsBetweenLooks === 0) await slices.pause();
    const facts = slotFacts[s]!;
    slot[s] = facts < 0 ? -1 : index;
    if (facts < 0) continue;
    columns.seq[index] = s + first;
    columns.severity[index] = facts & 7;
    columns.status[index] = (facts >> 3) & 7;
    columns.kev[index] = facts >> 6;
    columns.cvss[index] = slotCvss[s]!;
    columns.firstDetectedMonth[index] = slotMonth[s]!;
    index++;
  }
  const assign = (into: Int32Array, seqs: string, key: number) => {
    forEachInteger(seqs, (seq) => (into[slot[seq - first]!] = key));
  };

  const endpoints = { id: [] as string[], osFamily: [] as (string | null)[], hasAgent: [] as number[] };
  for (let after = ''; ; ) {
    const chunk = db.get<{ ids: string | null; families: string; agents: string; findings: string }>(endpointsChunk, [
      inventoryId,
      after,
      endpointsPerChunk,
      inventoryId,
    ])!;
    const ids = chunk.ids?.split(',') ?? [];
    if (chunk.ids !== null) {
      const families = chunk.families.split(',');
      const agents = chunk.agents.split(',');
      chunk.findings.split(';').forEach((seqs, i) => {
        assign(columns.endpoint, seqs, endpoints.id.length);
        endpoints.id.push(ids[i]!);
        endpoints.osFamily.push(families[i] || null);
        endpoints.hasAgent.push(Number(agents[i]));
        if (ids[i]! > after) after = ids[i]!;
      });
    }
    await slices.pause();
    if (ids.length < endpointsPerChunk) break;
  }

  const kinds: TargetKinds = { type: [], vendor: [], product: [], version: [] };
  const kindKeys = new Map<string, number>();
  const targetKind: number[] = [];
  const targetIds: string[] = [];
  for (let after = ''; ; ) {
    const chunk = db.get<{ last_id: string | null; ids: string; kinds: string; findings: string }>(targetsChunk, [
      inventoryId,
      after,
      targetsPerChunk,
      inventoryId,
    ])!;
    if (chunk.last_id === null) break;
    const findings = chunk.findings.split(';');
    targetIds.push(...chunk.ids.split(','));
    chunk.kinds.split('\n').forEach((name, i) => {
      let kind = kindKeys.get(name);
      if (kind === undefined) {
        kind = kinds.type.length;
        kindKeys.set(name, kind);
        const [type, vendor, product, version] = JSON.parse(name) as (string | null)[];
        kinds.type.push(type!);
        kinds.vendor.push(vendor!);
        kinds.product.push(product!);
        kinds.version.push(version!);
      }
      assign(columns.target, findings[i]!, targetKind.length);
      targetKind.push(kind);
    });
    after = chunk.last_id;
    await slices.pause();
    if (findings.length < targetsPerChunk) break;
  }

  return {
    count,
    ...columns,
    targetKind: Int32Array.from(targetKind),
    targetIds,
    kinds,
    endpoints: { ...endpoints, hasAgent: Int8Array.from(endpoints.hasAgent) },
  };
}
