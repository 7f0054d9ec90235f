/**
 * Endpoint context in the figures (issue 28), through the app the server builds, on the demo
 * organization (and, in `npm run test:slow`, on another seed): tags and criticality are set with the console's own
 * operations (a bulk change by a filter, tag rules, one endpoint's edit), then the scopes' tag
 * criteria, the coverage gaps, the risk weighed by criticality, the endpoints' order and the
 * filters by tag and criticality are checked against a computation of our own over the data as
 * /v1 answers it and the tags as this test set them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Inventory } from '../../contracts/inventory.js';
import { generateInventory } from '../demo/index.js';
import { demoSeed } from '../organizations/ensure-demo-organization.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { isCoverageGap, scopeCovers } from './support/coverage-oracle.js';
import { isSlowRun } from './support/trial-count.js';

/** An item as the APIs answer it. */
type Row = Record<string, any> & { id: string };

/** The weights of the documented risk score, and the factors of criticality, written out. */
const weights: Record<string, number> = { critical: 100, high: 30, medium: 10, low: 3, info: 1 };
const factors: Record<string, number> = { low: 0.5, normal: 1, high: 2, critical: 4 };
const findingWeight = (finding: Row) => weights[finding.severity]! * (finding.is_kev ? 5 : 1);

/** What the test knows of an organization: its data as /v1 answers it, and the tags and criticality it set. */
interface Known {
  slug: string;
  endpoints: Row[];
  targets: Row[];
  scopes: Row[];
  findings: Row[];
  tags: Map<string, Set<string>>;
  criticality: Map<string, string>;
}

const orgs = [
  { slug: 'demo', inventory: generateInventory('demo', demoSeed) },
  ...(isSlowRun() ? [{ slug: 'other', inventory: generateInventory('demo', 515_151) }] : []),
];
let server: ConsoleTestServer;
const known = new Map<string, Known>();

const asInventory = (k: Known) => ({ endpoints: k.endpoints, remediationTargets: k.targets, scopes: k.scopes, findings: k.findings }) as unknown as Inventory;
const tagsOf = (k: Known, endpointId: string | null) => (endpointId === null ? new Set<string>() : (k.tags.get(endpointId) ?? new Set<string>()));
const criticalityOf = (k: Known, endpointId: string) => k.criticality.get(endpointId) ?? 'normal';
const held = (k: Known, endpointId: string | null) => endpointId !== null && k.endpoints.some((endpoint) => endpoint.id === endpointId);

async function ok(path: string, options?: { method?: string; body?: unknown }) {
  const { status, body } = await server.app(path, options);
  expect([200, 201], `${options?.method ?? 'GET'} ${path}: ${JSON.stringify(body)}`).toContain(status);
  return body;
}

/** A scope covers a finding by the documented rules, its tags included: the finding's endpoint carries one of them. */
function covers(k: Known, scope: Row, finding: Row): boolean {
  if (!scopeCovers(asInventory(k), scope as never, finding as never)) return false;
  const wanted: string[] = scope.endpoint_filter.tags ?? [];
  if (wanted.length === 0) return true;
  const carried = tagsOf(k, finding.endpoint_id);
  return wanted.some((tag) => carried.has(tag.toLowerCase()));
}

function countsOf(findings: Row[]) {
  return {
    findings: findings.length,
    openFindings: findings.filter((finding) => finding.status === 'open').length,
    endpoints: new Set(findings.flatMap((finding) => (finding.endpoint_id === null ? [] : [finding.endpoint_id]))).size,
  };
}

/** Adds a tag (as its lower case: tags compare without case) to endpoints in the test's own record. */
function tag(k: Known, tagName: string, endpoints: Row[]) {
  for (const endpoint of endpoints) {
    const tags = k.tags.get(endpoint.id) ?? new Set<string>();
    tags.add(tagName.toLowerCase());
    k.tags.set(endpoint.id, tags);
  }
}

