import { findingSeverities, findingStatuses } from '../../contracts/enums.js';
import type { CoverageColumns } from './coverage-columns.js';
import type { Database } from './database.js';
import { DerivedCache } from './derived-cache.js';
import { ExposureTable } from './exposure-table.js';
import { inventoryOf } from './inventory-ids.js';
import { TimeSlices } from './time-slices.js';

/** A product: the remediation targets of one vendor and product. */
export interface ProductFigures {
  id: string;
  vendor: string | null;
  product: string | null;
  /** Indexes of its versions in {@link ExposureFigures.versions}. */
  versions: number[];
  /** Endpoints with a target of it that is not resolved. */
  endpoints: number;
}

/** The remediation targets of one version of a product, in the replica's (seq) order. */
export interface VersionFigures {
  id: string;
  /** Index of its product in {@link ExposureFigures.products}. */
  product: number;
  version: string | null;
  /** Endpoints with a target of it that is not resolved. */
  endpoints: number;
  targets: { id: string[]; endpointId: (string | null)[]; status: string[] };
}

/**
 * What the open findings of one organization expose, per endpoint, per target, per product
 * and per version (a finding belongs to the product and version of its remediation target),
 * with the products and versions of its remediation targets.
 */
export interface ExposureFigures {
  /** Endpoint id → its index in {@link endpointExposure} (endpoints without findings have none). */
  endpointIndex: Map<string, number>;
  endpointExposure: ExposureTable;
  /** Target id → its index in {@link targetExposure} (targets without findings have none). */
  targetIndex: Map<string, number>;
  targetExposure: ExposureTable;
  products: ProductFigures[];
  productById: Map<string, number>;
  productExposure: ExposureTable;
  versions: VersionFigures[];
  versionById: Map<string, number>;
  versionExposure: ExposureTable;
  /** Per product, the open critical or KEV findings it closes and the endpoint keys they are on (see remediation-plan.ts). */
  planInput: { closes: Float64Array; endpoints: Int32Array[]; withoutProduct: number; total: number };
}

/** The id of a product or version in the console's URLs: base64url of the JSON array of its names. */
export function softwareId(names: (string | null)[]): string {
  return Buffer.from(JSON.stringify(names)).toString('base64url');
}

const open = findingStatuses.indexOf('open');
const critical = findingSeverities.indexOf('critical');
/** Targets read per statement: about a millisecond of SQL. */
const targetsPerChunk = 2_048;
/** Findings added between two looks at the clock. */
const findingsBetweenLooks = 65_536;

// A chunk of targets comes back as one JSON array of rows: sql.js pays a call into WebAssembly
// for every value read, and one JSON.parse of the chunk costs less.
const targetsChunk = `
  SELECT '[' || group_concat(json_array(id, endpoint_id, status, vendor, product, version)) || ']' AS rows
  FROM remediation_targets WHERE org_id = ? AND seq >= ? AND seq < ?`;

/** Where the findings' coverage columns come from (scope-coverage.ts), read once per version and shared. */
export interface CoverageColumnSource {
  currentColumns(orgRowId: number): Promise<CoverageColumns>;
}

/**
 * The exposure figures of each organization, computed once per version of the data from the
 * findings' coverage columns (shared with coverage and the dashboard) and one pass over its
 * remediation targets, both in slices that leave other requests answered.
 */
export class ExposureFiguresCache {
  /** Figures by organization. Bound: 4 organizations (a replica of a million findings weighs about 20 MB). */
  private readonly figures: DerivedCache<ExposureFigures>;

  constructor(
    private readonly db: Database,
    private readonly coverage: CoverageColumnSource,
  ) {
    this.figures = new DerivedCache(db, { bound: { entries: 4 } });
  }

  /** The figures of an organization at the data's current version. */
  of(orgRowId: number): Promise<ExposureFigures> {
    return this.figures.settled(String(orgRowId), async (checkpoint) => {
      const columns = await this.coverage.currentColumns(orgRowId);
      checkpoint();
      return this.compute(inventoryOf(this.db, orgRowId), columns, new TimeSlices(checkpoint));
    });
  }

