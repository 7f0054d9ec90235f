/**
 * The vulnerabilities a generated target can carry: the real catalogue, plus for the medium and
 * large sizes synthetic ones in the CVE-2099 range, and which of them apply to a product version.
 */
import type { FindingSeverity } from '../../contracts/enums.js';
import { cveCatalog, type CveMatch } from './cve-catalog.js';
import { type OsRelease, osReleases } from './os-catalog.js';
import { productCatalog } from './product-catalog.js';
import type { Random } from './random.js';
import { compareVersionKeys, type CatalogVersion, versionKey, type VersionKey } from './versions.js';

/** What a finding of a CVE says; one instance per CVE, shared by all its findings. */
export interface Vulnerability {
  readonly id: string;
  readonly cvssScore: number;
  readonly kev: boolean;
  readonly severity: FindingSeverity;
  readonly title: string;
  readonly description: string;
  readonly solution: string;
  /** No finding of it is detected before this instant. */
  readonly notBeforeMs: number;
}

/** The CVEs of one product version on one OS release; shared by every target that has it. */
export interface CveSet {
  /** Highest score first. */
  readonly ids: string[];
  readonly vulnerabilities: readonly Vulnerability[];
  readonly highestScore: number | null;
}

/** The CVSS v3 qualitative bands: critical >= 9.0, high >= 7.0, medium >= 4.0, low >= 0.1, else info. */
export function severityOf(score: number | null): FindingSeverity {
  if (score === null || score < 0.1) return 'info';
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  return 'low';
}

/** First instant of the month after YYYY-MM: a safe lower bound, whatever the day of disclosure. */
function monthAfter(yearMonth: string): number {
  const [year, month] = yearMonth.split('-').map(Number);
  return Date.UTC(year as number, month as number, 1);
}

interface CompiledMatch {
  readonly vulnerability: Vulnerability;
  readonly ranges: readonly (readonly [VersionKey | null, VersionKey])[] | null;
  readonly fixedMonth: string | null;
  readonly os: ReadonlySet<string> | null;
  /** Synthetic CVEs apply to a pseudo-random share of the older versions. */
  readonly syntheticSalt: number | null;
}

/** A product version to match, as the generator knows it. */
export interface VersionContext {
  readonly version: CatalogVersion;
  /** True for the newest version of its list: CVEs without version data spare it. */
  readonly newest: boolean;
  readonly os: OsRelease;
}

/** Names of the operating systems whose patches are products (their targets take the endpoint's edition name). */
const osProductNames: Readonly<Record<string, string>> = {
  windows: 'Windows', macos: 'macOS', freebsd: 'FreeBSD', chromeos: 'ChromeOS', fortios: 'FortiOS', panos: 'PAN-OS',
  netscaler: 'NetScaler ADC', 'ivanti-ics': 'Connect Secure',
};

const emptySet: CveSet = { ids: [], vulnerabilities: [], highestScore: null };

/** Finds the CVEs of product versions, caching one shared CveSet per product version and OS. */
export class VulnerabilityIndex {
  private readonly byProduct = new Map<string, CompiledMatch[]>();
  private readonly cache = new Map<string, CveSet>();
  /** Every vulnerability the index knows, real first. */
  readonly all: Vulnerability[] = [];

  /**
   * @param syntheticPerProduct how many CVE-2099 vulnerabilities to invent per product (0: only real CVEs)
   * @param random the stream the synthetic scores come from
   */
  constructor(syntheticPerProduct: number, random: Random) {
    for (const cve of cveCatalog) {
      const vulnerability: Vulnerability = {
        id: cve.id,
        cvssScore: cve.cvssScore,
        kev: cve.kev,
        severity: severityOf(cve.cvssScore),
        title: cve.title,
        description: cve.description,
        solution: cve.solution,
        notBeforeMs: monthAfter(cve.published),
      };
      this.all.push(vulnerability);
      for (const match of cve.appliesTo) this.add(match, vulnerability);
    }
    if (syntheticPerProduct > 0) this.addSynthetic(syntheticPerProduct, random);
  }

