import type { ExposureSortKey } from '../../../contracts/console/exposure.js';
import type {
  RemediationPlan,
  RemediationPlanSortKey,
  SoftwareDetail,
  TargetUpdate,
  SoftwareInstall,
  SoftwareList,
  SoftwareListQuery,
  SoftwareProduct,
  SoftwareSortKey,
  SoftwareVersion,
  SoftwareVersionDetail,
} from '../../../contracts/console/software.js';
import type { VersionToUpdateToSummary } from '../../../contracts/console/version-to-update-to.js';
import { targetStatuses } from '../../../contracts/enums.js';
import { type EndpointSelection, selectionKey, selects } from '../basics/endpoint-selection.js';
import type { Database } from '../engine/database.js';
import { type ChangeVersions, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { type ExposureFigures, type ExposureFiguresCache, type FindingMask, asciiLower, exposureFigures } from './exposure-figures.js';
import { type FixByFigures, type FixByFilterValues, fixByColumns, keptByFixByFilters } from '../ssvc/fix-by-figures.js';
import { VersionMoved, onOneVersion } from '../derived/one-version.js';
import { compareVersions } from './version-order.js';
import { targetUpdate, versionToUpdateTo, versionToUpdateToSummary } from './version-to-update-to.js';
import { planOrder, remediationPlan, sortedPlan } from './remediation-plan.js';
import { idsOfSeqs } from '../inventory/sorted-orders.js';
import { compareSqlValues } from '../derived/sql-value-order.js';
import { TimeSlices } from '../derived/time-slices.js';
import { sortInSlices } from '../derived/sort-in-slices.js';
import type { ListSort } from '../../../contracts/list-queries.js';
import { type ExploitFigure, type ExploitFigures, type TargetProducts, productExploitFigures } from '../intel/exploit-figures.js';

// The values this file keeps, by name and the kinds of change they are read from (derived/change-kinds.ts).
const softwareInstalls = derivedValue('software installs', ['inventory', 'endpoint-context']);
// A plan step sums the EPSS of the findings it closes: the plans are read from the intelligence too.
const remediationPlans = derivedValue('remediation plans', ['inventory', 'endpoint-context', 'threat-intel']);
const versionsToUpdateTo = derivedValue('software versions to update to', ['inventory', 'endpoint-context']);
/** The open findings of one BOD 26-04 outcome, made from the fix-by dates: read from what they are read from. */
/** Findings masked between two looks at the clock. */
const findingsBetweenLooks = 16_384;
const fixByMaskValues = derivedValue('plan fix-by filter masks', fixByColumns.dependsOn);

type Value = string | number | null;

/** An endpoint a plan step touches: the open findings the step closes on it. */
export interface PlanStepEndpoint {
  endpoint_id: string | null;
  hostname: string | null;
  closes: number;
}
const lower = (text: string | null) => (text === null ? null : asciiLower(text));

/** A product; for a selection of endpoints, its endpoints are those the selection keeps. */
function productJson(figures: ExposureFigures, index: number, exploit: (product: number) => ExploitFigure): SoftwareProduct {
  const { id, vendor, product, versions } = figures.products[index]!;
  const endpoints = figures.selectedEndpoints?.products[index] ?? figures.products[index]!.endpoints;
  return { id, vendor, product, versions: versions.length, endpoints, ...figures.productExposure.exposure(index), ...exploit(index) };
}

function versionJson(figures: ExposureFigures, index: number): SoftwareVersion {
  const { id, version, endpoints } = figures.versions[index]!;
  return { id, version, endpoints, ...figures.versionExposure.exposure(index) };
}

/** What a software sort key compares for a product. */
function productSortValue(figures: ExposureFigures, index: number, key: SoftwareSortKey): Value {
  const product = figures.products[index]!;
  switch (key) {
    case 'vendor':
      return lower(product.vendor);
    case 'product':
      return lower(product.product);
    case 'versions':
      return product.versions.length;
    case 'endpoints':
      return product.endpoints;
    default:
      return figures.productExposure.sortValue(index, key satisfies ExposureSortKey);
  }
}

/**
 * The console's software view and remediation plan: remediation targets grouped by vendor and
 * product, then by version, answered from the exposure figures (exposure-figures.ts) that are
 * computed once per version of the data. A product's or version's id is base64url of the JSON of
 * its names, so that any name, null included, has one.
 */
export class SoftwareQueries {
  /** A version's installs in their order (indexes into the figures' targets), by organization, excepted findings and version. Bound: 16 versions. */
  private readonly installs: DerivedCache<Int32Array>;
  /** Plans by organization and excepted findings. Bound: 16. */
  private readonly plans: DerivedCache<RemediationPlan>;
  /** The findings a plan's fix-by filters keep, by organization, filters and version of the fix-by dates. Bound: 4 (a byte a finding). */
  private readonly fixByMasks: DerivedCache<FindingMask>;
  /** Per product (an index into the figures' products), the version to update it to as the list gives it, by organization and excepted findings. Bound: 16. */
  private readonly updates: DerivedCache<VersionToUpdateToSummary[]>;

  constructor(
    private readonly db: Database,
    private readonly versions: ChangeVersions,
    private readonly figures: ExposureFiguresCache,
    /** The plan steps' EPSS sums. */
    private readonly exploit: ExploitFigures,
    /** The findings' fix-by dates, which a plan may be filtered by. */
    private readonly fixBy: FixByFigures,
  ) {
    this.fixByMasks = new DerivedCache(versions, fixByMaskValues, { bound: { entries: 4 } });
    this.installs = new DerivedCache(versions, softwareInstalls, { bound: { entries: 16 } });
    this.plans = new DerivedCache(versions, remediationPlans, { bound: { entries: 16 } });
    // Read from the same kinds as the figures (exposure-figures.ts): a product's index names it until they change.
    this.updates = new DerivedCache(versions, versionsToUpdateTo, { bound: { entries: 16 } });
  }

  /**
   * One page of the organization's products, searched by vendor or product, in the query's
   * order (ties by id). Filtered by tag or criticality, the products installed (not resolved) on
   * the endpoints kept or with open findings on them, and only those endpoints and findings counted.
   * Each product with the version to update it to, of the whole fleet whatever the filter: the
   * product's own answer.
   */
  async list(orgRowId: number, query: SoftwareListQuery): Promise<SoftwareList> {
    const { figures, fleet, exploit } = await this.listFigures(orgRowId, query);
    const text = query.q?.toLowerCase();
    let indexes = figures.products.map((_, index) => index);
    const selected = figures.selectedEndpoints?.products;
    if (selected) indexes = indexes.filter((index) => selected[index]! > 0 || figures.productExposure.sortValue(index, 'risk_score')! > 0);
    if (text !== undefined) {
      indexes = indexes.filter((index) => {
        const { vendor, product } = figures.products[index]!;
        return [vendor, product].some((name) => name?.toLowerCase().includes(text));
      });
    }
    // Computed at the fleet figures' version: nothing awaits between them and this. Every product's
    // at once (one pass over the targets, a few ms for 200,000), then a page's are read, not computed.
    const updates = this.updates.getOrCompute(`${orgRowId}|${fleet.exceptedKey}`, () =>
      fleet.products.map((_, index) => versionToUpdateToSummary(fleet, index)),
    );
    const { key, descending } = query.sort;
    const sortValues = new Map(indexes.map((index) => [index, productSortValue(figures, index, key)]));
    indexes.sort((a, b) => compareSqlValues(sortValues.get(a)!, sortValues.get(b)!) || compareSqlValues(figures.products[a]!.id, figures.products[b]!.id));
    if (descending) indexes.reverse();
    return {
      data: indexes
        .slice(query.offset, query.offset + query.limit)
        .map((index) => ({ ...productJson(figures, index, exploit), update_to: updates[index]! })),
      total: indexes.length,
      limit: query.limit,
      offset: query.offset,
    };
  }

  /**
   * The figures of the list's selection and those of the whole fleet (the same, without one),
   * of one version of the data and of the exceptions: the same products, so that an index names
   * the same product in both.
   */
  private async listFigures(
    orgRowId: number,
    selection: EndpointSelection,
  ): Promise<{ figures: ExposureFigures; fleet: ExposureFigures; exploit: (product: number) => ExploitFigure }> {
    // The selection's figures, the fleet's and its products' exploit figures of one version of the data and the intelligence.
    return onOneVersion(this.versions, [exposureFigures, productExploitFigures], async () => {
      const figures = await this.figures.of(orgRowId, selection);
      const fleet = selects(selection) ? await this.figures.of(orgRowId) : figures;
      // Other products' arrays (their figures dropped for others meanwhile), or other exceptions in force (one expired): read again.
      if (fleet.products !== figures.products || fleet.exceptedKey !== figures.exceptedKey) throw new VersionMoved();
      return { figures, fleet, exploit: await this.exploit.productFigures(orgRowId, targetProducts(fleet)) };
    });
  }

  /** The fleet's figures and its products' exploit figures (every endpoint's findings), of one version of the data and the intelligence. */
  private withExploit(orgRowId: number): Promise<{ figures: ExposureFigures; exploit: (product: number) => ExploitFigure }> {
    return onOneVersion(this.versions, [exposureFigures, productExploitFigures], async () => {
      const figures = await this.figures.of(orgRowId);
      return { figures, exploit: await this.exploit.productFigures(orgRowId, targetProducts(figures)) };
    });
  }

  /** A product with its versions, riskiest first (then oldest version first, by version-order.ts); undefined when the organization has none with that id. */
  async product(orgRowId: number, productId: string): Promise<SoftwareDetail | undefined> {
    const { figures, exploit } = await this.withExploit(orgRowId);
    const index = figures.productById.get(productId);
    if (index === undefined) return undefined;
    const versions = figures.products[index]!.versions.map((version) => versionJson(figures, version));
    versions.sort((a, b) => b.risk_score - a.risk_score || compareVersions(a.version, b.version));
    return { product: productJson(figures, index, exploit), versions, update_to: versionToUpdateTo(figures, index) };
  }

  /** A remediation target's product and the version to update it to (exposure/version-to-update-to.ts); undefined when unknown. */
  async targetUpdate(orgRowId: number, targetId: string): Promise<TargetUpdate | undefined> {
    const figures = await this.figures.of(orgRowId);
    // Read at the figures' version: nothing awaits between them and this.
    return targetUpdate(this.db, figures, orgRowId, targetId);
  }

  /** A version of a product with one page of its installs, riskiest first, then by hostname; undefined when unknown. */
  async version(orgRowId: number, productId: string, versionId: string, paging: { limit: number; offset: number }): Promise<SoftwareVersionDetail | undefined> {
    const { figures, exploit } = await this.withExploit(orgRowId);
    const product = figures.productById.get(productId);
    const version = figures.versionById.get(versionId);
    if (product === undefined || version === undefined || figures.versions[version]!.product !== product) return undefined;
    // Computed at the figures' version: nothing awaits between them and this.
    const installs = this.installs.getOrCompute(`${orgRowId}|${figures.exceptedKey}|${versionId}`, () => installOrder(figures, version));
    const page = Array.from(installs.subarray(paging.offset, paging.offset + paging.limit));
    const ids = idsOfSeqs(this.db, 'remediation_targets', page.map((target) => figures.targets.seq[target]!));
    return {
      product: productJson(figures, product, exploit),
      version: versionJson(figures, version),
      installs: {
        data: page.map((target, i) => installJson(figures, target, ids[i]!)),
        total: installs.length,
        limit: paging.limit,
        offset: paging.offset,
      },
    };
  }

  /**
   * The open findings the fix-by filters `given` keep (an outcome, a decision, a day), by column
   * index, keyed by the filters and the version of the fix-by dates (an organization's settings
   * change outcomes, not the inventory).
   */
  private fixByMask(orgRowId: number, given: FixByFilterValues): Promise<FindingMask> {
    const key = `${JSON.stringify(given)}@${this.fixBy.version()}`;
    return this.fixByMasks.settled(`${orgRowId}|${key}`, async (checkpoint) => {
      const columns = await this.fixBy.columns(orgRowId);
      const keeps = keptByFixByFilters(columns, given);
      const slices = new TimeSlices(checkpoint);
      const keep = new Uint8Array(columns.outcome.length);
      for (let i = 0; i < keep.length; i++) {
        if (i % findingsBetweenLooks === 0) await slices.pause();
        keep[i] = keeps(i) ? 1 : 0;
      }
      return { key, keep };
    });
  }

  /**
   * The organization's remediation plan (remediation-plan.ts), of the findings of the endpoints
   * `selection` keeps when given, and of the open findings the fix-by filters `fixBy` keep when given.
   */
  async plan(orgRowId: number, selection?: EndpointSelection, fixBy?: FixByFilterValues, sort: ListSort<RemediationPlanSortKey> = planOrder): Promise<RemediationPlan> {
    const plan = await onOneVersion(this.versions, [exposureFigures, remediationPlans, fixByColumns, fixByMaskValues], async (version) => {
      const only = fixBy === undefined ? undefined : await this.fixByMask(orgRowId, fixBy);
      version.check();
      const figures = await this.figures.of(orgRowId, selects(selection) ? selection : undefined, only);
      // The steps' fix-by dates are read from the fix-by dates' version (an organization's settings change them, not the inventory).
      const key = `${orgRowId}|${figures.exceptedKey}|${selectionKey(selection)}|${only?.key ?? ''}|${this.fixBy.version()}`;
      return this.plans.settled(key, async (checkpoint) => {
        // Started again after a write, this computation would plan another version's figures under this key.
        version.check();
        const slices = new TimeSlices(checkpoint);
        const products = targetProducts(figures);
        const epssSums = await this.exploit.planSums(orgRowId, products, selection, slices, only?.keep);
        const fixByDays = await this.earliestFixByDays(orgRowId, products, selection, slices, only?.keep);
        checkpoint();
        return remediationPlan(figures, slices, { epssSums, fixByDays });
      });
    });
    return sortedPlan(plan, sort);
  }

  /**
   * The endpoints of the plan steps of `productIds` (steps' `product_id`) in the plan of
   * `selection`: for each, the endpoints of the open findings the step closes (those
   * {@link plan} counts, by the same walk), with their hostname and how many it closes there,
   * most first, then by hostname (the technical report's steps).
   */
  async planStepEndpoints(orgRowId: number, selection: EndpointSelection | undefined, productIds: readonly string[]): Promise<Map<string, PlanStepEndpoint[]>> {
    return onOneVersion(this.versions, [exposureFigures], async (version) => {
      const figures = await this.figures.of(orgRowId, selects(selection) ? selection : undefined);
      version.check();
      const products = targetProducts(figures);
      const closedOn = new Map<number, Map<number, number>>();
      for (const id of productIds) {
        const index = figures.productById.get(id);
        if (index !== undefined) closedOn.set(index, new Map());
      }
      const slices = new TimeSlices(() => version.check());
      await this.exploit.planFindings(orgRowId, products, selection, slices, undefined, (i, product) => {
        const counts = closedOn.get(product);
        if (!counts) return;
        const endpoint = products.columns.endpoint[i]!;
        counts.set(endpoint, (counts.get(endpoint) ?? 0) + 1);
      });
      const hostnames = new Map(figures.endpointIds.map((id, number) => [id, figures.endpointHostnames[number]]));
      const answer = new Map<string, PlanStepEndpoint[]>();
      for (const id of productIds) {
        const counts = closedOn.get(figures.productById.get(id) ?? -1) ?? new Map<number, number>();
        const endpoints = [...counts].map(([key, closes]): SortedPlanStepEndpoint => {
          const endpointId = key < 0 ? null : products.columns.endpoints.id[key]!;
          const named = endpointId === null ? undefined : hostnames.get(endpointId);
          return { endpoint: { endpoint_id: endpointId, hostname: named?.hostname ?? null, closes }, sortName: named?.sortName ?? '' };
        });
        // Sorted in slices, with a pause after each step: every step's endpoints were built and sorted in one turn.
        answer.set(id, (await sortInSlices(endpoints, mostClosedFirst, slices)).map(({ endpoint }) => endpoint));
        await slices.pause();
      }
      return answer;
    });
  }

  /**
   * Per product, the earliest fix-by day (days since the epoch) among the open findings its plan
   * step closes (ExploitFigures.planFindings); NaN when none has one (fix on system upgrade).
   */
  private async earliestFixByDays(orgRowId: number, products: TargetProducts, selection: EndpointSelection | undefined, slices: TimeSlices, only: Uint8Array | undefined) {
    const { fixByDay, timeline } = await this.fixBy.columns(orgRowId);
    // The fix-by columns are indexed as the figures' columns only at the same version of the inventory.
    if (timeline.columns.count !== products.columns.count) throw new VersionMoved();
    const earliest = new Float64Array(products.count).fill(Number.NaN);
    await this.exploit.planFindings(orgRowId, products, selection, slices, only, (i, product) => {
      const day = fixByDay[i]!;
      // NaN holds no comparison: the first dated finding of a product sets its day.
      if (!Number.isNaN(day) && !(day >= earliest[product]!)) earliest[product] = day;
    });
    return earliest;
  }
}

/** A plan step's endpoint with its hostname as it sorts (the figures' `sortName`, '' for none). */
interface SortedPlanStepEndpoint {
  endpoint: PlanStepEndpoint;
  sortName: string;
}

/**
 * A plan step's endpoints, those where it closes most first, then by hostname and id. The
 * hostnames' sort names are the figures' own: lowering both at each comparison was most of a
 * sort's block of 4,096 (44 ms of CPU on `large`, the technical report's longest turns).
 */
function mostClosedFirst({ endpoint: a, sortName: aName }: SortedPlanStepEndpoint, { endpoint: b, sortName: bName }: SortedPlanStepEndpoint): number {
  return b.closes - a.closes || aName.localeCompare(bName) || (a.endpoint_id ?? '').localeCompare(b.endpoint_id ?? '');
}

/** What the exploit figures of products and plan steps are summed by (intel/exploit-figures.ts): the figures' columns and excepted findings, and each target's product. */
function targetProducts(figures: ExposureFigures): TargetProducts {
  const { columns } = figures.sortValues;
  const productOfTarget = new Int32Array(columns.targetIds.length).fill(-1);
  for (const version of figures.versions) {
    for (const target of version.targets) {
      const key = figures.targets.exposure[target]!;
      if (key >= 0) productOfTarget[key] = version.product;
    }
  }
  return { columns, exceptedKey: figures.exceptedKey, productOfTarget, count: figures.products.length };
}

/** One install of a version: a target with its endpoint's hostname and its open findings' exposure. */
function installJson(figures: ExposureFigures, target: number, id: string): SoftwareInstall {
  const { targets, endpointIds, endpointHostnames } = figures;
  const endpoint = targets.endpoint[target]!;
  return {
    target_id: id,
    target_status: targetStatuses[targets.status[target]!]!,
    endpoint_id: endpoint < 0 ? null : endpointIds[endpoint]!,
    hostname: endpointHostnames[endpoint]?.hostname ?? null,
    ...figures.targetExposure.exposure(targets.exposure[target]!),
  };
}

/** A version's targets riskiest first, then by hostname (without ASCII case), then in the replica's order. */
function installOrder(figures: ExposureFigures, version: number): Int32Array {
  const { targets, endpointHostnames, targetExposure } = figures;
  const risk = (target: number) => targetExposure.sortValue(targets.exposure[target]!, 'risk_score')!;
  const name = (target: number) => endpointHostnames[targets.endpoint[target]!]?.sortName ?? null;
  return Int32Array.from(figures.versions[version]!.targets).sort(
    (a, b) => risk(b) - risk(a) || compareSqlValues(name(a), name(b)) || targets.seq[a]! - targets.seq[b]!,
  );
}
