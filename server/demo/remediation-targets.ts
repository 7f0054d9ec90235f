/**
 * Generated remediation targets: what each endpoint runs, drawn from the product catalogue for its
 * OS, profile and role, with the CVEs of that exact version.
 */
import type { RemediationTarget } from '../../contracts/remediation-target.js';
import { allocate } from './allocate.js';
import { DAY_MS, HOUR_MS, iso, referenceMs } from './clock.js';
import type { EndpointContext } from './endpoints.js';
import type { Profile } from './os-catalog.js';
import { type InstallDef, type ProductDef, productCatalog } from './product-catalog.js';
import type { Random } from './random.js';
import { type CatalogVersion, parseCatalogVersion } from './versions.js';
import type { CveSet, VulnerabilityIndex } from './vulnerabilities.js';

/** Target statuses as numbers, for the typed arrays below. */
export const ACTIVE = 0;
export const STALE = 1;
export const RESOLVED = 2;
const statusNames = ['active', 'stale', 'resolved'] as const;

/** The targets with what finding generation needs, one array slot per target. */
export interface TargetsContext {
  readonly targets: RemediationTarget[];
  /** The endpoint each target was generated for, also when its endpoint_id is null. */
  readonly endpointIndex: Int32Array;
  readonly createdMs: Float64Array;
  readonly updatedMs: Float64Array;
  readonly status: Uint8Array;
  readonly cves: CveSet[];
}

interface PoolEntry {
  readonly product: ProductDef;
  readonly install: InstallDef;
  readonly installIndex: number;
  /** Null: the version is the endpoint's OS version. */
  readonly versions: readonly CatalogVersion[] | null;
  readonly weight: number;
}

const parsedVersions = new Map<InstallDef, CatalogVersion[]>();
function versionsOf(install: InstallDef): CatalogVersion[] | null {
  if (install.versions === 'os') return null;
  let parsed = parsedVersions.get(install);
  if (!parsed) parsedVersions.set(install, (parsed = install.versions.map(parseCatalogVersion)));
  return parsed;
}

/** Products an endpoint of this kind may run. */
function buildPool(osId: string, profile: Profile, role: string): PoolEntry[] {
  const pool: PoolEntry[] = [];
  for (const product of productCatalog) {
    const installIndex = product.installs.findIndex(
      (install) =>
        install.profiles.includes(profile) &&
        (install.os === undefined || install.os.includes(osId)) &&
        (install.roles === undefined || install.roles.includes(role)),
    );
    const install = product.installs[installIndex];
    if (install) pool.push({ product, install, installIndex, versions: versionsOf(install), weight: install.weight });
  }
  return pool;
}

/** How much software a kind of endpoint has, relative to the others. */
const profileFactor: Record<Profile, number> = {
  'windows-workstation': 1.1, 'windows-server': 1, macos: 1, 'linux-server': 1, 'linux-workstation': 1,
  freebsd: 0.6, chromeos: 0.4, appliance: 0.5,
};
const emptyCves: CveSet = { ids: [], vulnerabilities: [], highestScore: null };
const applicationFolders = ['billing', 'crm', 'inventory', 'reporting', 'search', 'portal', 'payments', 'scheduler'];

/** Fills the tokens of a path or package template (see InstallDef.path). */
function fill(template: string, version: string, endpoint: EndpointContext, app: string): string {
  if (!template.includes('{')) return template;
  const parts = version.split(/[.+]/);
  const major = parts[0] ?? version;
  const minor = parts[1] ?? '0';
  return template
    .replaceAll('{v}', version)
    .replaceAll('{major}', major)
    .replaceAll('{mm}', `${major}${minor}`)
    .replaceAll('{m.m}', `${major}.${minor}`)
    .replaceAll('{brew}', endpoint.homebrew)
    .replaceAll('{multiarch}', endpoint.record.operating_system.architecture === 'aarch64' ? 'aarch64-linux-gnu' : 'x86_64-linux-gnu')
    .replaceAll('{app}', app)
    .replaceAll('{pm}', endpoint.os.id.startsWith('rhel') ? 'dnf' : 'apt');
}

/** A filled template, one string instance per distinct text (the large dataset repeats them 200,000 times). */
function filled(cache: Map<string, string>, template: string | null, version: string, endpoint: EndpointContext, app: string): string | null {
  if (template === null) return null;
  if (!template.includes('{')) return template;
  const key = `${template}|${version}|${endpoint.homebrew}|${app}|${endpoint.os.id}|${endpoint.record.operating_system.architecture}`;
  let text = cache.get(key);
  if (text === undefined) cache.set(key, (text = fill(template, version, endpoint, app)));
  return text;
}

function targetSource(endpoint: EndpointContext, random: Random): string {
  if (endpoint.cloud && random.chance(0.3)) return 'cloud-inventory';
  const managed = endpoint.profile === 'windows-workstation' || endpoint.profile === 'macos' || endpoint.profile === 'chromeos';
  if (endpoint.hasAgent) return random.chance(0.88) ? 'agent-inventory' : managed ? 'mdm' : 'network-scan';
  return managed ? 'mdm' : 'network-scan';
}

/**
 * Generates exactly `total` targets over the endpoints.
 * @param index the CVEs of product versions
 */
