import { describe, expect, it } from 'vitest';
import { endpointSchema } from '../../contracts/endpoint.js';
import { datasetSizes, type Inventory } from '../../contracts/inventory.js';
import { deadlineDays, defaultSlaPolicy } from '../../contracts/remediation-deadlines.js';
import { remediationTargetSchema } from '../../contracts/remediation-target.js';
import { scopeSchema } from '../../contracts/scope.js';
import { vulnerabilityFindingSchema } from '../../contracts/vulnerability-finding.js';
import { iso } from './clock.js';
import { osReleases } from './os-catalog.js';
import { productCatalog } from './product-catalog.js';
import { Random } from './random.js';
import { severityOf, VulnerabilityIndex } from './vulnerabilities.js';
import { cveCatalog, demoOrganization, demoReferenceMs, generateInventory } from './index.js';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const catalogById = new Map(cveCatalog.map((cve) => [cve.id, cve]));
const seeds = [1, 20260601];
const generated = new Map<number, Inventory>(seeds.map((seed) => [seed, generateInventory('demo', seed)]));

function inventoryOf(seed: number): Inventory {
  return generated.get(seed) as Inventory;
}

describe('the CVE catalogue', () => {
  it('has at least 100 real CVEs with unique ids, scores from 0 to 10 and no synthetic id', () => {
    expect(cveCatalog.length).toBeGreaterThanOrEqual(100);
    expect(new Set(cveCatalog.map((cve) => cve.id)).size).toBe(cveCatalog.length);
    for (const cve of cveCatalog) {
      expect(cve.id).toMatch(/^CVE-(19|20)\d{2}-\d{4,}$/);
      expect(cve.id).not.toMatch(/^CVE-2099-/);
      expect(cve.cvssScore).toBeGreaterThanOrEqual(0);
      expect(cve.cvssScore).toBeLessThanOrEqual(10);
      expect(Number.isInteger(cve.cvssScore * 10)).toBe(true);
      expect(typeof cve.kev).toBe('boolean');
      for (const text of [cve.title, cve.description, cve.solution, cve.vendor, cve.product]) expect(text.trim()).not.toBe('');
      expect(cve.published).toMatch(/^(19|20)\d{2}-(0[1-9]|1[0-2])$/);
    }
  });

  it('refers only to products and OS releases that exist', () => {
    const products = new Set(productCatalog.map((p) => p.key));
    const osNames = new Set([...osReleases.map((os) => os.id), 'windows', 'macos', 'linux', 'other']);
    for (const cve of cveCatalog) {
      for (const match of cve.appliesTo) {
        for (const product of match.products) expect(products, `${cve.id} → ${product}`).toContain(product);
        for (const os of match.os ?? []) expect(osNames, `${cve.id} → ${os}`).toContain(os);
        if (match.fixedMonth) expect(match.fixedMonth).toMatch(/^\d{4}-\d{2}$/);
      }
    }
  });
});

describe('synthetic CVEs of the bigger datasets', () => {
  it('are in the CVE-2099 range and say they are generated', () => {
    const index = new VulnerabilityIndex(2, new Random(7, 'synthetic-cves'));
    const synthetic = index.all.filter((v) => !catalogById.has(v.id));
    expect(synthetic.length).toBeGreaterThan(0);
    for (const v of synthetic) {
      expect(v.id).toMatch(/^CVE-2099-\d{5}$/);
      expect(v.title).toMatch(/^Synthetic vulnerability in .+ \(generated for load testing\)$/);
      expect(v.kev).toBe(false);
      expect(v.severity).toBe(severityOf(v.cvssScore));
    }
    expect(new Set(index.all.map((v) => v.id)).size).toBe(index.all.length);
  });
});

describe('the timestamp format', () => {
  it('is what Date#toISOString gives', () => {
    const random = new Random(3, 'iso');
    for (let i = 0; i < 2000; i++) {
      const ms = Date.UTC(2010, 0, 1) + random.float() * 20 * 365 * 86_400_000;
      expect(iso(ms)).toBe(new Date(Math.floor(ms)).toISOString());
    }
    expect(iso(Date.UTC(2024, 1, 29, 23, 59, 59, 999))).toBe('2024-02-29T23:59:59.999Z');
  });
});

