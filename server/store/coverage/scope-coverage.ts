import type { CoverageCounts, UnevaluatedCriterion } from '../../../contracts/console/coverage.js';
import { findingSeverities, findingStatuses } from '../../../contracts/enums.js';
import type { IdPage } from '../basics/id-page.js';
import { type CoverageColumns, coverageColumns, loadCoverageColumns } from '../basics/coverage-columns.js';
import type { EndpointContextSource } from '../basics/endpoint-selection.js';
import { effectiveEndpointContext } from '../basics/effective-endpoint-context.js';
import type { Database } from '../engine/database.js';
import { inventoryOf } from '../basics/inventory-ids.js';
import { type ChangeVersions, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { type ExceptedFindingsSource, exceptedFindings } from '../basics/excepted-findings.js';
import { onOneVersion } from '../derived/one-version.js';
import { type StoredScopeFilters, scopeCondition } from './scope-conditions.js';
import { TimeSlices } from '../derived/time-slices.js';

// The values this file keeps, by name and the kinds of change they are read from (derived/change-kinds.ts).
const scopeCoverageSets = derivedValue('scope coverage sets', ['inventory', 'endpoint-context']);
const scopeCoverageCounts = derivedValue('scope coverage counts', ['inventory', 'endpoint-context']);
const coverageGaps = derivedValue('coverage gaps', ['inventory', 'endpoint-context']);

/** A scope's coverage: counts, what could not be evaluated, and a page of covered findings. */
export interface ScopeCoverageRows {
  counts: CoverageCounts;
  unevaluated: UnevaluatedCriterion[];
  page: IdPage;
}

/** The coverage gaps of an organization: the page and `counts` leave out the findings exceptions in force leave out. */
export interface CoverageGapRows {
  candidates: number;
  activeScopes: number;
  counts: CoverageCounts;
  countsBeforeExceptions: CoverageCounts;
  unevaluated: (UnevaluatedCriterion & { scopeId: string; scopeName: string })[];
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
  /** The columns the gaps were found in, so that a page reads the same. */
  columns: CoverageColumns;
  gaps: FindingIndexes;
  candidates: number;
  activeScopes: number;
  unevaluated: (UnevaluatedCriterion & { scopeId: string; scopeName: string })[];
}

const open = findingStatuses.indexOf('open');
const high = findingSeverities.indexOf('high');
/**
 * Findings tested between two looks at the clock. A scope's condition on 65,536 findings held
 * the thread 250 ms of CPU (medium, load 8, the technical report's scopes): its tests on tags
 * and text cost microseconds each.
 */
const selectStep = 4_096;

/**
 * Scope coverage and coverage gaps, evaluated in memory over {@link CoverageColumns}: the
 * columns of an organization are read once per database version (in chunks, yielding to the
 * event loop), then a scope is one pass over its organization's findings, and the gaps a pass
 * per active scope over the candidates no earlier scope covered. Covered sets, counts and
 * filtered pages are kept until the next write.
 */
export class ScopeCoverage {
  /** The columns of each organization. Bound: 16 organizations (about 31 MB for a million findings). */
  private readonly columns: DerivedCache<CoverageColumns>;
  /**
   * Covered sets of scopes and of the gaps, and their status-filtered subsets. Bound: 24M
   * findings in all (4 bytes each: 96 MB), what 24 sets of a million findings hold.
   */
  private readonly sets: DerivedCache<FindingIndexes>;
  /** The counts of those sets. Bound: 1,000, a few numbers each. */
  private readonly counts: DerivedCache<CoverageCounts>;
  /** The gaps of each organization. Bound: 16 organizations, as the columns they are found in. */
  private readonly gapSets: DerivedCache<GapSet>;

  constructor(
    private readonly db: Database,
    private readonly versions: ChangeVersions,
    private readonly excepted: ExceptedFindingsSource,
    /** Tags of endpoints, which scopes' tag criteria read: the sets, counts and gaps depend on its writes. */
    private readonly context: EndpointContextSource,
  ) {
    this.columns = new DerivedCache(versions, coverageColumns, { bound: { entries: 16 } });
    this.sets = new DerivedCache(versions, scopeCoverageSets, { bound: { weight: 24_000_000, weigh: (set) => set.length } });
    this.counts = new DerivedCache(versions, scopeCoverageCounts, { bound: { entries: 1_000 } });
    this.gapSets = new DerivedCache(versions, coverageGaps, { bound: { entries: 16 } });
  }

  /**
   * Which findings a scope covers (see scope-conditions.ts for the matching rules), or
   * undefined when the organization has no such scope.
   */
  async scope(orgRowId: number, scopeId: string, paging: CoveragePaging): Promise<ScopeCoverageRows | undefined> {
    const filtersOf = () =>
      this.db.get<StoredScopeFilters>('SELECT subject_filter, endpoint_filter, finding_filter FROM scopes WHERE org_id = ? AND id = ?', [
        inventoryOf(this.db, orgRowId),
        scopeId.toLowerCase(),
      ]);
    // An unknown scope is answered without reading the findings.
    if (!filtersOf()) return undefined;
    const key = `scope|${orgRowId}|${scopeId.toLowerCase()}`;
    // The set, the columns, the context and the scope of one version: read again after a write meanwhile.
    return onOneVersion(this.versions, [scopeCoverageSets, coverageColumns, effectiveEndpointContext], async () => {
      // Computed in slices, once however many requests arrive meanwhile; started again after a write.
      const covered = await this.sets.settled(key, async (checkpoint) => {
        const context = await this.context(orgRowId);
        const columns = await this.currentColumns(orgRowId);
        checkpoint();
        const filters = filtersOf();
        // A scope removed by a write meanwhile covers nothing, and is answered as unknown below.
        if (!filters) return new Int32Array(0);
        return selectInSlices(allIndexes(columns.count), scopeCondition(filters, context).bind(columns), new TimeSlices(checkpoint));
      });
      // The columns and the context are kept at this version, so this awaits nothing but
      // themselves, unless they were dropped for others.
      const columns = await this.currentColumns(orgRowId);
      const context = await this.context(orgRowId);
      const filters = filtersOf();
      if (!filters) return undefined;
      return {
        counts: this.counts.getOrCompute(key, () => countsOf(columns, covered)),
        unevaluated: scopeCondition(filters, context).unevaluated,
        page: this.page(columns, key, covered, paging),
      };
    });
  }

  /**
   * Open critical, high or KEV findings that no active scope of the organization covers, and
   * that no exception in force leaves out; the counts before exceptions beside.
   */
  async gaps(orgRowId: number, paging: CoveragePaging): Promise<CoverageGapRows> {
    const key = `gaps|${orgRowId}`;
    // The excepted findings and the gaps of one version: read again after a write meanwhile.
    return onOneVersion(this.versions, [exceptedFindings, coverageGaps], async () => {
      const excepted = await this.excepted(orgRowId);
      // Computed once, however many requests arrive meanwhile; started again after a write.
      const { columns, gaps, ...summary } = await this.gapSets.settled(key, async (checkpoint) => {
        const columns = await this.currentColumns(orgRowId);
        checkpoint();
        return this.computeGaps(orgRowId, columns, checkpoint);
      });
      const keptKey = excepted.count === 0 ? key : `${key}|excepted=${excepted.key}`;
      const kept = excepted.count === 0 ? gaps : this.sets.getOrCompute(keptKey, () => select(gaps, (i) => excepted.byColumn[i] !== 1));
      return {
        ...summary,
        counts: this.counts.getOrCompute(keptKey, () => countsOf(columns, kept)),
        countsBeforeExceptions: this.counts.getOrCompute(key, () => countsOf(columns, gaps)),
        page: this.page(columns, keptKey, kept, paging),
      };
    });
  }

  /**
   * The gaps at the columns' version: candidates narrowed by one active scope after another, in
   * slices with turns of the event loop between them (time-slices.ts), after which `checkpoint`
   * throws when a write landed meanwhile.
   */
  private async computeGaps(orgRowId: number, columns: CoverageColumns, checkpoint: () => void): Promise<GapSet> {
    const scopes = this.db.all<StoredScopeFilters & { id: string; name: string }>(
      "SELECT id, name, subject_filter, endpoint_filter, finding_filter FROM scopes WHERE org_id = ? AND status = 'active' ORDER BY seq",
      [inventoryOf(this.db, orgRowId)],
    );
    const context = await this.context(orgRowId);
    checkpoint();
    const slices = new TimeSlices(checkpoint);
    const { severity, status, kev } = columns;
    let gaps = await selectInSlices(allIndexes(columns.count), (i) => status[i] === open && (severity[i]! <= high || kev[i] === 1), slices);
    const candidates = gaps.length;
    const unevaluated: GapSet['unevaluated'] = [];
    for (const scope of scopes) {
      const condition = scopeCondition(scope, context);
      unevaluated.push(...condition.unevaluated.map((criterion) => ({ scopeId: scope.id, scopeName: scope.name, ...criterion })));
      const covers = condition.bind(columns);
      gaps = await selectInSlices(gaps, (i) => !covers(i), slices);
    }
    return { columns, gaps, candidates, activeScopes: scopes.length, unevaluated };
  }

  private page(columns: CoverageColumns, key: string, covered: FindingIndexes, paging: CoveragePaging): IdPage {
    const statusCode = paging.status === undefined ? -1 : findingStatuses.indexOf(paging.status as (typeof findingStatuses)[number]);
    const listed =
      statusCode < 0 ? covered : this.sets.getOrCompute(`${key}|status=${paging.status}`, () => select(covered, (i) => columns.status[i] === statusCode));
    const ids = [...listed.subarray(paging.offset, paging.offset + paging.limit)].map(
      (index) => this.db.value('SELECT id FROM findings WHERE seq = ?', [columns.seq[index]!]) as string,
    );
    return { ids, total: listed.length };
  }

  /**
   * The columns of an organization at the database's current version, read once per version
   * and shared by the requests that wait for them.
   */
  currentColumns(orgRowId: number): Promise<CoverageColumns> {
    // Resolved at each start: a computation started again after a sync's swap reads the new inventory.
    return this.columns.settled(String(orgRowId), (checkpoint) => loadCoverageColumns(this.db, inventoryOf(this.db, orgRowId), checkpoint));
  }
}

function allIndexes(count: number): FindingIndexes {
  const indexes = new Int32Array(count);
  for (let i = 0; i < count; i++) indexes[i] = i;
  return indexes;
}

/** {@link select} in slices with turns of the event loop between them, for a pass over up to a million findings. */
async function selectInSlices(from: FindingIndexes, test: (index: number) => boolean, slices: TimeSlices): Promise<FindingIndexes> {
  const selected = new Int32Array(from.length);
  let count = 0;
  for (let start = 0; start < from.length; start += selectStep) {
    for (const index of from.subarray(start, start + selectStep)) if (test(index)) selected[count++] = index;
    await slices.pause();
  }
  return selected.slice(0, count);
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
