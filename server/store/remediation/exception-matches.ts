import crypto from 'node:crypto';
import type { ExceptionScope, FindingException } from '../../../contracts/console/exceptions.js';
import type { CoverageColumns } from '../basics/coverage-columns.js';
import type { Database } from '../engine/database.js';
import { type ChangeVersions, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { type ExceptedFindings, exceptedFindings } from '../basics/excepted-findings.js';
import type { InForceException } from './exception-records.js';
import type { CoverageColumnSource } from '../exposure/exposure-figures.js';
import { inventoryOf } from '../basics/inventory-ids.js';
import { TimeSlices } from '../derived/time-slices.js';

// The values this file keeps, by name and the kinds of change they are read from (derived/change-kinds.ts).
/** The findings each exception scope covers, by column index: read from the inventory. */
export const exceptionScopeFindings = derivedValue('findings of exception scopes', ['inventory']);

/** Findings read per statement of a CVE's: a few milliseconds of SQL. */
const seqsPerChunk = 2_048;

/** A short digest of a value's JSON: what names a scope, or a set of exceptions, in a cache key. */
function digest(value: unknown): string {
  return crypto.createHash('sha1').update(JSON.stringify(value)).digest('base64url');
}

/** The position of each seq (ascending) in the columns' seqs (ascending), by binary search; seqs the columns lack are left out. */
function columnIndexes(columns: CoverageColumns, seqs: number[]): Int32Array {
  const indexes: number[] = [];
  for (const seq of seqs) {
    let low = 0;
    let high = columns.count - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const at = columns.seq[middle]!;
      if (at === seq) {
        indexes.push(middle);
        break;
      }
      if (at < seq) low = middle + 1;
      else high = middle - 1;
    }
  }
  return Int32Array.from(indexes);
}

/** The integers of a comma-separated list (group_concat), none for null. */
const integers = (list: string | null): number[] => (list === null ? [] : list.split(',').map(Number));

/**
 * Which findings exceptions cover, as indexes of the findings' coverage columns
 * (coverage-columns.ts), computed per version of the data: each scope's findings once
 * (a CVE's along the (cve_ref, org_id) index, in chunks; an endpoint's or a finding's along
 * theirs), and the mask of the exceptions in force, keyed by the data's version and the
 * exceptions themselves (their ids and scopes), so that an exception made, revoked or expired
 * changes the key with no write of the data, and an edit of a note or an expiry in the future
 * does not.
 */
export class ExceptionMatches {
  /** Each scope's findings, by organization and scope. Bound: 4M findings in all (16 MB). */
  private readonly matches: DerivedCache<Int32Array>;
  /** The masks of the exceptions in force, by organization and set. Bound: 16 (a byte per finding: 1 MB for a million). */
  private readonly masks: DerivedCache<ExceptedFindings>;

  constructor(
    private readonly db: Database,
    private readonly versions: ChangeVersions,
    private readonly coverage: CoverageColumnSource,
  ) {
    this.matches = new DerivedCache(versions, exceptionScopeFindings, { bound: { weight: 4_000_000, weigh: (indexes) => indexes.length } });
    this.masks = new DerivedCache(versions, exceptedFindings, { bound: { entries: 16 } });
  }

  /** The findings a scope names in the organization's data now, as ascending indexes of its coverage columns. */
  matched(orgRowId: number, scope: ExceptionScope): Promise<Int32Array> {
    return this.matches.settled(`${orgRowId}|${digest(scope)}`, async (checkpoint) => {
      const columns = await this.coverage.currentColumns(orgRowId);
      checkpoint();
      const seqs = await this.seqsOf(inventoryOf(this.db, orgRowId), scope, new TimeSlices(checkpoint));
      return columnIndexes(columns, seqs.sort((a, b) => a - b));
    });
  }

  /**
   * The key of the excepted findings of the organization when `inForce` are the exceptions in
   * force: the data's version, then {@link exceptionsKey}.
   */
  keyOf(orgRowId: number, inForce: readonly InForceException[]): string {
    return `${this.versions.version(exceptedFindings)}|${this.exceptionsKey(orgRowId, inForce)}`;
  }

