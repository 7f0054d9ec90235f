/**
 * The console's figures for deciding what to fix first (issue 14): each endpoint's exposure and
 * risk score, the software view and the remediation plan, checked against a computation of our
 * own over the organization's data as local tools read it, every endpoint, target and finding
 * through the public /v1 API (the exposure as support/sort-oracle.ts computes it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collections } from '../../contracts/collections.js';
import { exposureSortKinds } from '../../contracts/console/exposure.js';
import { remediationPlanSchema, softwareDetailSchema, softwareListSchema, softwareVersionDetailSchema } from '../../contracts/console/software.js';
import type { Inventory } from '../../contracts/inventory.js';
import { generateInventory } from '../demo/index.js';
import { demoSeed } from '../organizations/ensure-demo-organization.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { exposureOf, inSortOrder } from './support/sort-oracle.js';
import { isSlowRun } from './support/trial-count.js';

/** An item as the APIs answer it; a finding's fields typed for exposureOf. */
type Item = { id: string; severity: string; is_kev: boolean; cvss_score: number | null } & Record<string, any>;
type Row = Record<string, any>;

let server: ConsoleTestServer;
/**
 * The demo organization's data, another seed's, and the demo's with a few findings changed (for
 * the score's properties). `npm test` checks the figures on the demo's seed; `npm run test:slow`
 * on a second seed as well.
 */
const demo = generateInventory('demo', demoSeed);
const seeds = isSlowRun() ? (['demo', 'other'] as const) : (['demo'] as const);

beforeAll(async () => {
  server = await startConsoleTestServer([
    { slug: 'demo', inventory: demo },
    ...(isSlowRun() ? [{ slug: 'other', inventory: generateInventory('demo', 424242) }] : []),
    { slug: 'changed', inventory: changedCopy(demo) },
  ]);
});
afterAll(() => server.close());

/** Every item of a /v1 list of an organization. */
const v1All = (slug: string, path: string): Promise<Item[]> => server.v1All(slug, path);

/** Every item of a console list. */
const appAll = (path: string): Promise<Item[]> => server.appAll(path);

/** The organization's data read through /v1. */
async function publicData(slug: string) {
  const [endpoints, targets, findings] = await Promise.all([v1All(slug, 'endpoints'), v1All(slug, 'remediation-targets'), v1All(slug, 'vulnerability-findings')]);
  return { endpoints, targets, findings, openFindings: findings.filter((f) => f.status === 'open') };
}

const groupBy = <T>(items: T[], key: (item: T) => string) => {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
};
const productKey = (t: Item) => JSON.stringify([t.vendor, t.product]);
const byText = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

