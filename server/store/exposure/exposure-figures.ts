import type { SqlValue } from 'sql.js';
import { type ExposureSortKey, exposureSortKinds } from '../../../contracts/console/exposure.js';
import type { CollectionName } from '../../../contracts/collections.js';
import { type TargetStatus, findingSeverities, findingStatuses, targetStatuses } from '../../../contracts/enums.js';
import { type EffectiveEndpointContext, effectiveEndpointContext } from '../basics/effective-endpoint-context.js';
import { type EndpointContextSource, type EndpointSelection, criticalityFactorsOf, endpointTest, selectedEndpointKeys, selectionKey, selects } from '../basics/endpoint-selection.js';
import type { CoverageColumns } from '../basics/coverage-columns.js';
import type { Database } from '../engine/database.js';
import { type ChangeVersions, derivedValue } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { type ExceptedFindingsSource, exceptedFindings } from '../basics/excepted-findings.js';
import { VersionMoved, onOneVersion } from '../derived/one-version.js';
import { ExposureTable } from './exposure-table.js';
import { inventoryOf } from '../basics/inventory-ids.js';
import { softwareId } from '../basics/software-id.js';
import { TimeSlices } from '../derived/time-slices.js';

// The values this file keeps, by name and the kinds of change they are read from (derived/change-kinds.ts).
const dataFigures = derivedValue('exposure figures', ['inventory']);
/** An organization's exposure figures without the excepted findings, weighed by the endpoints' criticality: read from the inventory and the endpoint context. */
export const exposureFigures = derivedValue('exposure figures with exceptions', ['inventory', 'endpoint-context']);
const exposureWeights = derivedValue('exposure weights', ['inventory', 'endpoint-context']);

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

/** One version of a product. */
export interface VersionFigures {
  id: string;
  /** Index of its product in {@link ExposureFigures.products}. */
  product: number;
  version: string | null;
  /** Endpoints with a target of it that is not resolved. */
  endpoints: number;
  /** Its remediation targets, as indexes into {@link ExposureFigures.targets}, in the replica's (seq) order. */
  targets: Int32Array;
}

/**
 * The organization's remediation targets, one entry per target in each typed array (a few
 * bytes a target, where objects or strings would weigh tens of megabytes for 200,000 targets).
 */
export interface TargetFigures {
  seq: Int32Array;
  /** Index into targetStatuses. */
  status: Uint8Array;
  /** Index into {@link ExposureFigures.endpointIds}, -1 when the target names no endpoint. */
  endpoint: Int32Array;
  /** Index into {@link ExposureFigures.targetExposure}, -1 when no finding names the target. */
  exposure: Int32Array;
}

/**
 * What the open findings add up to per endpoint, target, product and version, and the plan's
 * input: the part of the figures that exceptions change (leaving their findings out).
 */
export interface ExposureTallies {
  endpointExposure: ExposureTable;
  /** The targets' exposure, by the coverage columns' target keys (targets without findings have none). */
  targetExposure: ExposureTable;
  productExposure: ExposureTable;
  versionExposure: ExposureTable;
  /**
   * Per product, the open critical or KEV findings it closes, the same weighed by their
   * endpoints' criticality (what the plan orders by), and the endpoint keys they are on (see
   * remediation-plan.ts).
   */
  planInput: { closes: Float64Array; weights: Float64Array; endpoints: Int32Array[]; withoutProduct: number; total: number };
}

/**
 * What the open findings of one organization expose, per endpoint, per target, per product
 * and per version (a finding belongs to the product and version of its remediation target),
 * with the products and versions of its remediation targets. The tallies leave out the
 * findings exceptions in force leave out ({@link ExposureFigures.beforeExceptions} counts them),
 * weigh each finding's risk by its endpoint's criticality, and, for a selection of endpoints by
 * tag or criticality, count only the findings of the endpoints it keeps.
 */