  /** The findings that `inForce`, the organization's exceptions in force, leave out, with their key. */
  excepted(orgRowId: number, inForce: readonly InForceException[]): Promise<ExceptedFindings> {
    if (inForce.length === 0) return Promise.resolve({ key: this.keyOf(orgRowId, inForce), byColumn: new Uint8Array(0), count: 0 });
    // The cache follows the data's version itself: its key names the exceptions.
    return this.masks.settled(this.exceptionsKey(orgRowId, inForce), async (checkpoint) => {
      const columns = await this.coverage.currentColumns(orgRowId);
      checkpoint();
      const byColumn = new Uint8Array(columns.count);
      let count = 0;
      for (const exception of inForce) {
        const matched = await this.matched(orgRowId, exception.scope);
        checkpoint();
        for (const index of matched) {
          if (byColumn[index] === 1) continue;
          byColumn[index] = 1;
          count++;
        }
      }
      return { key: this.keyOf(orgRowId, inForce), byColumn, count };
    });
  }

  /** The organization and a digest of the ids and scopes of its exceptions in force (none: empty). */
  private exceptionsKey(orgRowId: number, inForce: readonly InForceException[]): string {
    return `${orgRowId}|${inForce.length ? digest(inForce.map(({ id, scope }) => [id, scope])) : ''}`;
  }

  /** The seqs of an inventory's findings a scope names, in no particular order. */
  private async seqsOf(inventoryId: number, scope: ExceptionScope, slices: TimeSlices): Promise<number[]> {
    if (scope.kind === 'finding') {
      const seq = this.db.value('SELECT seq FROM findings WHERE org_id = ? AND id = ?', [inventoryId, scope.finding_id]);
      return seq === undefined || seq === null ? [] : [Number(seq)];
    }
    const cveRef = this.db.value('SELECT id FROM cves WHERE cve_id = ?', [scope.cve_id]);
    if (cveRef === undefined || cveRef === null) return [];
    const seqs: number[] = [];
    if (scope.kind === 'cve_on_endpoints') {
      for (const endpointId of scope.endpoint_ids) {
        // The unary + keeps SQLite on the endpoint's findings (about fifty) rather than the CVE's (thousands).
        const list = this.db.value('SELECT group_concat(seq) FROM findings WHERE org_id = ? AND endpoint_id = ? AND +cve_ref = ?', [
          inventoryId,
          endpointId,
          cveRef,
        ]);
        seqs.push(...integers((list ?? null) as string | null));
        await slices.pause();
      }
      return seqs;
    }
    for (let after = -1; ; ) {
      const chunk = this.db.get<{ seqs: string | null; last: number | null }>(
        'SELECT group_concat(seq) AS seqs, max(seq) AS last FROM (SELECT seq FROM findings WHERE cve_ref = ? AND org_id = ? AND seq > ? ORDER BY seq LIMIT ?)',
        [cveRef, inventoryId, after, seqsPerChunk],
      )!;
      const read = integers(chunk.seqs);
      seqs.push(...read);
      if (read.length < seqsPerChunk) return seqs;
      after = chunk.last!;
      await slices.pause();
    }
  }
}

/** What a finding's mark is read from: its /v1 id, CVE id and endpoint id. */
export interface FindingKeys {
  id: string;
  cve_id: string;
  endpoint_id: string | null;
}

/**
 * The exception each finding is under, among `inForce`: of those that cover it, the one that
 * expires last (it is what keeps the finding out longest), then the first by id.
 */
export function findingMarks(inForce: readonly InForceException[]): (finding: FindingKeys) => FindingException {
  const byFinding = new Map<string, InForceException[]>();
  const byCve = new Map<string, { exception: InForceException; endpoints?: Set<string> }[]>();
  for (const exception of inForce) {
    const { scope } = exception;
    if (scope.kind === 'finding') byFinding.set(scope.finding_id, [...(byFinding.get(scope.finding_id) ?? []), exception]);
    else {
      const endpoints = scope.kind === 'cve_on_endpoints' ? new Set(scope.endpoint_ids) : undefined;
      byCve.set(scope.cve_id, [...(byCve.get(scope.cve_id) ?? []), { exception, endpoints }]);
    }
  }
  return (finding) => {
    let chosen: InForceException | undefined;
    const consider = (exception: InForceException) => {
      if (!chosen || exception.expiresMs > chosen.expiresMs || (exception.expiresMs === chosen.expiresMs && exception.id < chosen.id)) chosen = exception;
    };
    byFinding.get(finding.id.toLowerCase())?.forEach(consider);
    for (const { exception, endpoints } of byCve.get(finding.cve_id.toUpperCase()) ?? []) {
      if (!endpoints || (finding.endpoint_id !== null && endpoints.has(finding.endpoint_id.toLowerCase()))) consider(exception);
    }
    return chosen ? { id: chosen.id, reason: chosen.reason, expires_at: chosen.expires_at } : null;
  };
}
