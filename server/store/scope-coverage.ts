import type { CoverageCounts, UnevaluatedCriterion } from '../../contracts/console/coverage.js';
import { findingSeverities, findingStatuses } from '../../contracts/enums.js';
import type { IdPage } from './console-queries.js';
import { type CoverageColumns, StaleColumnsError, loadCoverageColumns } from './coverage-columns.js';
import type { Database } from './database.js';
import { type StoredScopeFilters, scopeCondition } from './scope-conditions.js';
import { VersionedMemo } from './versioned-memo.js';

/** A scope's coverage: counts, what could not be evaluated, and a page of covered findings. */
export interface ScopeCoverageRows {
  counts: CoverageCounts;
  unevaluated: UnevaluatedCriterion[];
  page: IdPage;
}

/** The coverage gaps of an organization. */
export interface CoverageGapRows {
  candidates: number;
  activeScopes: number;
  counts: CoverageCounts;
  unevaluated: (UnevaluatedCriterion & { scopeId: string })[];
  page: IdPage;
}

/** Paging of covered findings; `status` narrows the page and its total, not the counts. */
export interface CoveragePaging {
  limit: number;
  offset: number;
  status?: string | undefined;
}

/** Findings by index in the columns, ascending (so in list order). */
type FindingIndexes = Int32Array;

interface GapSet {
  gaps: FindingIndexes;
  candidates: number;
  activeScopes: number;
  unevaluated: (UnevaluatedCriterion & { scopeId: string })[];
}

const open = findingStatuses.indexOf('open');
const high = findingSeverities.indexOf('high');
/** How long the gap computation runs before it gives the event loop a turn. */
const sliceMs = 30;
/** Covered sets kept per database version: each is up to 4 bytes per finding. */
const keptSets = 24;

/**
 * Scope coverage and coverage gaps, evaluated in memory over {@link CoverageColumns}: the
 * columns of an organization are read once per database version (in chunks, yielding to the
 * event loop), then a scope is one pass over its organization's findings, and the gaps a pass
 * per active scope over the candidates no earlier scope covered. Covered sets, counts and
 * filtered pages are kept until the next write.
 */
export class ScopeCoverage {
  private readonly columns = new Map<number, Promise<CoverageColumns>>();
  private readonly kept: VersionedMemo;

  constructor(private readonly db: Database) {
    this.kept = new VersionedMemo(db, keptSets);
  }

  /**
   * Which findings a scope covers (see scope-conditions.ts for the matching rules), or
   * undefined when the organization has no such scope.
   */
  async scope(orgRowId: number, scopeId: string, paging: CoveragePaging): Promise<ScopeCoverageRows | undefined> {
    const filtersOf = () =>
      this.db.get<StoredScopeFilters>('SELECT subject_filter, endpoint_filter, finding_filter FROM scopes WHERE org_id = ? AND id = ?', [
        orgRowId,
        scopeId.toLowerCase(),
      ]);
    // An unknown scope is answered without reading the findings.
    if (!filtersOf()) return undefined;
    const columns = await this.currentColumns(orgRowId);
    // From here on nothing awaits, so no write lands between reading the scope and the page.
    const filters = filtersOf();
    if (!filters) return undefined;
    const condition = scopeCondition(filters);
    const key = `scope|${orgRowId}|${scopeId.toLowerCase()}`;
    const covered = this.kept.get(key, () => select(allIndexes(columns.count), condition.bind(columns)));
    return {
      counts: this.kept.get(`${key}|counts`, () => countsOf(columns, covered)),
      unevaluated: condition.unevaluated,
      page: this.page(columns, key, covered, paging),
    };
  }

  /** Open critical, high or KEV findings that no active scope of the organization covers. */
  async gaps(orgRowId: number, paging: CoveragePaging): Promise<CoverageGapRows> {
    for (;;) {
      const columns = await this.currentColumns(orgRowId);
      const key = `gaps|${orgRowId}`;
      // Kept as a promise, so that requests arriving meanwhile wait for the same computation.
      const computing = this.kept.get(key, () => this.computeGaps(orgRowId, columns));
      let set: GapSet;
      try {
        set = await computing;
      } catch (error) {
        if (error instanceof StaleColumnsError) continue;
        throw error;
      }
      if (columns.version !== this.db.version) continue;
      const { gaps, ...summary } = set;
      return { ...summary, counts: this.kept.get(`${key}|counts`, () => countsOf(columns, gaps)), page: this.page(columns, key, gaps, paging) };
    }
  }