export interface ExposureFigures extends ExposureTallies {
  /** Endpoint id → its index in {@link endpointExposure} (endpoints without findings have none). */
  endpointIndex: Map<string, number>;
  targets: TargetFigures;
  /** The endpoint ids that endpoints and targets name, each once, with the hostname of the ones the replica holds. */
  endpointIds: string[];
  endpointHostnames: ({ hostname: string; sortName: string } | undefined)[];
  products: ProductFigures[];
  productById: Map<string, number>;
  versions: VersionFigures[];
  versionById: Map<string, number>;
  /** The tallies with every open finding counted, the excepted ones included. */
  beforeExceptions: ExposureTallies;
  /** The key of the excepted findings left out (excepted-findings.ts): what a value derived from the tallies is keyed by. */
  exceptedKey: string;
  /** Per endpoint key of the columns, its criticality's factor (risk-score.ts); undefined when all are `normal` (1). */
  endpointFactors: Float64Array | undefined;
  /**
   * For a selection of endpoints: per product and per version, the endpoints it keeps that have
   * a target of it that is not resolved (in place of {@link ProductFigures.endpoints}).
   */
  selectedEndpoints?: { products: Int32Array; versions: Int32Array };
  /** What the figure sort keys (collection-tables.ts, `figureSort`) compare, by a row's seq. */
  sortValues: {
    /** An endpoint's seq → its index in {@link ExposureFigures.endpointExposure}. */
    endpointBySeq: Map<number, number>;
    /** A finding's seq minus the first one's → its index in the coverage columns, -1 for none. */
    findingBySeq: Int32Array;
    firstFindingSeq: number;
    columns: CoverageColumns;
    /** Per endpoint key of the columns, its hostname without ASCII case (null when the replica does not hold it). */
    endpointSortName: (string | null)[];
    /** Per target kind of the columns, its product without ASCII case. */
    kindSortProduct: (string | null)[];
  };
}

/** Text without ASCII case, as SQLite's lower() makes it: what the console's text sort keys compare. */
export const asciiLower = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/**
 * What a sort key the store's registry looks up in the figures (collection-tables.ts,
 * `figureSort`) compares, by a row's seq: an endpoint's exposure, a finding's hostname, target
 * product or risk (KEV, then CVSS).
 */
export function figureSortLookup(figures: ExposureFigures, collection: CollectionName, key: string): (seq: number) => SqlValue {
  const { endpointBySeq, findingBySeq, firstFindingSeq, columns, endpointSortName, kindSortProduct } = figures.sortValues;
  const finding = (seq: number) => findingBySeq[seq - firstFindingSeq] ?? -1;
  if (collection === 'findings' && key === 'endpoint_hostname') {
    return (seq) => {
      const endpoint = columns.endpoint[finding(seq)] ?? -1;
      return endpoint < 0 ? null : endpointSortName[endpoint]!;
    };
  }
  if (collection === 'findings' && key === 'risk') {
    // KEV first, then CVSS, a finding without a score (NaN) below those of its KEV kind with one: 20 parts KEV, at most 10 CVSS.
    return (seq) => {
      const i = finding(seq);
      if (i < 0) return null;
      const cvss = columns.cvss[i]!;
      return columns.kev[i]! * 20 + (Number.isNaN(cvss) ? -1 : cvss);
    };
  }
  if (collection === 'findings' && key === 'target_product') {
    return (seq) => {
      const target = columns.target[finding(seq)] ?? -1;
      return target < 0 ? null : kindSortProduct[columns.targetKind[target]!]!;
    };
  }
  if (collection === 'endpoints' && key in exposureSortKinds) {
    return (seq) => figures.endpointExposure.sortValue(endpointBySeq.get(seq) ?? -1, key as ExposureSortKey);
  }
  throw new Error(`No figure sorts ${collection} by ${key}`);
}

const open = findingStatuses.indexOf('open');
const critical = findingSeverities.indexOf('critical');
/** Rows read per statement: a few milliseconds of SQL. */
const rowsPerChunk = 2_048;
/** Findings added between two looks at the clock. */
const findingsBetweenLooks = 65_536;

/**
 * Calls `each` with every row of an inventory's table, as the array of `columns`, read a chunk
 * of seqs at a time with a pause between chunks. A chunk comes back as one JSON array of rows:
 * sql.js pays a call into WebAssembly for every value read, and one JSON.parse of the chunk costs less.
 */
