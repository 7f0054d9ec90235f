import type { ExposureSortKey } from '../../contracts/console/exposure.js';
import type {
  RemediationPlan,
  SoftwareDetail,
  SoftwareInstall,
  SoftwareList,
  SoftwareListQuery,
  SoftwareProduct,
  SoftwareSortKey,
  SoftwareVersion,
  SoftwareVersionDetail,
} from '../../contracts/console/software.js';
import type { TargetStatus } from '../../contracts/enums.js';
import type { Database } from './database.js';
import { DerivedCache } from './derived-cache.js';
import { type ExposureFigures, type ExposureFiguresCache, asciiLower } from './exposure-figures.js';
import { remediationPlan } from './remediation-plan.js';

type Value = string | number | null;
/** SQLite's order: NULL, then numbers, then text. */
const compareValues = (a: Value, b: Value) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);
const lower = (text: string | null) => (text === null ? null : asciiLower(text));

function productJson(figures: ExposureFigures, index: number): SoftwareProduct {
  const { id, vendor, product, versions, endpoints } = figures.products[index]!;
  return { id, vendor, product, versions: versions.length, endpoints, ...figures.productExposure.exposure(index) };
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

/** An install of a version: one of its targets, with its endpoint's hostname and its findings' exposure. */
interface Install extends SoftwareInstall {
  /** Lower-case hostname, for the order. */
  name: string | null;
}

/**
 * The console's software view and remediation plan: remediation targets grouped by vendor and
 * product, then by version, answered from the exposure figures (exposure-figures.ts) that are
 * computed once per version of the data. A product's or version's id is base64url of the JSON of
 * its names, so that any name, null included, has one.
 */
export class SoftwareQueries {
  /** A version's installs in their order, by organization and version. Bound: 16 versions (up to one per endpoint each). */
  private readonly installs: DerivedCache<Install[]>;
  /** Plans by organization. Bound: 16. */
  private readonly plans: DerivedCache<RemediationPlan>;

  constructor(
    private readonly db: Database,
    private readonly figures: ExposureFiguresCache,
  ) {
    this.installs = new DerivedCache(db, { bound: { entries: 16 } });
    this.plans = new DerivedCache(db, { bound: { entries: 16 } });
  }

  /** One page of the organization's products, searched by vendor or product, in the query's order (ties by id). */
  async list(orgRowId: number, query: SoftwareListQuery): Promise<SoftwareList> {
    const figures = await this.figures.of(orgRowId);
    const text = query.q?.toLowerCase();
    let indexes = figures.products.map((_, index) => index);
    if (text !== undefined) {
      indexes = indexes.filter((index) => {
        const { vendor, product } = figures.products[index]!;
        return [vendor, product].some((name) => name?.toLowerCase().includes(text));
      });
    }
    const { key, descending } = query.sort;
    const sortValues = new Map(indexes.map((index) => [index, productSortValue(figures, index, key)]));
    indexes.sort((a, b) => compareValues(sortValues.get(a)!, sortValues.get(b)!) || compareValues(figures.products[a]!.id, figures.products[b]!.id));
    if (descending) indexes.reverse();
    return {
      data: indexes.slice(query.offset, query.offset + query.limit).map((index) => productJson(figures, index)),
      total: indexes.length,
      limit: query.limit,
      offset: query.offset,
    };
  }

  /** A product with its versions, riskiest first (then by version); undefined when the organization has none with that id. */
  async product(orgRowId: number, productId: string): Promise<SoftwareDetail | undefined> {
    const figures = await this.figures.of(orgRowId);
    const index = figures.productById.get(productId);
    if (index === undefined) return undefined;
    const versions = figures.products[index]!.versions.map((version) => versionJson(figures, version));
    versions.sort((a, b) => b.risk_score - a.risk_score || compareValues(a.version, b.version));
    return { product: productJson(figures, index), versions };
  }

  /** A version of a product with one page of its installs, riskiest first, then by hostname; undefined when unknown. */
  async version(orgRowId: number, productId: string, versionId: string, paging: { limit: number; offset: number }): Promise<SoftwareVersionDetail | undefined> {
    const figures = await this.figures.of(orgRowId);
    const product = figures.productById.get(productId);
    const version = figures.versionById.get(versionId);
    if (product === undefined || version === undefined || figures.versions[version]!.product !== product) return undefined;
    // Computed at the figures' version: nothing awaits between them and this.
    const installs = this.installs.getOrCompute(`${orgRowId}|${versionId}`, () => installsOf(figures, version));
    return {
      product: productJson(figures, product),
      version: versionJson(figures, version),
      installs: {
        data: installs.slice(paging.offset, paging.offset + paging.limit).map(({ name: _name, ...install }) => install),
        total: installs.length,
        limit: paging.limit,
        offset: paging.offset,
      },
    };
  }

  /** The organization's remediation plan (remediation-plan.ts). */
  async plan(orgRowId: number): Promise<RemediationPlan> {
    const figures = await this.figures.of(orgRowId);
    return this.plans.getOrCompute(String(orgRowId), () => remediationPlan(figures));
  }
}

/** A version's installs, riskiest first, then by hostname (without ASCII case), then by target id. */
function installsOf(figures: ExposureFigures, version: number): Install[] {
  const { targets } = figures.versions[version]!;
  const installs: Install[] = targets.id.map((id, i) => {
    const endpointId = targets.endpointId[i]!;
    const endpoint = endpointId === null ? undefined : figures.hostnames.get(endpointId);
    return {
      target_id: id,
      target_status: targets.status[i] as TargetStatus,
      endpoint_id: endpointId,
      hostname: endpoint?.hostname ?? null,
      ...figures.targetExposure.exposure(figures.targetIndex.get(id) ?? -1),
      name: endpoint?.sortName ?? null,
    };
  });
  return installs.sort((a, b) => b.risk_score - a.risk_score || compareValues(a.name, b.name) || compareValues(a.target_id, b.target_id));
}