  /**
   * The gaps at the columns' version: candidates narrowed by one active scope after another,
   * with a turn of the event loop every {@link sliceMs}. Throws {@link StaleColumnsError} when a
   * write landed during such a turn.
   */
  private async computeGaps(orgRowId: number, columns: CoverageColumns): Promise<GapSet> {
    const scopes = this.db.all<StoredScopeFilters & { id: string }>(
      "SELECT id, subject_filter, endpoint_filter, finding_filter FROM scopes WHERE org_id = ? AND status = 'active' ORDER BY seq",
      [orgRowId],
    );
    const { severity, status, kev } = columns;
    let gaps = select(allIndexes(columns.count), (i) => status[i] === open && (severity[i]! <= high || kev[i] === 1));
    const candidates = gaps.length;
    const unevaluated: GapSet['unevaluated'] = [];
    let sliceStart = performance.now();
    for (const scope of scopes) {
      const condition = scopeCondition(scope);
      unevaluated.push(...condition.unevaluated.map((criterion) => ({ scopeId: scope.id, ...criterion })));
      const covers = condition.bind(columns);
      gaps = select(gaps, (i) => !covers(i));
      if (performance.now() - sliceStart > sliceMs) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (this.db.version !== columns.version) throw new StaleColumnsError();
        sliceStart = performance.now();
      }
    }
    return { gaps, candidates, activeScopes: scopes.length, unevaluated };
  }

  private page(columns: CoverageColumns, key: string, covered: FindingIndexes, paging: CoveragePaging): IdPage {
    const statusCode = paging.status === undefined ? -1 : findingStatuses.indexOf(paging.status as (typeof findingStatuses)[number]);
    const listed =
      statusCode < 0 ? covered : this.kept.get(`${key}|status=${paging.status}`, () => select(covered, (i) => columns.status[i] === statusCode));
    const ids = [...listed.subarray(paging.offset, paging.offset + paging.limit)].map(
      (index) => this.db.value('SELECT id FROM findings WHERE seq = ?', [columns.seq[index]!]) as string,
    );
    return { ids, total: listed.length };
  }

  /**
   * The columns of an organization at the database's current version, read once per version
   * and shared by the requests that wait for them.
   */
  async currentColumns(orgRowId: number): Promise<CoverageColumns> {
    for (;;) {
      let loading = this.columns.get(orgRowId);
      if (!loading) {
        loading = loadCoverageColumns(this.db, orgRowId);
        this.columns.set(orgRowId, loading);
        // A failed or stale read is not kept: the next request reads again.
        loading.catch(() => this.columns.get(orgRowId) === loading && this.columns.delete(orgRowId));
      }
      let columns: CoverageColumns;
      try {
        columns = await loading;
      } catch (error) {
        if (error instanceof StaleColumnsError) continue;
        throw error;
      }
      if (columns.version === this.db.version) return columns;
      if (this.columns.get(orgRowId) === loading) this.columns.delete(orgRowId);
    }
  }
}

function allIndexes(count: number): FindingIndexes {
  const indexes = new Int32Array(count);
  for (let i = 0; i < count; i++) indexes[i] = i;
  return indexes;
}

/** The indexes of `from` that pass `test`, in the same (ascending) order. */
function select(from: FindingIndexes, test: (index: number) => boolean): FindingIndexes {
  const selected = new Int32Array(from.length);
  let count = 0;
  for (const index of from) if (test(index)) selected[count++] = index;
  return selected.slice(0, count);
}

function countsOf(columns: CoverageColumns, covered: FindingIndexes): CoverageCounts {
  const bySeverity = findingSeverities.map(() => 0);
  const endpoints = new Uint8Array(columns.endpoints.id.length);
  const targets = new Uint8Array(columns.targetKind.length);
  let openFindings = 0;
  let endpointCount = 0;
  let targetCount = 0;
  for (const index of covered) {
    bySeverity[columns.severity[index]!]!++;
    if (columns.status[index] === open) openFindings++;
    const endpoint = columns.endpoint[index]!;
    if (endpoint >= 0 && endpoints[endpoint] === 0) {
      endpoints[endpoint] = 1;
      endpointCount++;
    }
    const target = columns.target[index]!;
    if (target >= 0 && targets[target] === 0) {
      targets[target] = 1;
      targetCount++;
    }
  }
  return {
    findings: covered.length,
    openFindings,
    endpoints: endpointCount,
    remediationTargets: targetCount,
    bySeverity: Object.fromEntries(findingSeverities.map((s, i) => [s, bySeverity[i]!])) as CoverageCounts['bySeverity'],
  };
}