export function generateRemediationTargets(
  endpoints: readonly EndpointContext[],
  total: number,
  index: VulnerabilityIndex,
  random: Random,
): TargetsContext {
  const pools = new Map<string, PoolEntry[]>();
  const endpointPools: PoolEntry[][] = [];
  const weights = new Float64Array(endpoints.length);
  const caps = new Int32Array(endpoints.length);
  for (const endpoint of endpoints) {
    const key = `${endpoint.os.id}|${endpoint.profile}|${endpoint.role}`;
    let pool = pools.get(key);
    if (!pool) pools.set(key, (pool = buildPool(endpoint.os.id, endpoint.profile, endpoint.role)));
    endpointPools.push(pool);
    const expected = pool.reduce((sum, entry) => sum + entry.weight, 0);
    weights[endpoint.index] = expected * profileFactor[endpoint.profile] * (0.6 + 0.8 * random.float());
    caps[endpoint.index] = pool.length;
  }
  const counts = allocate(total, weights, caps, random);

  const context: TargetsContext = {
    targets: [],
    endpointIndex: new Int32Array(total),
    createdMs: new Float64Array(total),
    updatedMs: new Float64Array(total),
    status: new Uint8Array(total),
    cves: [],
  };
  const textCache = new Map<string, string>();
  const largestPool = Math.max(0, ...[...pools.values()].map((pool) => pool.length));
  const keys = new Float64Array(largestPool);
  const taken = new Uint8Array(largestPool);
  let t = 0;

  for (const endpoint of endpoints) {
    const pool = endpointPools[endpoint.index] as PoolEntry[];
    const count = counts[endpoint.index] as number;
    // Weighted sampling without replacement (Efraimidis-Spirakis): the largest u^(1/w) win.
    for (let i = 0; i < pool.length; i++) {
      keys[i] = Math.log(random.float() || Number.MIN_VALUE) / (pool[i] as PoolEntry).weight;
      taken[i] = 0;
    }
    for (let k = 0; k < count; k++) {
      let chosen = -1;
      for (let i = 0; i < pool.length; i++) {
        if (taken[i] === 0 && (chosen < 0 || (keys[i] as number) > (keys[chosen] as number))) chosen = i;
      }
      if (chosen >= 0) taken[chosen] = 1;
      // More targets than products only when the caps could not hold the total: a second
      // install of something already there, as with side-by-side runtimes.
      else chosen = random.int(pool.length);
      const entry = pool[chosen] as PoolEntry;
      const { product, install } = entry;

      let version: CatalogVersion | null;
      let versionIndex: number;
      let newest: boolean;
      if (entry.versions === null) {
        version = endpoint.osVersion;
        versionIndex = endpoint.osVersionIndex;
        newest = versionIndex === endpoint.os.versions.length - 1;
      } else if (entry.versions.length === 0) {
        version = null;
        versionIndex = -1;
        newest = true;
      } else {
        versionIndex = random.skewedToLast(entry.versions.length);
        version = entry.versions[versionIndex] as CatalogVersion;
        newest = versionIndex === entry.versions.length - 1;
      }
      const cves = version === null ? emptyCves : index.cvesOf(product.key, entry.installIndex, versionIndex, { version, newest, os: endpoint.os });
      const app = install.path?.includes('{app}') ? random.pick(applicationFolders) : '';
      const packageRef = random.pick(install.packages);
      const shown = version?.shown ?? '';

      const roll = random.float();
      const status = roll < 0.8 ? ACTIVE : roll < 0.88 ? STALE : RESOLVED;
      const sinceEndpoint = referenceMs - endpoint.createdMs;
      // Most software is found by the first inventory after discovery, the rest later.
      const createdMs = Math.min(
        endpoint.createdMs + sinceEndpoint * (random.chance(0.6) ? random.float() * 0.02 : random.float()),
        referenceMs - HOUR_MS,
      );
      const updatedMs =
        status === ACTIVE
          ? Math.max(createdMs, referenceMs - random.float() * 3 * DAY_MS)
          : status === STALE
            ? Math.max(createdMs, referenceMs - (30 + random.float() * 150) * DAY_MS)
            : createdMs + random.float() * (referenceMs - createdMs);

      const target: RemediationTarget = {
        id: random.uuid(),
        endpoint_id: random.chance(0.01) ? null : endpoint.record.id,
        target_type: product.type,
        vendor: product.vendor ?? endpoint.os.vendor,
        product: product.name ?? endpoint.osName,
        version: version?.shown ?? null,
        install_path: filled(textCache, install.path, shown, endpoint, app),
        package_name: filled(textCache, packageRef[1], shown, endpoint, app),
        package_manager: filled(textCache, packageRef[0], shown, endpoint, app),
        status: statusNames[status] as RemediationTarget['status'],
        source: targetSource(endpoint, random),
        // Shared with every target of the same product version: read-only by contract.
        associated_cves: cves.ids,
        highest_cvss_score: cves.highestScore,
        created_at: iso(createdMs),
        updated_at: iso(updatedMs),
      };
      context.targets.push(target);
      context.endpointIndex[t] = endpoint.index;
      context.createdMs[t] = createdMs;
      context.updatedMs[t] = updatedMs;
      context.status[t] = status;
      context.cves.push(cves);
      t++;
    }
  }
  return context;
}