beforeAll(async () => {
  server = await startConsoleTestServer(orgs);
  for (const { slug } of orgs) {
    const [endpoints, targets, scopes, findings] = await Promise.all(
      ['endpoints', 'remediation-targets', 'scopes', 'vulnerability-findings'].map((path) => server.v1All(slug, path)),
    );
    known.set(slug, { slug, endpoints: endpoints!, targets: targets!, scopes: scopes!, findings: findings!, tags: new Map(), criticality: new Map() });
  }
}, 120_000);
afterAll(() => server.close());

describe.each(orgs.map(({ slug }) => slug))('endpoint context in the figures of %s', (slug) => {
  const k = () => known.get(slug)!;

  it('leaves a scope\'s tag criterion out, saying what evaluates it, while the organization has no tag', async () => {
    const tagged = k().scopes.filter((scope) => scope.endpoint_filter.tags?.length);
    expect(tagged.length).toBeGreaterThan(0);
    for (const scope of tagged) {
      const coverage = await ok(`/orgs/${slug}/scopes/${scope.id}/coverage?limit=1`);
      expect(coverage.unevaluated).toContainEqual({ field: 'endpoint_filter.tags', reason: expect.stringContaining('setting tags on endpoints or adding tag rules') });
      // The counts are as if the criterion were absent.
      const expected = countsOf(k().findings.filter((finding) => scopeCovers(asInventory(k()), scope as never, finding as never)));
      expect({ findings: coverage.counts.findings, openFindings: coverage.counts.openFindings, endpoints: coverage.counts.endpoints }).toEqual(expected);
    }
  });

  it('sets tags and criticality with the console\'s operations', async () => {
    const { endpoints } = k();
    // A bulk change by the endpoints list's filter, the tag spelt in another case than the scopes'.
    const windows = endpoints.filter((endpoint) => endpoint.operating_system.family === 'windows');
    const bulk = await ok(`/orgs/${slug}/endpoint-context/bulk`, { method: 'POST', body: { filter: 'osFamily=windows', add_tags: ['Finance', 'workstation'] } });
    expect(bulk.matched).toBe(windows.length);
    tag(k(), 'finance', windows);
    tag(k(), 'workstation', windows);
    // Rules, applied at read time.
    await ok(`/orgs/${slug}/tag-rules`, { method: 'POST', body: { tag: 'server', conditions: [{ kind: 'os_name', pattern: '*server*' }] } });
    tag(k(), 'server', endpoints.filter((endpoint) => /server/i.test(endpoint.operating_system.name) && !endpoint.operating_system.name.includes('/')));
    await ok(`/orgs/${slug}/tag-rules`, {
      method: 'POST',
      body: { tag: 'engineering', conditions: [{ kind: 'os_family', os_family: 'linux' }, { kind: 'agent', has_agent: false }] },
    });
    tag(k(), 'engineering', endpoints.filter((endpoint) => endpoint.operating_system.family === 'linux' && endpoint.agent_id === null));
    // Criticality: every Linux endpoint critical, then those without an agent low, then one Windows endpoint high.
    await ok(`/orgs/${slug}/endpoint-context/bulk`, { method: 'POST', body: { filter: 'osFamily=linux', criticality: 'critical' } });
    for (const endpoint of endpoints.filter((e) => e.operating_system.family === 'linux')) k().criticality.set(endpoint.id, 'critical');
    await ok(`/orgs/${slug}/endpoint-context/bulk`, { method: 'POST', body: { filter: 'hasAgent=false', criticality: 'low' } });
    for (const endpoint of endpoints.filter((e) => e.agent_id === null)) k().criticality.set(endpoint.id, 'low');
    await ok(`/orgs/${slug}/endpoints/${windows[0]!.id}/context`, { method: 'PUT', body: { criticality: 'high' } });
    k().criticality.set(windows[0]!.id, 'high');
    expect(new Set(k().criticality.values())).toEqual(new Set(['critical', 'low', 'high']));
  });

  it('evaluates every scope\'s tag criterion against the tags, in coverage and the gaps', async () => {
    for (const scope of k().scopes) {
      const coverage = await ok(`/orgs/${slug}/scopes/${scope.id}/coverage?limit=1`);
      expect(coverage.unevaluated.map((criterion: Row) => criterion.field)).not.toContain('endpoint_filter.tags');
      const expected = countsOf(k().findings.filter((finding) => covers(k(), scope, finding)));
      expect({ findings: coverage.counts.findings, openFindings: coverage.counts.openFindings, endpoints: coverage.counts.endpoints }, scope.name).toEqual(expected);
    }
    // The scopes with tags now cover something on both organizations.
    const taggedCovering = k().scopes.filter((scope) => scope.endpoint_filter.tags?.length && k().findings.some((finding) => covers(k(), scope, finding)));
    expect(taggedCovering.length).toBeGreaterThan(0);

    const gaps = await ok(`/orgs/${slug}/coverage-gaps?limit=100`);
    // A gap is open, critical, high or KEV, and no active scope covers it (tags included).
    const withTags = k().findings.filter(
      (finding) =>
        isCoverageGap({ ...asInventory(k()), scopes: [] } as Inventory, finding as never) &&
        !k().scopes.some((scope) => scope.status === 'active' && covers(k(), scope, finding)),
    );
    expect(gaps.counts.findings).toBe(withTags.length);
    expect(gaps.unevaluated.map((criterion: Row) => criterion.field)).not.toContain('endpoint_filter.tags');
  });

  it('weighs each endpoint\'s risk by its criticality, keeps the score before it, and orders the endpoints by it', async () => {
    const listed = await server.appAll(`/orgs/${slug}/endpoints`);
    const open = k().findings.filter((finding) => finding.status === 'open');
    const before = new Map<string, number>();
    for (const finding of open) if (finding.endpoint_id !== null) before.set(finding.endpoint_id, (before.get(finding.endpoint_id) ?? 0) + findingWeight(finding));
    const risk = (id: string) => (before.get(id) ?? 0) * factors[criticalityOf(k(), id)]!;
    for (const endpoint of listed) {
      expect(endpoint.criticality).toBe(criticalityOf(k(), endpoint.id));
      expect(endpoint.risk_score_before_criticality).toBe(before.get(endpoint.id) ?? 0);
      expect(endpoint.risk_score).toBe(risk(endpoint.id));
      expect(new Set(endpoint.tags.map((t: string) => t.toLowerCase()))).toEqual(tagsOf(k(), endpoint.id));
    }
    // Riskiest first, ties by id descending; a criticality changes the order the figures alone would give.
    const expectedOrder = [...k().endpoints].sort((a, b) => risk(b.id) - risk(a.id) || (a.id < b.id ? 1 : -1)).map((endpoint) => endpoint.id);
    const firstPage = await ok(`/orgs/${slug}/endpoints?sort=-risk_score&limit=100`);
    expect(firstPage.data.map((endpoint: Row) => endpoint.id)).toEqual(expectedOrder.slice(0, 100));
    const unweighedOrder = [...k().endpoints].sort((a, b) => (before.get(b.id) ?? 0) - (before.get(a.id) ?? 0) || (a.id < b.id ? 1 : -1)).map((e) => e.id);
    expect(expectedOrder.slice(0, 20)).not.toEqual(unweighedOrder.slice(0, 20));
  });

  it('filters the endpoints, findings and targets lists by tag and criticality, alone and with the other filters', async () => {
    const ids = (rows: Row[]) => rows.map((row) => row.id).sort();
    const byEndpoint = (rows: Row[], keep: (endpointId: string) => boolean) => ids(rows.filter((row) => held(k(), row.endpoint_id) && keep(row.endpoint_id)));
    const cases: [string, (endpointId: string) => boolean][] = [
      ['tag=FINANCE', (id) => tagsOf(k(), id).has('finance')],
      ['tag=server', (id) => tagsOf(k(), id).has('server')],
      ['criticality=critical', (id) => criticalityOf(k(), id) === 'critical'],
      ['criticality=normal&tag=workstation', (id) => criticalityOf(k(), id) === 'normal' && tagsOf(k(), id).has('workstation')],
      ['tag=engineering&hasAgent=false', (id) => tagsOf(k(), id).has('engineering')],
      ['tag=no-such-tag', () => false],
    ];
    for (const [index, [query, keep]] of cases.entries()) {
      // Every finding compared for two filters; the others by their totals (a million-row list is read a page at a time).
      const expected = byEndpoint(k().findings, keep);
      if (index % 3 === 0) expect(ids(await server.appAll(`/orgs/${slug}/vulnerability-findings?${query}`)), `findings ${query}`).toEqual(expected);
      else expect((await ok(`/orgs/${slug}/vulnerability-findings?${query}&limit=1`)).total, `findings ${query}`).toBe(expected.length);
      expect(ids(await server.appAll(`/orgs/${slug}/remediation-targets?${query}`)), `targets ${query}`).toEqual(byEndpoint(k().targets, keep));
      expect(ids(await server.appAll(`/orgs/${slug}/endpoints?${query}`)), `endpoints ${query}`).toEqual(ids(k().endpoints.filter((e) => keep(e.id))));
    }
    // With an order of figures and a flag of its own: the findings of finance endpoints, open, by hostname.
    const sorted = await server.appAll(`/orgs/${slug}/vulnerability-findings?tag=finance&status=open&sort=endpoint_hostname`);
    expect(ids(sorted)).toEqual(ids(k().findings.filter((f) => f.status === 'open' && tagsOf(k(), f.endpoint_id).has('finance'))));
    // A bad value is refused, naming the parameter.
    const bad = await server.app(`/orgs/${slug}/vulnerability-findings?criticality=vital`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('criticality');
  });

  it('narrows the dashboard, the software list, the plan and the remediation performance to a tag or a criticality', async () => {
    const keep = (id: string | null) => held(k(), id) && tagsOf(k(), id).has('finance');
    const findings = k().findings.filter((finding) => keep(finding.endpoint_id));
    const open = findings.filter((finding) => finding.status === 'open');
    const dashboard = await ok(`/orgs/${slug}/dashboard?tag=finance`);
    expect(dashboard.totals).toMatchObject({
      endpoints: k().endpoints.filter((endpoint) => keep(endpoint.id)).length,
      remediationTargets: k().targets.filter((target) => keep(target.endpoint_id)).length,
      findings: findings.length,
      openFindings: open.length,
      openKevFindings: open.filter((finding) => finding.is_kev).length,
    });

    // A product's risk: its open findings on finance endpoints, each weighed by its endpoint's criticality.
    const targets = new Map(k().targets.map((target) => [target.id, target]));
    const productRisk = new Map<string, number>();
    for (const finding of open) {
      const target = targets.get(finding.remediation_target_id);
      if (!target) continue;
      const key = JSON.stringify([target.vendor, target.product]);
      productRisk.set(key, (productRisk.get(key) ?? 0) + findingWeight(finding) * factors[criticalityOf(k(), finding.endpoint_id)]!);
    }
    const software = await server.appAll(`/orgs/${slug}/software?tag=finance`);
    for (const product of software) expect(product.risk_score, `${product.vendor} ${product.product}`).toBe(productRisk.get(JSON.stringify([product.vendor, product.product])) ?? 0);
    expect(software.filter((product) => product.risk_score > 0).length).toBe(productRisk.size);

    const plan = await ok(`/orgs/${slug}/remediation-plan?tag=finance`);
    expect(plan.open_critical_or_kev).toBe(open.filter((finding) => finding.severity === 'critical' || finding.is_kev).length);

    const performance = await ok(`/orgs/${slug}/remediation-performance`);
    const everyTag = [...new Set([...k().tags.values()].flatMap((set) => [...set]))].sort();
    expect(performance.tags.map((row: Row) => row.tag.toLowerCase()).sort()).toEqual(everyTag);
    for (const row of performance.tags) {
      const tagged = k().endpoints.filter((endpoint) => tagsOf(k(), endpoint.id).has(row.tag.toLowerCase()));
      expect(row.endpoints, row.tag).toBe(tagged.length);
      expect(row.open, row.tag).toBe(k().findings.filter((f) => f.status === 'open' && tagsOf(k(), f.endpoint_id).has(row.tag.toLowerCase()) && held(k(), f.endpoint_id)).length);
    }
    const critical = await ok(`/orgs/${slug}/remediation-performance?criticality=critical`);
    expect(critical.totals.open).toBe(k().findings.filter((f) => f.status === 'open' && held(k(), f.endpoint_id) && criticalityOf(k(), f.endpoint_id) === 'critical').length);
  });
});
