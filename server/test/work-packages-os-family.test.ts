/**
 * The remediation plan and its work packages filtered by the endpoints' OS family (issue 39: "for
 * the plan as filtered (tag, criticality, OS, organization)"), through the app the product
 * builds, on the demo's data, against an oracle read from /v1 with the organization's key: the
 * endpoints' families, and the open critical or KEV findings each step closes on them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemediationPlan } from '../../contracts/console/software.js';
import type { WorkPackage, WorkPackageList } from '../../contracts/console/work-packages.js';
import { filterableOsFamilies } from '../../contracts/enums.js';
import { generateInventory } from '../demo/generate.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';

let server: ConsoleTestServer;
/** The /v1 oracle: each endpoint's OS family, and the findings the plan counts (open, critical or KEV) with their product. */
let familyOf: Map<string, string>;
let counted: { endpoint: string; product: string }[];

beforeAll(async () => {
  server = await startConsoleTestServer([{ slug: 'acme', inventory: generateInventory('demo', 7) }]);
  familyOf = new Map((await server.v1All('acme', 'endpoints')).map((endpoint: { id: string; operating_system: { family: string } }) => [endpoint.id, endpoint.operating_system.family]));
  const targets = new Map((await server.v1All('acme', 'remediation-targets')).map((target: { id: string; vendor: string | null; product: string | null }) => [target.id, productKey(target)]));
  counted = (await server.v1All('acme', 'vulnerability-findings'))
    .filter((finding: { status: string; severity: string; is_kev: boolean }) => finding.status === 'open' && (finding.severity === 'critical' || finding.is_kev))
    .map((finding: { endpoint_id: string; remediation_target_id: string | null }) => ({ endpoint: finding.endpoint_id, product: targets.get(finding.remediation_target_id ?? '') ?? '' }));
}, 120_000);
afterAll(() => server.close());

const productKey = (named: { vendor: string | null; product: string | null }) => JSON.stringify([named.vendor, named.product]);
const packagesOf = async (query: string) => ((await server.app(`/orgs/acme/work-packages${query}`)).body as WorkPackageList).data;
const endpointIds = (work: WorkPackage) => work.endpoints.map((endpoint) => endpoint.endpoint_id);
/** What /v1 says a step closes on the endpoints given (on any, also those the replica does not hold, when none are): the counted findings of its product on them. */
const closedOn = (work: WorkPackage, endpoints?: ReadonlySet<string>) => counted.filter((finding) => finding.product === productKey(work) && (!endpoints || endpoints.has(finding.endpoint))).length;

describe('the plan and its work packages by OS family', () => {
  it('keeps, for each family, the steps and endpoints of that family with the findings /v1 counts on them, under the whole plan\'s external ids', async () => {
    const whole = await packagesOf('');
    // The oracle agrees with the unfiltered plan: the check below is of the filter, not of the oracle.
    for (const work of whole) expect(closedOn(work)).toBe(work.findings.total);
    const families = new Set(familyOf.values());
    expect(filterableOsFamilies.filter((family) => families.has(family)).length).toBeGreaterThanOrEqual(2);

    for (const family of filterableOsFamilies) {
      const ofFamily = new Set([...familyOf].filter(([, each]) => each === family).map(([id]) => id));
      const packages = await packagesOf(`?osFamily=${family}`);
      // The steps are the whole plan's products with counted findings on the family's endpoints, each with those endpoints in the same order.
      const expected = whole.filter((work) => closedOn(work, ofFamily) > 0);
      expect(new Set(packages.map((work) => work.external_id)), family).toEqual(new Set(expected.map((work) => work.external_id)));
      for (const work of packages) {
        const before = whole.find((each) => each.external_id === work.external_id)!;
        expect(endpointIds(work)).toEqual(endpointIds(before).filter((id) => ofFamily.has(id)));
        expect(work.findings.total).toBe(closedOn(work, ofFamily));
        expect(work.update_to).toEqual(before.update_to);
      }
      // The plan itself, with the same filter, has the same steps.
      const plan = (await server.app(`/orgs/acme/remediation-plan?osFamily=${family}`)).body as RemediationPlan;
      expect(plan.steps.map((step) => [step.product_id, step.closes, step.endpoints])).toEqual(packages.map((work) => [work.product_id, work.findings.total, work.endpoints.length]));
      // The export with the filter writes the same packages.
      const exported = await fetch(`${server.url}/app/orgs/acme/export/work-packages?format=json&osFamily=${family}`, { headers: { 'x-console-token': server.consoleToken } });
      expect(((await exported.json()) as WorkPackageList).data.map((work) => work.external_id)).toEqual(packages.map((work) => work.external_id));
    }
  }, 120_000);

  it('combines with the other filters, and refuses a family it does not know by name', async () => {
    const windowsCritical = await packagesOf('?osFamily=windows&criticality=normal');
    expect(windowsCritical.flatMap((work) => work.endpoints).every((endpoint) => familyOf.get(endpoint.endpoint_id) === 'windows' && endpoint.criticality === 'normal')).toBe(true);
    for (const path of ['/work-packages?osFamily=beos', '/remediation-plan?osFamily=other', '/export/work-packages?format=jira&osFamily=Windows']) {
      const answer = await server.app(`/orgs/acme${path}`);
      expect([path, answer.status]).toEqual([path, 400]);
      expect((answer.body as { error: string }).error).toMatch(/osFamily.*must be one of macos, windows, linux/);
    }
  });
});
