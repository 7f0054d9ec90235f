import type { Endpoint } from '../../../contracts/endpoint.js';
import type { Inventory } from '../../../contracts/inventory.js';
import type { RemediationTarget } from '../../../contracts/remediation-target.js';
import type { Scope } from '../../../contracts/scope.js';
import type { VulnerabilityFinding } from '../../../contracts/vulnerability-finding.js';

const severities = ['critical', 'high', 'medium', 'low', 'info'];

/** Whether a CPE pattern matches a target's `cpe:2.3:a:vendor:product:version`: one anchored expression, each `*` a `.*` (for small inputs only). */
export function cpeMatches(pattern: string, cpe: string): boolean {
  const parts = pattern.toLowerCase().split(':');
  if (parts[0] !== 'cpe' || parts[1] !== '2.3' || parts.length < 3) return false;
  const wanted = [2, 3, 4, 5].map((i) => parts[i] || '*');
  const regex = new RegExp(`^cpe:2\\.3:${wanted.map((w) => w.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')).join(':')}$`);
  return regex.test(cpe);
}

const lookups = new WeakMap<Inventory['remediationTargets'], { targets: Map<string, RemediationTarget>; endpoints: Map<string, Endpoint> }>();

/** Targets and endpoints by id, built once per inventory so that big inventories stay quick. */
function lookupsOf(inventory: Inventory) {
  let found = lookups.get(inventory.remediationTargets);
  if (!found) {
    found = {
      targets: new Map(inventory.remediationTargets.map((t) => [t.id, t])),
      endpoints: new Map(inventory.endpoints.map((e) => [e.id, e])),
    };
    lookups.set(inventory.remediationTargets, found);
  }
  return found;
}

/**
 * The documented matching rules of a scope, written again in plain TypeScript over the
 * inventory, so that the SQL translation is checked against an independent reading.
 */
export function scopeCovers(inventory: Inventory, scope: Scope, finding: VulnerabilityFinding): boolean {
  const { targets, endpoints } = lookupsOf(inventory);
  const target = finding.remediation_target_id === null ? undefined : targets.get(finding.remediation_target_id);
  const endpoint = finding.endpoint_id === null ? undefined : endpoints.get(finding.endpoint_id);
  const { subject_filter: s, endpoint_filter: e, finding_filter: f } = scope;
  const lowered = (values: string[]) => values.map((v) => v.toLowerCase());
  if (s.subject_types?.length && !(target && (s.subject_types as string[]).includes(target.target_type))) return false;
  if (s.vendors?.length && !(target?.vendor && lowered(s.vendors).includes(target.vendor.toLowerCase()))) return false;
  if (s.products?.length && !(target?.product && lowered(s.products).includes(target.product.toLowerCase()))) return false;
  if (s.cpe_patterns?.length) {
    if (!target) return false;
    const field = (v: string | null) => (v ?? '-').replaceAll(' ', '_').toLowerCase();
    const cpe = `cpe:2.3:a:${field(target.vendor)}:${field(target.product)}:${field(target.version)}`;
    if (!s.cpe_patterns.some((p) => cpeMatches(p, cpe))) return false;
  }
  if (e.os_families?.length && !(endpoint && (e.os_families as string[]).includes(endpoint.operating_system.family))) return false;
  if (e.endpoint_ids?.length && !(finding.endpoint_id && lowered(e.endpoint_ids).includes(finding.endpoint_id))) return false;
  if (e.has_agent !== undefined && !(endpoint && (endpoint.agent_id !== null) === e.has_agent)) return false;
  if (f.finding_types?.length && !f.finding_types.includes('vulnerability')) return false;
  if (f.min_severity && severities.indexOf(finding.severity) > severities.indexOf(f.min_severity)) return false;
  if (f.min_cvss_score !== undefined && !(finding.cvss_score !== null && finding.cvss_score >= f.min_cvss_score)) return false;
  if (f.kev_only && !finding.is_kev) return false;
  return true;
}

/** Whether a finding is a coverage gap: open, critical, high or KEV, and no active scope covers it. */
export function isCoverageGap(inventory: Inventory, finding: VulnerabilityFinding): boolean {
  if (finding.status !== 'open' || !(finding.severity === 'critical' || finding.severity === 'high' || finding.is_kev)) return false;
  return !inventory.scopes.some((scope) => scope.status === 'active' && scopeCovers(inventory, scope, finding));
}