  /** The CVEs of a product version on an OS release. */
  cvesOf(productKey: string, installIndex: number, versionIndex: number, context: VersionContext): CveSet {
    const key = `${productKey}|${installIndex}|${versionIndex}|${context.os.id}`;
    let set = this.cache.get(key);
    if (set === undefined) {
      set = this.compute(productKey, context);
      this.cache.set(key, set);
    }
    return set;
  }

  private add(match: CveMatch, vulnerability: Vulnerability): void {
    const compiled: CompiledMatch = {
      vulnerability,
      ranges: match.ranges ? match.ranges.map(([from, to]) => [from === '' ? null : versionKey(from), versionKey(to)] as const) : null,
      fixedMonth: match.fixedMonth ?? null,
      os: match.os ? new Set(match.os) : null,
      syntheticSalt: null,
    };
    for (const product of match.products) {
      let list = this.byProduct.get(product);
      if (!list) this.byProduct.set(product, (list = []));
      list.push(compiled);
    }
  }

  private addSynthetic(perProduct: number, random: Random): void {
    // Scores spread over the bands roughly as real scanner data is.
    const bands = [[9.0, 10.0], [7.0, 8.9], [4.0, 6.9], [1.0, 3.9]] as const;
    const bandWeights = [0.12, 0.38, 0.38, 0.12];
    let next = 10001;
    for (const product of productCatalog) {
      if (product.type === 'configuration') continue;
      const os = osReleases.find((release) => release.patchProduct === product.key);
      const label = product.name ?? osProductNames[product.key] ?? product.key;
      const vendor = product.vendor ?? os?.vendor ?? '';
      const fullName = vendor === '' || label.startsWith(vendor) ? label : `${vendor} ${label}`;
      for (let i = 0; i < perProduct; i++) {
        let band = 0;
        for (let u = random.float(); band < 3 && u >= (bandWeights[band] as number); band++) u -= bandWeights[band] as number;
        const [low, high] = bands[band] as readonly [number, number];
        const score = Math.round((low + random.float() * (high - low)) * 10) / 10;
        const vulnerability: Vulnerability = {
          id: `CVE-2099-${next++}`,
          cvssScore: score,
          kev: false,
          severity: severityOf(score),
          title: `Synthetic vulnerability in ${label} (generated for load testing)`,
          description: `A generated record with no real-world counterpart, attached to ${fullName} to exercise the console at scale. CVE-2099 identifiers are never assigned to real vulnerabilities.`,
          solution: 'No action: this finding was generated for load testing and does not describe a real flaw.',
          notBeforeMs: 0,
        };
        this.all.push(vulnerability);
        let list = this.byProduct.get(product.key);
        if (!list) this.byProduct.set(product.key, (list = []));
        list.push({ vulnerability, ranges: null, fixedMonth: null, os: null, syntheticSalt: random.uint32() });
      }
    }
  }

  private compute(productKey: string, context: VersionContext): CveSet {
    const matches = this.byProduct.get(productKey);
    if (!matches) return emptySet;
    const found: Vulnerability[] = [];
    for (const match of matches) {
      if (applies(match, context) && !found.includes(match.vulnerability)) found.push(match.vulnerability);
    }
    if (found.length === 0) return emptySet;
    found.sort((a, b) => b.cvssScore - a.cvssScore || (a.id < b.id ? -1 : 1));
    return { ids: found.map((v) => v.id), vulnerabilities: found, highestScore: found[0]?.cvssScore ?? null };
  }
}

function applies(match: CompiledMatch, context: VersionContext): boolean {
  if (match.os && !match.os.has(context.os.id) && !match.os.has(context.os.family)) return false;
  const version = context.version;
  if (match.ranges) {
    for (const [from, to] of match.ranges) {
      if ((from === null || compareVersionKeys(version.key, from) >= 0) && compareVersionKeys(version.key, to) < 0) return true;
    }
    return false;
  }
  if (match.fixedMonth !== null) return version.month !== null && version.month < match.fixedMonth;
  if (context.newest) return false;
  if (match.syntheticSalt !== null) return hashToUnit(match.syntheticSalt, version.shown) < 0.35;
  return true;
}

/** A deterministic pseudo-random number in [0, 1) for a salt and a string. */
function hashToUnit(salt: number, text: string): number {
  let hash = salt ^ 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return (hash >>> 0) / 4_294_967_296;
}
