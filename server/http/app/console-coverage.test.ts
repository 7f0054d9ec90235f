import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VulnerabilityFinding } from '../../../contracts/vulnerability-finding.js';
import { consoleInventory } from '../../test/support/console-inventory.js';
import { isCoverageGap, scopeCovers } from '../../test/support/coverage-oracle.js';
import { type ConsoleTestServer, startConsoleTestServer } from '../../test/support/console-test-server.js';

let server: ConsoleTestServer;
const inventory = consoleInventory();

beforeAll(async () => {
  server = await startConsoleTestServer([{ slug: 'acme', inventory }]);
});
afterAll(() => server.close());

const inDefaultOrder = (findings: VulnerabilityFinding[]) =>
  [...findings].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : 1));

function countsOf(findings: VulnerabilityFinding[]) {
  return {
    findings: findings.length,
    openFindings: findings.filter((f) => f.status === 'open').length,
    endpoints: new Set(findings.map((f) => f.endpoint_id).filter((id) => id !== null)).size,
    remediationTargets: new Set(findings.map((f) => f.remediation_target_id).filter((id) => id !== null)).size,
    bySeverity: Object.fromEntries(['critical', 'high', 'medium', 'low', 'info'].map((s) => [s, findings.filter((f) => f.severity === s).length])),
  };
}

async function allPages(path: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 7) {
    const page = (await server.app(`${path}${path.includes('?') ? '&' : '?'}limit=7&offset=${offset}`)).body.findings;
    ids.push(...page.data.map((f: any) => f.id));
    if (offset + 7 >= page.total) return ids;
  }
}

describe('dashboard', () => {
  it('aggregates the organization', async () => {
    const { body } = await server.app('/orgs/acme/dashboard');
    const open = inventory.findings.filter((f) => f.status === 'open');
    expect(body.totals).toEqual({
      endpoints: 24,
      remediationTargets: 72,
      findings: 300,
      openFindings: open.length,
      openKevFindings: open.filter((f) => f.is_kev).length,
      scopes: inventory.scopes.length,
    });
    expect(body.findingsBySeverity[0]).toEqual({
      severity: 'critical',
      open: open.filter((f) => f.severity === 'critical').length,
      remediated: inventory.findings.filter((f) => f.severity === 'critical' && f.status === 'remediated').length,
    });
    expect(body.endpointsByOsFamily).toEqual(['macos', 'windows', 'linux', 'other'].map((family) => ({ family, count: 6 })));
    expect(body.agentCoverage).toEqual({ withAgent: 16, withoutAgent: 8 });

    const perProduct = new Map<string, number>();
    for (const finding of open) {
      const product = inventory.remediationTargets.find((t) => t.id === finding.remediation_target_id)?.product;
      if (product) perProduct.set(product, (perProduct.get(product) ?? 0) + 1);
    }
    expect(body.topVulnerableProducts.map((p: any) => [p.product, p.openFindings])).toEqual(
      [...perProduct].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
    );

    const months = [...new Set(inventory.findings.map((f) => f.first_detected_at.slice(0, 7)))].sort();
    expect(body.findingsOverTime.map((m: any) => m.month)).toEqual(months);
    const total = body.findingsOverTime.reduce((sum: number, m: any) => sum + m.critical + m.high + m.medium + m.low + m.info, 0);
    expect(total).toBe(300);
  });

  it('is recomputed after a write', async () => {
    const before = (await server.app('/orgs/acme/dashboard')).body;
    server.store.write((writes) => writes.replace(server.orgs[0]!.organization.inventoryId, { ...inventory, findings: inventory.findings.slice(0, 10) }), { changes: ['inventory'] });
    const after = (await server.app('/orgs/acme/dashboard')).body;
    expect(after.totals.findings).toBe(10);
    server.store.write((writes) => writes.replace(server.orgs[0]!.organization.inventoryId, inventory), { changes: ['inventory'] });
    expect((await server.app('/orgs/acme/dashboard')).body).toEqual(before);
  });
});

describe('scope coverage', () => {
  it.each(inventory.scopes.map((scope) => [scope.name, scope] as const))('%s covers what the documented rules say', async (_name, scope) => {
    const covered = inDefaultOrder(inventory.findings.filter((f) => scopeCovers(inventory, scope, f)));
    const { body, status } = await server.app(`/orgs/acme/scopes/${scope.id}/coverage?limit=100`);
    expect(status).toBe(200);
    expect(body.scopeId).toBe(scope.id);
    expect(body.counts).toEqual(countsOf(covered));
    expect(await allPages(`/orgs/acme/scopes/${scope.id}/coverage`)).toEqual(covered.map((f) => f.id));
    const open = (await server.app(`/orgs/acme/scopes/${scope.id}/coverage?status=open&limit=100`)).body.findings;
    expect(open.total).toBe(covered.filter((f) => f.status === 'open').length);
    expect(open.data.every((f: any) => f.status === 'open')).toBe(true);
  });

  it('says which criteria it cannot evaluate', async () => {
    const tags = (await server.app(`/orgs/acme/scopes/${inventory.scopes[4]!.id}/coverage`)).body;
    expect(tags.unevaluated).toEqual([{ field: 'endpoint_filter.tags', reason: expect.stringContaining('no tags') }]);
    const cpe = (await server.app(`/orgs/acme/scopes/${inventory.scopes[2]!.id}/coverage`)).body;
    expect(cpe.unevaluated.map((u: any) => u.field)).toEqual(['subject_filter.cpe_patterns']);
    expect(cpe.counts.findings).toBeGreaterThan(0);
    expect((await server.app(`/orgs/acme/scopes/${inventory.scopes[0]!.id}/coverage`)).body.unevaluated).toEqual([]);
  });

  it('answers 404 for an unknown scope and 400 for bad parameters', async () => {
    expect((await server.app('/orgs/acme/scopes/00000000-0000-4000-8000-000000000000/coverage')).status).toBe(404);
    expect((await server.app('/orgs/acme/scopes/nope/coverage')).status).toBe(400);
    const bad = await server.app(`/orgs/acme/scopes/${inventory.scopes[0]!.id}/coverage?status=closed`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('"status"');
  });
});

describe('coverage gaps', () => {
  it('lists the open critical, high or KEV findings no active scope covers', async () => {
    const gaps = inDefaultOrder(inventory.findings.filter((f) => isCoverageGap(inventory, f)));
    expect(gaps.length).toBeGreaterThan(0);
    const { body } = await server.app('/orgs/acme/coverage-gaps?limit=3');
    expect(body.activeScopes).toBe(inventory.scopes.filter((s) => s.status === 'active').length);
    expect(body.candidates).toBe(
      inventory.findings.filter((f) => f.status === 'open' && (f.severity === 'critical' || f.severity === 'high' || f.is_kev)).length,
    );
    expect(body.counts).toEqual(countsOf(gaps));
    expect(body.unevaluated.map((u: any) => [u.scopeId, u.scopeName, u.field])).toEqual([
      [inventory.scopes[2]!.id, inventory.scopes[2]!.name, 'subject_filter.cpe_patterns'],
      [inventory.scopes[4]!.id, inventory.scopes[4]!.name, 'endpoint_filter.tags'],
    ]);
    expect(await allPages('/orgs/acme/coverage-gaps')).toEqual(gaps.map((f) => f.id));
  });

  it('refuses bad paging', async () => {
    expect((await server.app('/orgs/acme/coverage-gaps?limit=101')).body.error).toContain('"limit"');
  });
});
