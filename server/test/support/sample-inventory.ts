/**
 * A small, deterministic, hand-made inventory for sync tests: every field of every resource,
 * timestamps spread over a year so that the default order is not the insertion order.
 */
import type { Inventory } from '../../../contracts/inventory.js';

const uuid = (kind: number, n: number) => `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** A timestamp `n` steps into the sample's year, shuffled so that ids and times do not agree. */
const at = (n: number, salt: number) => new Date(Date.UTC(2025, 0, 1) + ((n * 7919 + salt * 104_729) % 500_000) * 60_000).toISOString();

/** Sizes of a sample inventory. */
export interface SampleSizes {
  endpoints: number;
  targetsPerEndpoint: number;
  findingsPerTarget: number;
  scopes: number;
}

/** Builds a sample inventory; the same sizes give the same data. */
export function sampleInventory(sizes: SampleSizes = { endpoints: 30, targetsPerEndpoint: 3, findingsPerTarget: 2, scopes: 5 }): Inventory {
  const inventory: Inventory = { endpoints: [], remediationTargets: [], scopes: [], findings: [] };
  for (let e = 0; e < sizes.endpoints; e++) {
    const endpointId = uuid(1, e);
    inventory.endpoints.push({
      id: endpointId,
      hostname: `host-${e}.example.test`,
      ip: e % 5 === 0 ? null : `10.0.${e >> 8}.${e & 255}`,
      mac_address: e % 4 === 0 ? null : `02:00:00:00:${(e >> 8).toString(16).padStart(2, '0')}:${(e & 255).toString(16).padStart(2, '0')}`,
      operating_system: { name: ['macOS', 'Windows', 'Ubuntu'][e % 3]!, version: e % 6 === 0 ? null : '1.0', family: (['macos', 'windows', 'linux'] as const)[e % 3]!, vendor: null, architecture: 'x86_64' },
      agent_id: e % 3 === 0 ? null : uuid(9, e),
      agent_version: e % 3 === 0 ? null : '4.2.0',
      created_at: at(e, 1),
      updated_at: at(e, 2),
    });
    for (let t = 0; t < sizes.targetsPerEndpoint; t++) {
      const n = e * sizes.targetsPerEndpoint + t;
      const targetId = uuid(2, n);
      const cve = `CVE-2024-${1000 + (n % 17)}`;
      inventory.remediationTargets.push({
        id: targetId,
        endpoint_id: endpointId,
        target_type: (['software', 'os_patch', 'configuration', 'service'] as const)[n % 4]!,
        vendor: n % 5 === 0 ? null : 'Vendor',
        product: `Product ${n % 11}`,
        version: '2.1',
        install_path: null,
        package_name: null,
        package_manager: null,
        status: (['active', 'stale', 'resolved'] as const)[n % 3]!,
        source: 'scanner',
        associated_cves: [cve],
        highest_cvss_score: n % 7 === 0 ? null : (n % 100) / 10,
        created_at: at(n, 3),
        updated_at: at(n, 4),
      });
      for (let f = 0; f < sizes.findingsPerTarget; f++) {
        const m = n * sizes.findingsPerTarget + f;
        inventory.findings.push({
          id: uuid(3, m),
          endpoint_id: endpointId,
          remediation_target_id: targetId,
          cve_id: cve,
          severity: (['critical', 'high', 'medium', 'low', 'info'] as const)[m % 5]!,
          cvss_score: (m % 100) / 10,
          is_kev: m % 9 === 0,
          status: m % 4 === 0 ? 'remediated' : 'open',
          source: 'scanner',
          title: `Vulnerability ${cve}`,
          description: m % 6 === 0 ? null : `Description of ${cve}`,
          solution: `Update product ${n % 11}`,
          first_detected_at: at(m, 5),
          remediated_at: m % 4 === 0 ? at(m, 6) : null,
          created_at: at(m, 7),
          updated_at: at(m, 8),
        });
      }
    }
  }
  for (let s = 0; s < sizes.scopes; s++) {
    inventory.scopes.push({
      id: uuid(4, s),
      name: `Scope ${s}`,
      description: s % 2 === 0 ? null : `Scope number ${s}`,
      status: (['active', 'paused', 'archived'] as const)[s % 3]!,
      subject_filter: { subject_types: ['software'] },
      endpoint_filter: s % 2 === 0 ? {} : { os_families: ['linux'], has_agent: true },
      finding_filter: { min_severity: 'high', kev_only: s % 3 === 0 },
      created_at: at(s, 9),
      updated_at: at(s, 10),
    });
  }
  return inventory;
}