async function forEachRow<Row extends SqlValue[]>(db: Database, table: string, columns: string, inventoryId: number, slices: TimeSlices, each: (row: Row) => void) {
  // Apart, min and max are each one step along the (org_id) index.
  const first = Number(db.value(`SELECT min(seq) FROM ${table} WHERE org_id = ?`, [inventoryId]) ?? 0);
  const last = Number(db.value(`SELECT max(seq) FROM ${table} WHERE org_id = ?`, [inventoryId]) ?? -1);
  const chunk = `SELECT '[' || group_concat(json_array(${columns})) || ']' AS rows FROM ${table} WHERE org_id = ? AND seq >= ? AND seq < ?`;
  for (let from = first; from <= last; from += rowsPerChunk) {
    const { rows } = db.get<{ rows: string | null }>(chunk, [inventoryId, from, from + rowsPerChunk])!;
    if (rows !== null) for (const row of JSON.parse(rows) as Row[]) each(row);
    await slices.pause();
  }
}

/** Where the findings' coverage columns come from (scope-coverage.ts), read once per version and shared. */
export interface CoverageColumnSource {
  currentColumns(orgRowId: number): Promise<CoverageColumns>;
}

/**
 * Some findings of the coverage columns, by column index (1: counted), and the key that names
 * them (with the version of what they are read from) in the keys of what is derived from them.
 */
export interface FindingMask {
  key: string;
  keep: Uint8Array;
}

/** The figures of one version of the data, with every open finding counted: what exceptions leave as it is. */
interface DataFigures extends Omit<ExposureFigures, keyof ExposureTallies | 'beforeExceptions' | 'exceptedKey' | 'endpointFactors' | 'selectedEndpoints'> {
  tallies: ExposureTallies;
  /** The version of each target kind of the columns; -1 for the kind of targets the replica does not hold. */
  versionOfKind: Int32Array;
}

/**
 * The exposure figures of each organization, computed once per version of the data from the
 * findings' coverage columns (shared with coverage and the dashboard) and one pass over its
 * remediation targets and endpoints, all in slices that leave other requests answered. The
 * findings exceptions leave out change only the tallies: once per set of excepted findings,
 * they are summed again in one pass over the columns, the rest kept as the data's.
 */
export class ExposureFiguresCache {
  /** The data's figures by organization. Bound: 4 organizations (those of a million findings and 200,000 targets weigh tens of megabytes). */
  private readonly dataFigures: DerivedCache<DataFigures>;
  /**
   * The figures with exceptions applied, criticality weighed or endpoints selected, by
   * organization, excepted findings and selection. Bound: 4 (a few megabytes each).
   */
  private readonly withExceptions: DerivedCache<ExposureFigures>;
  /** Per organization and selection, the endpoints' factors and the endpoint keys selected. Bound: 16. */
  private readonly weights: DerivedCache<TallyWeights>;

  constructor(
    private readonly db: Database,
    private readonly versions: ChangeVersions,
    private readonly coverage: CoverageColumnSource,
    private readonly excepted: ExceptedFindingsSource,
    /** Endpoints' criticality and tags: the weighed and selected figures depend on its writes. */
    private readonly context: EndpointContextSource,
  ) {
    this.dataFigures = new DerivedCache(versions, dataFigures, { bound: { entries: 4 } });
    this.withExceptions = new DerivedCache(versions, exposureFigures, { bound: { entries: 4 } });
    this.weights = new DerivedCache(versions, exposureWeights, { bound: { entries: 16 } });
  }

  /** The findings' coverage columns of an organization at the data's current version: what the figures are summed from, without them. */
  columns(orgRowId: number): Promise<CoverageColumns> {
    return this.coverage.currentColumns(orgRowId);
  }

