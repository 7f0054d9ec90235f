import type { Endpoint } from '../../../contracts/endpoint.js';
import type { Inventory } from '../../../contracts/inventory.js';
import type { RemediationTarget } from '../../../contracts/remediation-target.js';
import type { Scope } from '../../../contracts/scope.js';
import type { VulnerabilityFinding } from '../../../contracts/vulnerability-finding.js';

const families = ['macos', 'windows', 'linux', 'other'] as const;
const products = [
  ['Apache', 'Log4j', '2.14.1'],
  ['Google', 'Chrome', '120.0'],
  ['OpenSSL', 'OpenSSL', '3.0.1'],
  ['Microsoft', 'Edge', '118.0'],
  [null, null, null],
] as const;
const targetTypes = ['software', 'os_patch', 'configuration', 'service'] as const;
const severities = ['critical', 'high', 'medium', 'low', 'info'] as const;

/** A uuid whose digits say what it is, so that failures are readable. */
function uuid(kind: number, n: number): string {
  return `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

const at = (day: number) => new Date(Date.UTC(2025, 0, 1) + day * 86_400_000).toISOString();

function scope(n: number, status: Scope['status'], filters: Partial<Pick<Scope, 'subject_filter' | 'endpoint_filter' | 'finding_filter'>>): Scope {
  return {
    id: uuid(4, n),
    name: `Scope ${n}`,
    description: null,
    status,
    subject_filter: filters.subject_filter ?? {},
    endpoint_filter: filters.endpoint_filter ?? {},
    finding_filter: filters.finding_filter ?? {},
    created_at: at(n),
    updated_at: at(n),
  };
}

/**
 * A small inventory built by hand for the console API tests: every OS family, endpoints with
 * and without agent, each target type, findings of every severity over several months, and
 * scopes that exercise every filter, tags and CPE patterns included.
 */
export function consoleInventory(): Inventory {
  const endpoints: Endpoint[] = Array.from({ length: 24 }, (_, i) => ({
    id: uuid(1, i),
    hostname: `host-${String(i).padStart(2, '0')}.example.test`,
    ip: `10.0.0.${i + 1}`,
    mac_address: null,
    operating_system: { name: families[i % 4]!, version: null, family: families[i % 4]!, vendor: null, architecture: null },
    agent_id: i % 3 === 0 ? null : uuid(9, i),
    agent_version: i % 3 === 0 ? null : '1.2.3',
    created_at: at(i),
    updated_at: at(i),
  }));
  const remediationTargets: RemediationTarget[] = Array.from({ length: 72 }, (_, i) => {
    const [vendor, product, version] = products[i % products.length]!;
    return {
      id: uuid(2, i),
      endpoint_id: i === 71 ? null : endpoints[i % endpoints.length]!.id,
      target_type: targetTypes[i % targetTypes.length]!,
      vendor,
      product,
      version,
      install_path: null,
      package_name: product ? `${product.toLowerCase()}-pkg` : null,
      package_manager: null,
      status: 'active',
      source: 'scanner',
      associated_cves: [],
      highest_cvss_score: null,
      created_at: at(i),
      updated_at: at(i),
    };
  });
  const findings: VulnerabilityFinding[] = Array.from({ length: 300 }, (_, i) => {
    const target = i % 29 === 0 ? null : remediationTargets[i % remediationTargets.length]!;
    const remediated = i % 4 === 3;
    return {
      id: uuid(3, i),
      endpoint_id: target?.endpoint_id ?? (i % 2 ? endpoints[i % endpoints.length]!.id : null),
      remediation_target_id: target?.id ?? null,
      cve_id: `CVE-2024-${String(1000 + (i % 40)).padStart(4, '0')}`,
      severity: severities[i % severities.length]!,
      cvss_score: i % 11 === 0 ? null : (i % 101) / 10,
      is_kev: i % 7 === 0,
      status: remediated ? 'remediated' : 'open',
      source: 'scanner',
      title: `Finding ${i}`,
      description: null,
      solution: null,
      first_detected_at: at((i * 3) % 150),
      remediated_at: remediated ? at(160) : null,
      created_at: at(i % 200),
      updated_at: at(i % 200),
    };
  });
  const scopes: Scope[] = [
    scope(0, 'active', { finding_filter: { min_severity: 'critical' }, endpoint_filter: { os_families: ['macos', 'linux'] } }),
    scope(1, 'active', { subject_filter: { vendors: ['apache'], subject_types: ['software'] } }),
    scope(2, 'active', { subject_filter: { cpe_patterns: ['cpe:2.3:a:google:chrome:*:*:*:*:*:*:*:*', 'not a cpe'] } }),
    scope(3, 'paused', { finding_filter: { kev_only: true } }),
    scope(4, 'active', { endpoint_filter: { has_agent: false, tags: ['servers'] }, finding_filter: { min_cvss_score: 5 } }),
    scope(5, 'archived', {}),
    scope(6, 'active', { finding_filter: { finding_types: ['deprecation'] } }),
    scope(7, 'active', { endpoint_filter: { endpoint_ids: [uuid(1, 2).toUpperCase()] }, subject_filter: { products: ['OPENSSL'] } }),
  ];
  return { endpoints, remediationTargets, scopes, findings };
}