describe.each(seeds)('the %s organization', (slug) => {
  it("gives each endpoint its open findings' exposure and risk score, in the list and the detail", async () => {
    const { endpoints, openFindings } = await publicData(slug);
    const byEndpoint = groupBy(openFindings, (f) => f.endpoint_id);
    const listed = await appAll(`/orgs/${slug}/endpoints`);
    expect(listed.map((e) => e.id).sort()).toEqual(endpoints.map((e) => e.id).sort());
    for (const endpoint of listed) {
      const expected = exposureOf(byEndpoint.get(endpoint.id) ?? []);
      expect({ id: endpoint.id, ...pickExposure(endpoint) }).toEqual({ id: endpoint.id, ...expected });
    }
    // The /v1 fields are the /v1 item's, unchanged.
    const v1ById = new Map(endpoints.map((e) => [e.id, e]));
    for (const endpoint of listed.slice(0, 20)) expect(endpoint).toMatchObject(v1ById.get(endpoint.id)!);
    const riskiest = listed.reduce((a, b) => (b.risk_score > a.risk_score ? b : a));
    const { body: detail } = await server.app(`/orgs/${slug}/endpoints/${riskiest.id}`);
    expect(collections.endpoints.consoleItem.parse(detail)).toEqual(riskiest);
  });

  it('sorts endpoints by each exposure key, ties by id, descending the exact reverse', async () => {
    const listed = await appAll(`/orgs/${slug}/endpoints`);
    for (const key of Object.keys(exposureSortKinds)) {
      const ascending = inSortOrder('endpoints', key, listed).map((e) => e.id);
      expect((await appAll(`/orgs/${slug}/endpoints?sort=${key}`)).map((e) => e.id), key).toEqual(ascending);
      expect((await appAll(`/orgs/${slug}/endpoints?sort=-${key}`)).map((e) => e.id), `-${key}`).toEqual([...ascending].reverse());
    }
  });

  it("gives each finding its endpoint's hostname and its target's product and version, and sorts by hostname", async () => {
    const { endpoints, targets, findings } = await publicData(slug);
    const hostnames = new Map(endpoints.map((e) => [e.id, e.hostname]));
    const targetById = new Map(targets.map((t) => [t.id, t]));
    const listed = await appAll(`/orgs/${slug}/vulnerability-findings?sort=endpoint_hostname`);
    expect(listed).toHaveLength(findings.length);
    for (const finding of listed) {
      const target = targetById.get(finding.remediation_target_id);
      expect([finding.endpoint_hostname, finding.target_product, finding.target_version]).toEqual([
        hostnames.get(finding.endpoint_id) ?? null,
        target?.product ?? null,
        target?.version ?? null,
      ]);
    }
    const names = listed.map((f) => f.endpoint_hostname?.toLowerCase() ?? null);
    for (let i = 1; i < names.length; i++) expect(compare(names[i - 1]!, names[i]!)).toBeLessThanOrEqual(0);
  });

  it('groups remediation targets by vendor and product, then version, with their figures', async () => {
    const { targets, openFindings } = await publicData(slug);
    const targetById = new Map(targets.map((t) => [t.id, t]));
    const findingsOf = (inGroup: (t: Item) => boolean) =>
      openFindings.filter((f) => targetById.has(f.remediation_target_id) && inGroup(targetById.get(f.remediation_target_id)!));
    // A target may name no endpoint: it counts for none.
    const unresolvedEndpoints = (group: Item[]) => new Set(group.filter((t) => t.status !== 'resolved' && t.endpoint_id !== null).map((t) => t.endpoint_id)).size;

    const products = groupBy(targets, productKey);
    const listed = softwareListSchema.parse({ data: await appAll(`/orgs/${slug}/software`), total: products.size, limit: 100, offset: 0 }).data;
    expect(listed).toHaveLength(products.size);
    for (const product of listed) {
      const group = products.get(JSON.stringify([product.vendor, product.product]))!;
      expect(group, JSON.stringify(product)).toBeDefined();
      expect(product).toEqual({
        id: product.id,
        vendor: group[0]!.vendor,
        product: group[0]!.product,
        versions: new Set(group.map((t) => t.version)).size,
        endpoints: unresolvedEndpoints(group),
        ...exposureOf(findingsOf((t) => productKey(t) === productKey(group[0]!))),
        // The version to update to is checked in version-to-update-to.test.ts and software-list-update-to.test.ts, the
        // exploit figures in exploit-intel-figures.test.ts.
        update_to: product.update_to,
        exploit_probability_30d: product.exploit_probability_30d,
        unscored_open_cves: product.unscored_open_cves,
      });
    }
    // Riskiest first by default, ties by id reversed.
    const risks = listed.map((p) => p.risk_score);
    expect(risks).toEqual([...risks].sort((a, b) => b - a));

    // The riskiest product's versions, and its riskiest version's installs.
    const { body } = await server.app(`/orgs/${slug}/software/${listed[0]!.id}`);
    const detail = softwareDetailSchema.parse(body);
    const { update_to: _updateTo, ...listedProduct } = listed[0]!;
    expect(detail.product).toEqual(listedProduct);
    const versions = groupBy(products.get(JSON.stringify([listed[0]!.vendor, listed[0]!.product]))!, (t) => JSON.stringify(t.version));
    expect(detail.versions.map((v) => v.version).sort()).toEqual([...versions.values()].map((g) => g[0]!.version).sort());
    for (const version of detail.versions) {
      const group = versions.get(JSON.stringify(version.version))!;
      expect(version).toEqual({
        id: version.id,
        version: version.version,
        endpoints: unresolvedEndpoints(group),
        ...exposureOf(findingsOf((t) => productKey(t) === productKey(group[0]!) && t.version === version.version)),
      });
    }
    const version = detail.versions[0]!;
    const installs: Row[] = [];
    for (let offset = 0; ; offset += 100) {
      const answer = softwareVersionDetailSchema.parse((await server.app(`/orgs/${slug}/software/${listed[0]!.id}/versions/${version.id}?limit=100&offset=${offset}`)).body);
      expect(answer.version).toEqual(version);
      installs.push(...answer.installs.data);
      if (installs.length >= answer.installs.total) break;
    }
    const group = versions.get(JSON.stringify(version.version))!;
    expect(installs.map((i) => i.target_id).sort()).toEqual(group.map((t) => t.id).sort());
    for (const install of installs) {
      expect({ ...install }).toMatchObject({
        target_status: targetById.get(install.target_id)!.status,
        endpoint_id: targetById.get(install.target_id)!.endpoint_id,
        ...exposureOf(openFindings.filter((f) => f.remediation_target_id === install.target_id)),
      });
    }
    for (let i = 1; i < installs.length; i++) expect(installs[i - 1]!.risk_score).toBeGreaterThanOrEqual(installs[i]!.risk_score);
  });

  it('searches and sorts the software list, and exports it as CSV', async () => {
    const all = await appAll(`/orgs/${slug}/software`);
    const word = all[0]!.product.slice(0, 4).toLowerCase();
    const found = await appAll(`/orgs/${slug}/software?q=${encodeURIComponent(word)}`);
    expect(found.map((p) => p.id).sort()).toEqual(
      all
        .filter((p) => [p.vendor, p.product].some((name) => name?.toLowerCase().includes(word)))
        .map((p) => p.id)
        .sort(),
    );
    const byEndpoints = await appAll(`/orgs/${slug}/software?sort=-endpoints`);
    expect(byEndpoints.map((p) => p.id)).toEqual(
      [...all]
        .sort((a, b) => a.endpoints - b.endpoints || compare(a.id, b.id))
        .reverse()
        .map((p) => p.id),
    );
    const csv = await fetch(`${server.url}/app/orgs/${slug}/export/software.csv?sort=-endpoints`, { headers: { 'x-console-token': server.consoleToken } });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,vendor,product,versions,endpoints,open_findings.critical,open_findings.high,open_findings.medium,open_findings.low,open_findings.info,open_kev_findings,highest_open_cvss,risk_score,exploit_probability_30d,unscored_open_cves,update_to_verdict,update_to_version',
    );
    expect(lines).toHaveLength(all.length + 1);
    expect(lines[1]!.split(',')[0]).toBe(byEndpoints[0]!.id);
  });

  it('plans the products that close the most open critical or KEV findings for the fewest endpoints touched', async () => {
    const { targets, openFindings } = await publicData(slug);
    const targetById = new Map(targets.map((t) => [t.id, t]));
    const urgent = openFindings.filter((f) => f.severity === 'critical' || f.is_kev);
    const withProduct = urgent.filter((f) => targetById.has(f.remediation_target_id));
    const byProduct = groupBy(withProduct, (f) => productKey(targetById.get(f.remediation_target_id)!));
    // Greedy, by findings closed per endpoint not yet touched (cross-multiplied), then findings closed, then vendor and product.
    const remaining = [...byProduct.entries()].map(([key, findings]) => ({
      names: JSON.parse(key) as [string | null, string | null],
      closes: findings.length,
      // A finding on no endpoint is closed by the product's update without touching one.
      endpoints: new Set(findings.filter((f) => f.endpoint_id !== null).map((f) => f.endpoint_id as string)),
    }));
    const touched = new Set<string>();
    const expected: Row[] = [];
    let closed = 0;
    while (remaining.length) {
      const fresh = (p: (typeof remaining)[number]) => [...p.endpoints].filter((e) => !touched.has(e)).length;
      remaining.sort(
        (a, b) =>
          b.closes * fresh(a) - a.closes * fresh(b) ||
          b.closes - a.closes ||
          byText(a.names[0], b.names[0]) ||
          byText(a.names[1], b.names[1]),
      );
      const step = remaining.shift()!;
      for (const endpoint of step.endpoints) touched.add(endpoint);
      closed += step.closes;
      expected.push({
        rank: expected.length + 1,
        vendor: step.names[0],
        product: step.names[1],
        closes: step.closes,
        endpoints: step.endpoints.size,
        cumulative_closed: closed,
        cumulative_endpoints: touched.size,
        cumulative_share: closed / urgent.length,
      });
    }
    const plan = remediationPlanSchema.parse((await server.app(`/orgs/${slug}/remediation-plan`)).body);
    expect(plan.open_critical_or_kev).toBe(urgent.length);
    expect(plan.without_product).toBe(urgent.length - withProduct.length);
    // Each step's EPSS sum is checked in exploit-intel-figures.test.ts, its fix-by date in fix-by-api.test.ts.
    expect(plan.steps.map(({ product_id: _id, epss_sum: _epssSum, fix_by: _fixBy, ...step }) => step)).toEqual(expected);
    for (const [index, goal] of [0.5, 0.8, 0.95].entries()) {
      const reachedAt = expected.findIndex((step) => step.cumulative_closed / urgent.length >= goal);
      const step = expected[reachedAt]!;
      const milestone = plan.milestones[index]!;
      expect(milestone).toMatchObject({ goal, reached: true, products: reachedAt + 1, endpoints: step.cumulative_endpoints });
      const products = reachedAt === 0 ? 'this 1 product' : `these ${reachedAt + 1} products`;
      expect(milestone.sentence).toBe(
        `Update ${products} on ${step.cumulative_endpoints.toLocaleString('en-US')} endpoints to close ${(Math.floor((step.cumulative_closed * 1000) / urgent.length) / 10).toFixed(1)} % of open critical and KEV findings.`,
      );
    }
  });
});