  /**
   * The figures of an organization at the data's current version, leaving out the findings its
   * exceptions in force leave out, the risk weighed by criticality; with `selection`, of the
   * findings of the endpoints it keeps only; with `only`, of the findings it keeps only (the
   * caller checks that its columns are these figures' columns, `sortValues.columns`).
   */
  async of(orgRowId: number, selection?: EndpointSelection, only?: FindingMask): Promise<ExposureFigures> {
    // The excepted findings, the figures and the context of one version: read again after a write meanwhile.
    return onOneVersion(this.versions, [exceptedFindings, dataFigures, effectiveEndpointContext, exposureFigures, exposureWeights], async (version) => {
      const excepted = await this.excepted(orgRowId);
      const data = await this.dataFigures.settled(String(orgRowId), async (checkpoint) => {
        const columns = await this.coverage.currentColumns(orgRowId);
        checkpoint();
        return this.compute(inventoryOf(this.db, orgRowId), columns, new TimeSlices(checkpoint));
      });
      const context = await this.context(orgRowId);
      version.check();
      const { columns } = data.sortValues;
      const selected = selectionKey(selection);
      const weights = this.weights.getOrCompute(`${orgRowId}|${selected}`, () => ({
        factors: criticalityFactorsOf(columns.endpoints, context),
        keep: selects(selection) ? selectedEndpointKeys(columns.endpoints, context, selection) : undefined,
      }));
      if (excepted.count === 0 && !weights.factors && !weights.keep && !only) return withTallies(data, data.tallies, data.tallies, excepted.key);
      // The mask's columns are checked against these ones: only those of the same version of the data match.
      if (only && only.keep.length !== columns.count) throw new VersionMoved();
      return this.withExceptions.settled(`${orgRowId}|${excepted.key}|${selected}|${only?.key ?? ''}`, async (checkpoint) => {
        // Started again after a write, this computation would sum another version's columns under this key.
        version.check();
        const slices = new TimeSlices(checkpoint);
        const before = weights.factors || weights.keep || only ? await tally(columns, data, undefined, weights, slices, only?.keep) : data.tallies;
        const tallies = excepted.count === 0 ? before : await tally(columns, data, excepted.byColumn, weights, slices, only?.keep);
        const figures = withTallies(data, tallies, before, excepted.key, weights.factors);
        if (selects(selection)) figures.selectedEndpoints = await selectedInstalls(data, context, selection, slices);
        return figures;
      });
    });
  }

  private async compute(inventoryId: number, columns: CoverageColumns, slices: TimeSlices): Promise<DataFigures> {
    const endpointIndex = new Map(columns.endpoints.id.map((id, index) => [id, index]));
    const endpointNumbers = new Map<string, number>();
    const endpointIds: string[] = [];
    const endpointHostnames: ExposureFigures['endpointHostnames'] = [];
    /** The number of an endpoint id in endpointIds, given to it at its first mention. */
    const endpointNumber = (id: string) => {
      let number = endpointNumbers.get(id);
      if (number === undefined) {
        endpointNumbers.set(id, (number = endpointIds.length));
        endpointIds.push(id);
      }
      return number;
    };
    const endpointBySeq = new Map<number, number>();
    await forEachRow<[number, string, string]>(this.db, 'endpoints', 'seq, id, hostname', inventoryId, slices, ([seq, id, hostname]) => {
      endpointHostnames[endpointNumber(id)] = { hostname, sortName: asciiLower(hostname) };
      endpointBySeq.set(seq, endpointIndex.get(id) ?? -1);
    });
    const targetKeys = new Map<string, number>();
    for (const [key, id] of columns.targetIds.entries()) {
      // A map of 200,000 ids takes tens of milliseconds: built between looks at the clock.
      if (key % findingsBetweenLooks === 0) await slices.pause();
      targetKeys.set(id, key);
    }
    const { products, productById, versions, versionByKey, targets } = await this.readTargets(inventoryId, slices, endpointNumber, targetKeys);
    const firstFindingSeq = columns.count ? columns.seq[0]! : 0;
    const findingBySeq = new Int32Array(columns.count ? columns.seq[columns.count - 1]! - firstFindingSeq + 1 : 0).fill(-1);
    for (let i = 0; i < columns.count; i++) {
      if (i % findingsBetweenLooks === 0) await slices.pause();
      findingBySeq[columns.seq[i]! - firstFindingSeq] = i;
    }
    const { kinds } = columns;
    const versionOfKind = Int32Array.from(kinds.type, (type, kind) =>
      type === null ? -1 : (versionByKey.get(JSON.stringify([kinds.vendor[kind]!, kinds.product[kind]!, kinds.version[kind]!])) ?? -1),
    );
    const figures = {
      endpointIndex,
      targets,
      endpointIds,
      endpointHostnames,
      products,
      productById,
      versions,
      versionById: new Map(versions.map((version, index) => [version.id, index])),
      versionOfKind,
      sortValues: {
        endpointBySeq,
        findingBySeq,
        firstFindingSeq,
        columns,
        endpointSortName: columns.endpoints.id.map((id) => endpointHostnames[endpointNumbers.get(id) ?? -1]?.sortName ?? null),
        kindSortProduct: kinds.product.map((product) => (product === null ? null : asciiLower(product))),
      },
    };
    return { ...figures, tallies: await tally(columns, figures, undefined, { factors: undefined, keep: undefined }, slices) };
  }