describe('the random stream', () => {
  it('gives lowercase RFC 4122 version-4 UUIDs, the same for the same seed and stream', () => {
    const a = new Random(42, 'x');
    const b = new Random(42, 'x');
    const c = new Random(42, 'y');
    const ids = Array.from({ length: 1000 }, () => a.uuid());
    for (const id of ids) expect(id).toMatch(uuidV4);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Array.from({ length: 1000 }, () => b.uuid())).toEqual(ids);
    expect(c.uuid()).not.toBe(ids[0]);
  });
});

describe.each(seeds)('the demo dataset of seed %i', (seed) => {
  const inventory = inventoryOf(seed);
  const endpointsById = new Map(inventory.endpoints.map((e) => [e.id, e]));
  const targetsById = new Map(inventory.remediationTargets.map((t) => [t.id, t]));

  it('has exactly the counts of the demo size', () => {
    expect(inventory.endpoints).toHaveLength(datasetSizes.demo.endpoints);
    expect(inventory.remediationTargets).toHaveLength(datasetSizes.demo.remediationTargets);
    expect(inventory.findings).toHaveLength(datasetSizes.demo.findings);
    expect(inventory.scopes).toHaveLength(datasetSizes.demo.scopes);
  });

  it('passes the schemas of the API', () => {
    const failures = [
      ...inventory.endpoints.map((e) => endpointSchema.safeParse(e).error),
      ...inventory.remediationTargets.map((t) => remediationTargetSchema.safeParse(t).error),
      ...inventory.scopes.map((s) => scopeSchema.safeParse(s).error),
      ...inventory.findings.map((f) => vulnerabilityFindingSchema.safeParse(f).error),
    ].filter((error) => error !== undefined);
    expect(failures).toEqual([]);
  });

  it('uses unique version-4 UUIDs', () => {
    const ids = [
      ...inventory.endpoints.flatMap((e) => (e.agent_id === null ? [e.id] : [e.id, e.agent_id])),
      ...inventory.remediationTargets.map((t) => t.id),
      ...inventory.scopes.map((s) => s.id),
      ...inventory.findings.map((f) => f.id),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !uuidV4.test(id))).toEqual([]);
  });

  it('has plausible endpoints', () => {
    const families = { windows: 0, macos: 0, linux: 0, other: 0 };
    let agents = 0;
    for (const e of inventory.endpoints) {
      families[e.operating_system.family]++;
      if (e.agent_id !== null) {
        agents++;
        expect(e.agent_version).not.toBeNull();
      } else {
        expect(e.agent_version).toBeNull();
      }
      if (e.ip !== null) expect(e.ip).toMatch(/^(10\.\d+|192\.168|172\.(1[6-9]|2\d|3[01]))\.\d+\.\d+$/);
      if (e.mac_address !== null) expect(e.mac_address).toMatch(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
      expect(Date.parse(e.updated_at)).toBeGreaterThanOrEqual(Date.parse(e.created_at));
    }
    const total = inventory.endpoints.length;
    expect(families.windows / total).toBeGreaterThan(0.45);
    expect(families.windows / total).toBeLessThan(0.65);
    expect(families.macos / total).toBeGreaterThan(0.17);
    expect(families.linux / total).toBeGreaterThan(0.1);
    expect(agents / total).toBeGreaterThan(0.78);
    expect(agents / total).toBeLessThan(0.93);
    expect(new Set(inventory.endpoints.map((e) => e.hostname)).size).toBe(total);
  });

  it('ties targets to endpoints and gives them the highest CVSS score of their CVEs', () => {
    const problems: string[] = [];
    let withoutEndpoint = 0;
    for (const t of inventory.remediationTargets) {
      const endpoint = t.endpoint_id === null ? null : endpointsById.get(t.endpoint_id);
      if (t.endpoint_id === null) withoutEndpoint++;
      else if (!endpoint) problems.push(`${t.id}: unknown endpoint`);
      else if (Date.parse(t.created_at) < Date.parse(endpoint.created_at)) problems.push(`${t.id}: created before its endpoint`);
      const scores = t.associated_cves.map((id) => catalogById.get(id)?.cvssScore);
      if (scores.some((score) => score === undefined)) problems.push(`${t.id}: CVE not in the catalogue`);
      const highest = scores.length === 0 ? null : Math.max(...(scores as number[]));
      if (t.highest_cvss_score !== highest) problems.push(`${t.id}: highest ${t.highest_cvss_score}, expected ${highest}`);
      if (new Set(t.associated_cves).size !== t.associated_cves.length) problems.push(`${t.id}: repeated CVE`);
      if (Date.parse(t.updated_at) < Date.parse(t.created_at)) problems.push(`${t.id}: updated before created`);
    }
    expect(problems).toEqual([]);
    expect(withoutEndpoint).toBeLessThan(inventory.remediationTargets.length * 0.03);
    const types = new Set(inventory.remediationTargets.map((t) => t.target_type));
    expect(types).toEqual(new Set(['software', 'os_patch', 'configuration', 'service']));
    const software = inventory.remediationTargets.filter((t) => t.target_type === 'software').length;
    expect(software / inventory.remediationTargets.length).toBeGreaterThan(0.5);
    expect(inventory.remediationTargets.filter((t) => t.associated_cves.length === 0).length).toBeGreaterThan(0);
  });

  it('ties findings to their target, its endpoint and one of its CVEs, with the catalogue facts', () => {
    const problems: string[] = [];
    const triples = new Set<string>();
    const targetsWithFindings = new Set<string>();
    let open = 0;
    for (const f of inventory.findings) {
      const target = targetsById.get(f.remediation_target_id as string);
      const cve = catalogById.get(f.cve_id);
      if (!target || !cve) {
        problems.push(`${f.id}: unknown target or CVE`);
        continue;
      }
      targetsWithFindings.add(target.id);
      if (f.endpoint_id !== target.endpoint_id) problems.push(`${f.id}: endpoint differs from its target's`);
      if (!target.associated_cves.includes(f.cve_id)) problems.push(`${f.id}: ${f.cve_id} not a CVE of its target`);
      if (f.cvss_score !== cve.cvssScore || f.is_kev !== cve.kev) problems.push(`${f.id}: score or KEV differs from the catalogue`);
      if (f.title !== cve.title || f.description !== cve.description || f.solution !== cve.solution) problems.push(`${f.id}: text differs from the catalogue`);
      if (f.severity !== severityOf(f.cvss_score)) problems.push(`${f.id}: severity ${f.severity} for ${f.cvss_score}`);
      if (Date.parse(f.first_detected_at) < Date.parse(target.created_at)) problems.push(`${f.id}: detected before its target existed`);
      if (Date.parse(f.first_detected_at) < Date.parse(`${cve.published}-01T00:00:00Z`)) problems.push(`${f.id}: detected before ${cve.id} was published`);
      if (Date.parse(f.updated_at) < Date.parse(f.created_at)) problems.push(`${f.id}: updated before created`);
      if (f.status === 'open') {
        open++;
        if (f.remediated_at !== null) problems.push(`${f.id}: open but remediated`);
      } else if (f.remediated_at === null || Date.parse(f.remediated_at) <= Date.parse(f.first_detected_at)) {
        problems.push(`${f.id}: remediated before it was detected`);
      }
      triples.add(`${f.remediation_target_id} ${f.cve_id} ${f.source}`);
    }
    expect(problems).toEqual([]);
    expect(triples.size).toBe(inventory.findings.length);
    expect(open / inventory.findings.length).toBeGreaterThan(0.5);
    const withoutCves = inventory.remediationTargets.filter((t) => t.associated_cves.length === 0 && targetsWithFindings.has(t.id));
    expect(withoutCves).toEqual([]);
  });

  it('keeps to the CVSS v3 severity bands', () => {
    expect([9.0, 9.8, 10].map(severityOf)).toEqual(['critical', 'critical', 'critical']);
    expect([7.0, 8.9].map(severityOf)).toEqual(['high', 'high']);
    expect([4.0, 6.9].map(severityOf)).toEqual(['medium', 'medium']);
    expect([0.1, 3.9].map(severityOf)).toEqual(['low', 'low']);
    expect([0, null].map(severityOf)).toEqual(['info', 'info']);
    const bands = new Set(inventory.findings.map((f) => f.severity));
    for (const band of ['critical', 'high', 'medium']) expect(bands).toContain(band);
  });

  it('uses only real catalogue CVEs', () => {
    const ids = new Set([...inventory.findings.map((f) => f.cve_id), ...inventory.remediationTargets.flatMap((t) => t.associated_cves)]);
    expect([...ids].filter((id) => id.startsWith('CVE-2099-') || !catalogById.has(id))).toEqual([]);
  });

  it('uses every filter field of the specification in its scopes, with real endpoint ids', () => {
    const used = new Set<string>();
    for (const scope of inventory.scopes) {
      for (const [filter, fields] of Object.entries({ subject: scope.subject_filter, endpoint: scope.endpoint_filter, finding: scope.finding_filter })) {
        for (const [field, value] of Object.entries(fields)) {
          if (value !== undefined && !(Array.isArray(value) && value.length === 0)) used.add(`${filter}.${field}`);
        }
      }
      for (const id of scope.endpoint_filter.endpoint_ids ?? []) expect(endpointsById.has(id)).toBe(true);
    }
    expect([...used].sort()).toEqual([
      'endpoint.endpoint_ids', 'endpoint.has_agent', 'endpoint.os_families', 'endpoint.tags',
      'finding.finding_types', 'finding.kev_only', 'finding.min_cvss_score', 'finding.min_severity',
      'subject.cpe_patterns', 'subject.products', 'subject.subject_types', 'subject.vendors',
    ]);
    expect(new Set(inventory.scopes.map((s) => s.name)).size).toBe(inventory.scopes.length);
    expect(inventory.scopes.filter((s) => s.status === 'active').length).toBeGreaterThan(inventory.scopes.length / 2);
  });

  it('has no timestamp after the reference date', () => {
    const all = [
      ...inventory.endpoints.flatMap((e) => [e.created_at, e.updated_at]),
      ...inventory.remediationTargets.flatMap((t) => [t.created_at, t.updated_at]),
      ...inventory.scopes.flatMap((s) => [s.created_at, s.updated_at]),
      ...inventory.findings.flatMap((f) => [f.first_detected_at, f.created_at, f.updated_at, f.remediated_at ?? f.created_at]),
    ];
    const wrong = all.filter((at) => !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(at) || Date.parse(at) > demoReferenceMs);
    expect(wrong).toEqual([]);
  });

  it('is dated from a later day by moving every timestamp by the whole days between, and from an earlier one not at all', () => {
    const days = 177;
    const dated = generateInventory('demo', seed, { dayMs: demoReferenceMs + days * 86_400_000 + 13 * 3_600_000 });
    const moved = (at: string | null) => (at === null ? null : new Date(Date.parse(at) + days * 86_400_000).toISOString());
    const times = <T extends { created_at: string; updated_at: string }>(record: T) => ({ ...record, created_at: moved(record.created_at), updated_at: moved(record.updated_at) });
    expect(dated).toEqual({
      endpoints: inventory.endpoints.map(times),
      remediationTargets: inventory.remediationTargets.map(times),
      scopes: inventory.scopes.map(times),
      findings: inventory.findings.map((f) => ({ ...times(f), first_detected_at: moved(f.first_detected_at), remediated_at: moved(f.remediated_at) })),
    });
    expect(generateInventory('demo', seed, { dayMs: demoReferenceMs - 86_400_000 })).toEqual(inventory);
  });

  it('remediates findings around their deadlines, and leaves some open findings past theirs and some not', () => {
    const share = (part: number, whole: number) => part / whole;
    const due = (f: Inventory['findings'][number]) => {
      const days = deadlineDays(defaultSlaPolicy, f.severity, f.is_kev);
      return days === null ? null : Date.parse(f.first_detected_at) + days * 86_400_000;
    };
    const withDeadline = inventory.findings.filter((f) => due(f) !== null);
    const remediated = withDeadline.filter((f) => f.status === 'remediated');
    const open = withDeadline.filter((f) => f.status === 'open');
    const inTime = share(remediated.filter((f) => Date.parse(f.remediated_at!) <= due(f)!).length, remediated.length);
    const overdue = share(open.filter((f) => demoReferenceMs > due(f)!).length, open.length);
    expect(inTime).toBeGreaterThan(0.5);
    expect(inTime).toBeLessThan(0.85);
    expect(overdue).toBeGreaterThan(0.3);
    expect(overdue).toBeLessThan(0.75);
  });
});