describe('the risk score', () => {
  it('is 0 without open findings, grows with each open finding, and weighs a KEV finding more than one of the same severity', async () => {
    const before = new Map((await appAll('/orgs/demo/endpoints')).map((e) => [e.id, e]));
    const after = new Map((await appAll('/orgs/changed/endpoints')).map((e) => [e.id, e]));
    for (const endpoint of before.values()) {
      const open = Object.values(endpoint.open_findings as Record<string, number>).reduce((sum, n) => sum + n, 0);
      expect(endpoint.risk_score === 0).toBe(open === 0);
    }
    for (const change of changes(demo)) {
      const [was, is] = [before.get(change.endpointId)!.risk_score, after.get(change.endpointId)!.risk_score];
      if (change.kind === 'remediated') expect(is, 'an open finding fewer').toBeLessThan(was);
      else expect(is, 'a finding that became KEV').toBeGreaterThan(was);
    }
  });
});

/** Of the demo's endpoints with open findings, the first has one remediated and the second one made KEV (it was not). */
function changes(inventory: Inventory) {
  const open = inventory.findings.filter((f) => f.status === 'open' && f.endpoint_id !== null);
  const remediated = open[0]!;
  const madeKev = open.find((f) => !f.is_kev && f.endpoint_id !== remediated.endpoint_id)!;
  return [
    { kind: 'remediated' as const, findingId: remediated.id, endpointId: remediated.endpoint_id! },
    { kind: 'kev' as const, findingId: madeKev.id, endpointId: madeKev.endpoint_id! },
  ];
}

/** The inventory with {@link changes} made, its ids the same: an id is unique within an organization only. */
function changedCopy(inventory: Inventory): Inventory {
  const copy = structuredClone(inventory);
  for (const change of changes(inventory)) {
    const finding = copy.findings.find((f) => f.id === change.findingId)!;
    if (change.kind === 'remediated') Object.assign(finding, { status: 'remediated', remediated_at: finding.updated_at });
    else finding.is_kev = true;
  }
  return copy;
}

function pickExposure(item: Item) {
  const { open_findings, open_kev_findings, highest_open_cvss, risk_score } = item;
  return { open_findings, open_kev_findings, highest_open_cvss, risk_score };
}

function compare(a: string | number | null, b: string | number | null): number {
  return a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;
}