  /**
   * The products and versions of an inventory's remediation targets, read a chunk of targets at
   * a time, with each target's facts; `endpointNumber` numbers the endpoint ids they name, and
   * `targetKeys` gives the coverage columns' key of the targets findings name.
   */
  private async readTargets(inventoryId: number, slices: TimeSlices, endpointNumber: (id: string) => number, targetKeys: Map<string, number>) {
    const products: ProductFigures[] = [];
    const versions: VersionFigures[] = [];
    // By the JSON of the names: an id (base64url of it) is made once per product or version, not per target.
    const productByKey = new Map<string, number>();
    const versionByKey = new Map<string, number>();
    const productEndpoints: Set<string>[] = [];
    const versionEndpoints: Set<string>[] = [];
    type TargetRow = [number, string, string | null, string, string | null, string | null, string | null];
    const columns = 'seq, id, endpoint_id, status, vendor, product, version';
    const versionTargets: number[][] = [];
    const targets = { seq: [] as number[], status: [] as number[], endpoint: [] as number[], exposure: [] as number[] };
    await forEachRow<TargetRow>(this.db, 'remediation_targets', columns, inventoryId, slices, ([seq, id, endpointId, status, vendor, productName, versionName]) => {
      const versionKey = JSON.stringify([vendor, productName, versionName]);
      let version = versionByKey.get(versionKey);
      if (version === undefined) {
        const productKey = JSON.stringify([vendor, productName]);
        let product = productByKey.get(productKey);
        if (product === undefined) {
          product = products.length;
          productByKey.set(productKey, product);
          products.push({ id: softwareId([vendor, productName]), vendor, product: productName, versions: [], endpoints: 0 });
          productEndpoints.push(new Set());
        }
        version = versions.length;
        versionByKey.set(versionKey, version);
        versions.push({ id: softwareId([vendor, productName, versionName]), product, version: versionName, endpoints: 0, targets: new Int32Array(0) });
        versionTargets.push([]);
        versionEndpoints.push(new Set());
        products[product]!.versions.push(version);
      }
      const { product } = versions[version]!;
      versionTargets[version]!.push(targets.seq.length);
      targets.seq.push(seq);
      targets.status.push(targetStatuses.indexOf(status as TargetStatus));
      targets.endpoint.push(endpointId === null ? -1 : endpointNumber(endpointId));
      targets.exposure.push(targetKeys.get(id) ?? -1);
      if (status !== 'resolved' && endpointId !== null) {
        productEndpoints[product]!.add(endpointId);
        versionEndpoints[version]!.add(endpointId);
      }
    });
    products.forEach((product, index) => (product.endpoints = productEndpoints[index]!.size));
    versions.forEach((version, index) => {
      version.endpoints = versionEndpoints[index]!.size;
      version.targets = Int32Array.from(versionTargets[index]!);
    });
    return {
      products,
      productById: new Map(products.map((product, index) => [product.id, index])),
      versions,
      versionByKey,
      targets: {
        seq: Int32Array.from(targets.seq),
        status: Uint8Array.from(targets.status),
        endpoint: Int32Array.from(targets.endpoint),
        exposure: Int32Array.from(targets.exposure),
      },
    };
  }
}

/** The figures of the data with the given tallies, those of every finding (excepted ones included) as the figures before exceptions. */
function withTallies(
  { tallies: _data, versionOfKind: _versionOfKind, ...data }: DataFigures,
  tallies: ExposureTallies,
  beforeExceptions: ExposureTallies,
  exceptedKey: string,
  endpointFactors?: Float64Array,
): ExposureFigures {
  return { ...data, ...tallies, beforeExceptions, exceptedKey, endpointFactors };
}