/** The share of open findings that are in KEV, and of each severity. */
function openShares(inventory: Inventory): { kev: number; severity: Record<string, number> } {
  let open = 0;
  let kev = 0;
  const severity: Record<string, number> = {};
  for (const f of inventory.findings) {
    if (f.status !== 'open') continue;
    open++;
    if (f.is_kev) kev++;
    severity[f.severity] = (severity[f.severity] ?? 0) + 1;
  }
  for (const band of Object.keys(severity)) severity[band] = (severity[band] as number) / open;
  return { kev: kev / open, severity };
}

/** Findings of catalogued CVEs whose score or KEV status differs from the catalogue's. */
function factsDiffering(inventory: Inventory): string[] {
  const wrong: string[] = [];
  for (const f of inventory.findings) {
    const cve = catalogById.get(f.cve_id);
    if (cve && (f.cvss_score !== cve.cvssScore || f.is_kev !== cve.kev)) wrong.push(`${f.id}: ${f.cve_id} ${f.cvss_score} ${f.is_kev}`);
  }
  return wrong;
}

describe('the story the findings tell', () => {
  it.each(seeds)('has 5 to 25 %% of the open findings of the demo dataset of seed %i in KEV, with believable severities', (seed) => {
    const inventory = inventoryOf(seed);
    const { kev, severity } = openShares(inventory);
    expect(kev).toBeGreaterThanOrEqual(0.05);
    expect(kev).toBeLessThanOrEqual(0.25);
    expect(severity.critical ?? 0).toBeLessThan(0.3);
    expect(severity.high ?? 0).toBeLessThan(0.85);
    expect(severity.medium ?? 0).toBeGreaterThan(0.05);
    expect(factsDiffering(inventory)).toEqual([]);
  });

  it('has 5 to 25 % of the open findings of the bigger datasets in KEV, with the catalogue facts', () => {
    for (const size of ['medium', 'large'] as const) {
      const inventory = generateInventory(size, 1);
      expect(inventory.findings).toHaveLength(datasetSizes[size].findings);
      const { kev, severity } = openShares(inventory);
      expect(kev, size).toBeGreaterThanOrEqual(0.05);
      expect(kev, size).toBeLessThanOrEqual(0.25);
      expect(severity.critical ?? 0, size).toBeLessThan(0.3);
      expect(factsDiffering(inventory), size).toEqual([]);
      // Synthetic CVEs are never in KEV; every other CVE is a catalogued one.
      expect(inventory.findings.filter((f) => !catalogById.has(f.cve_id) && (f.is_kev || !f.cve_id.startsWith('CVE-2099-'))).length, size).toBe(0);
    }
  }, 60_000);

  it('keeps real, mostly non-KEV CVEs in the catalogue', () => {
    // KEV lists about 1,400 of the 250,000 and more CVEs: a catalogue of mostly KEV CVEs would
    // make every fleet look compromised.
    expect(cveCatalog.filter((cve) => !cve.kev).length).toBeGreaterThanOrEqual(55);
  });
});

describe('determinism', () => {
  it('gives the same JSON for the same seed and different data for another seed', () => {
    const again = JSON.stringify(generateInventory('demo', seeds[0] as number));
    expect(again).toBe(JSON.stringify(inventoryOf(seeds[0] as number)));
    expect(again).not.toBe(JSON.stringify(inventoryOf(seeds[1] as number)));
  });

  it('rejects an unknown size and a seed that is not a safe integer', () => {
    expect(() => generateInventory('huge' as 'demo', 1)).toThrow(RangeError);
    expect(() => generateInventory('demo', 1.5)).toThrow(RangeError);
  });
});

describe('the demo organization', () => {
  it('says its data is generated', () => {
    expect(demoOrganization).toEqual({ slug: 'demo', name: 'Demo Organization (generated data)' });
  });
});