  private async compute(inventoryId: number, columns: CoverageColumns, slices: TimeSlices): Promise<ExposureFigures> {
    const { products, productById, versions, versionById } = await this.readTargets(inventoryId, slices);

    // The version of each target kind of the columns; -1 for the kind of targets the replica does not hold.
    const versionOfKind = columns.kinds.type.map((type, kind) =>
      type === null ? -1 : (versionById.get(softwareId([columns.kinds.vendor[kind]!, columns.kinds.product[kind]!, columns.kinds.version[kind]!])) ?? -1),
    );
    const endpointExposure = new ExposureTable(columns.endpoints.id.length);
    const targetExposure = new ExposureTable(columns.targetIds.length);
    const productExposure = new ExposureTable(products.length);
    const versionExposure = new ExposureTable(versions.length);
    const closes = new Float64Array(products.length);
    const planEndpoints: Set<number>[] = products.map(() => new Set());
    let withoutProduct = 0;
    let total = 0;
    for (let i = 0; i < columns.count; i++) {
      if (i % findingsBetweenLooks === 0) await slices.pause();
      if (columns.status[i] !== open) continue;
      const severity = columns.severity[i]!;
      const kev = columns.kev[i] === 1;
      const cvss = columns.cvss[i]!;
      const endpoint = columns.endpoint[i]!;
      if (endpoint >= 0) endpointExposure.add(endpoint, severity, kev, cvss);
      const target = columns.target[i]!;
      if (target >= 0) targetExposure.add(target, severity, kev, cvss);
      const version = target >= 0 ? versionOfKind[columns.targetKind[target]!]! : -1;
      const product = version >= 0 ? versions[version]!.product : -1;
      if (version >= 0) {
        versionExposure.add(version, severity, kev, cvss);
        productExposure.add(product, severity, kev, cvss);
      }
      if (severity !== critical && !kev) continue;
      total++;
      if (product < 0) {
        withoutProduct++;
        continue;
      }
      closes[product]!++;
      if (endpoint >= 0) planEndpoints[product]!.add(endpoint);
    }
    return {
      endpointIndex: new Map(columns.endpoints.id.map((id, index) => [id, index])),
      endpointExposure,
      targetIndex: new Map(columns.targetIds.map((id, index) => [id, index])),
      targetExposure,
      products,
      productById,
      productExposure,
      versions,
      versionById,
      versionExposure,
      planInput: { closes, endpoints: planEndpoints.map((set) => Int32Array.from(set)), withoutProduct, total },
    };
  }

  /** The products and versions of an inventory's remediation targets, read a chunk of targets at a time. */
  private async readTargets(inventoryId: number, slices: TimeSlices) {
    const products: ProductFigures[] = [];
    const productById = new Map<string, number>();
    const versions: VersionFigures[] = [];
    const versionById = new Map<string, number>();
    const productEndpoints: Set<string>[] = [];
    const versionEndpoints: Set<string>[] = [];

    // Apart, min and max are each one step along the (org_id) index.
    const first = Number(this.db.value('SELECT min(seq) FROM remediation_targets WHERE org_id = ?', [inventoryId]) ?? 0);
    const last = Number(this.db.value('SELECT max(seq) FROM remediation_targets WHERE org_id = ?', [inventoryId]) ?? -1);
    for (let from = first; from <= last; from += targetsPerChunk) {
      const { rows } = this.db.get<{ rows: string | null }>(targetsChunk, [inventoryId, from, from + targetsPerChunk])!;
      const targets = rows === null ? [] : (JSON.parse(rows) as [string, string | null, string, string | null, string | null, string | null][]);
      for (const [id, endpointId, status, vendor, productName, versionName] of targets) {
        const productId = softwareId([vendor, productName]);
        let product = productById.get(productId);
        if (product === undefined) {
          product = products.length;
          productById.set(productId, product);
          products.push({ id: productId, vendor, product: productName, versions: [], endpoints: 0 });
          productEndpoints.push(new Set());
        }
        const versionId = softwareId([vendor, productName, versionName]);
        let version = versionById.get(versionId);
        if (version === undefined) {
          version = versions.length;
          versionById.set(versionId, version);
          versions.push({ id: versionId, product, version: versionName, endpoints: 0, targets: { id: [], endpointId: [], status: [] } });
          versionEndpoints.push(new Set());
          products[product]!.versions.push(version);
        }
        const { targets: held } = versions[version]!;
        held.id.push(id);
        held.endpointId.push(endpointId);
        held.status.push(status);
        if (status !== 'resolved' && endpointId !== null) {
          productEndpoints[product]!.add(endpointId);
          versionEndpoints[version]!.add(endpointId);
        }
      }
      await slices.pause();
    }
    products.forEach((product, index) => (product.endpoints = productEndpoints[index]!.size));
    versions.forEach((version, index) => (version.endpoints = versionEndpoints[index]!.size));
    return { products, productById, versions, versionById };
  }
}