/**
 * Per product and version, the endpoints `selection` keeps that have a target of it that is
 * not resolved; an endpoint the replica does not hold is never kept.
 */
async function selectedInstalls(data: DataFigures, context: EffectiveEndpointContext, selection: EndpointSelection, slices: TimeSlices) {
  const { targets, endpointIds, endpointHostnames, versions, products } = data;
  const selected = endpointTest(context, selection);
  const kept = Uint8Array.from(endpointIds, (id, number) => (endpointHostnames[number] !== undefined && selected(id) ? 1 : 0));
  const resolved = targetStatuses.indexOf('resolved');
  const versionCounts = new Int32Array(versions.length);
  const productSets = products.map(() => new Set<number>());
  for (const [index, version] of versions.entries()) {
    if (index % 256 === 0) await slices.pause();
    const endpoints = new Set<number>();
    for (const target of version.targets) {
      const endpoint = targets.endpoint[target]!;
      if (endpoint >= 0 && kept[endpoint] === 1 && targets.status[target] !== resolved) endpoints.add(endpoint);
    }
    versionCounts[index] = endpoints.size;
    for (const endpoint of endpoints) productSets[version.product]!.add(endpoint);
  }
  return { products: Int32Array.from(productSets, (set) => set.size), versions: versionCounts };
}

/** What a tally weighs by: per endpoint key, its criticality's factor (none: all 1), and the endpoints kept (none: all). */
interface TallyWeights {
  factors: Float64Array | undefined;
  keep: Uint8Array | undefined;
}

/**
 * Sums the open findings of the columns into the tallies of their endpoints, targets, versions
 * and products, and the plan's input, in slices; a finding `excepted` marks is left out, and so
 * is one whose endpoint `weights.keep` does not keep, and one `only` (when given) does not keep;
 * each finding's risk is multiplied by its endpoint's factor.
 */
async function tally(
  columns: CoverageColumns,
  { versionOfKind, versions, products }: Pick<DataFigures, 'versionOfKind' | 'versions' | 'products'>,
  excepted: Uint8Array | undefined,
  { factors, keep }: TallyWeights,
  slices: TimeSlices,
  only?: Uint8Array,
): Promise<ExposureTallies> {
  const endpointExposure = new ExposureTable(columns.endpoints.id.length);
  const targetExposure = new ExposureTable(columns.targetIds.length);
  const productExposure = new ExposureTable(products.length);
  const versionExposure = new ExposureTable(versions.length);
  const closes = new Float64Array(products.length);
  const weights = new Float64Array(products.length);
  const planEndpoints: Set<number>[] = products.map(() => new Set());
  let withoutProduct = 0;
  let total = 0;
  for (let i = 0; i < columns.count; i++) {
    if (i % findingsBetweenLooks === 0) await slices.pause();
    if (columns.status[i] !== open || excepted?.[i] === 1 || (only && only[i] !== 1)) continue;
    const severity = columns.severity[i]!;
    const kev = columns.kev[i] === 1;
    const cvss = columns.cvss[i]!;
    const endpoint = columns.endpoint[i]!;
    if (keep && (endpoint < 0 || keep[endpoint] !== 1)) continue;
    const factor = factors && endpoint >= 0 ? factors[endpoint]! : 1;
    if (endpoint >= 0) endpointExposure.add(endpoint, severity, kev, cvss, factor);
    const target = columns.target[i]!;
    if (target >= 0) targetExposure.add(target, severity, kev, cvss, factor);
    const version = target >= 0 ? versionOfKind[columns.targetKind[target]!]! : -1;
    const product = version >= 0 ? versions[version]!.product : -1;
    if (version >= 0) {
      versionExposure.add(version, severity, kev, cvss, factor);
      productExposure.add(product, severity, kev, cvss, factor);
    }
    if (severity !== critical && !kev) continue;
    total++;
    if (product < 0) {
      withoutProduct++;
      continue;
    }
    closes[product]!++;
    weights[product]! += factor;
    if (endpoint >= 0) planEndpoints[product]!.add(endpoint);
  }
  return {
    endpointExposure,
    targetExposure,
    productExposure,
    versionExposure,
    planInput: { closes, weights, endpoints: planEndpoints.map((set) => Int32Array.from(set)), withoutProduct, total },
  };
}
