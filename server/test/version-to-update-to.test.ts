/**
 * The version to update to (issue 28, item 6): for each product of the software view, the newest
 * version seen in the fleet, its installs and open findings, and whether it is clean of open
 * critical and KEV findings; and the same for the product of a finding's remediation target.
 * Checked through the app the server builds against a computation of our own over the /v1 data,
 * on the demo, another seed, and an inventory made to hold each verdict.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { softwareDetailSchema, softwareListSchema, targetUpdateSchema } from '../../contracts/console/software.js';
import type { VersionToUpdateTo } from '../../contracts/console/version-to-update-to.js';
import type { Inventory } from '../../contracts/inventory.js';
import type { VulnerabilityFinding } from '../../contracts/vulnerability-finding.js';
import { demoSeed } from '../organizations/ensure-demo-organization.js';
import { compareVersions, parseVersion } from '../store/exposure/version-order.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { demoInventory, smallInventory } from './support/fixtures.js';

type Item = Record<string, any>;

/**
 * A slice of the demo whose first targets are rewritten into three products of our own:
 * Acme Widget (Chrome's trap: 116.0.5845.110 is newer than .96, and clean; a newer 200.0 only on
 * a resolved target), Acme Tool (its newest, 2.0.0, has a KEV finding) and Acme Gadget (no
 * version that reads as one).
 */
function madeInventory(): Inventory {
  const base = smallInventory(4711, 30);
  const template = base.findings[0]!;
  const plan: { product: string; version: string | null; status?: 'resolved'; findings: [severity: VulnerabilityFinding['severity'], kev: boolean][] }[] = [
    { product: 'Widget', version: '116.0.5845.96', findings: [['critical', false], ['low', false]] },
    { product: 'Widget', version: '116.0.5845.96', findings: [['high', true]] },
    { product: 'Widget', version: '116.0.5845.110', findings: [['medium', false], ['low', false]] },
    { product: 'Widget', version: '116.0.5845.110', findings: [] },
    { product: 'Widget', version: '200.0', status: 'resolved', findings: [] },
    { product: 'Tool', version: '1.0', findings: [['low', false]] },
    { product: 'Tool', version: '2.0.0', findings: [['medium', true]] },
    { product: 'Tool', version: '2.0.0-rc1', findings: [] },
    { product: 'Gadget', version: 'unknown', findings: [['critical', true]] },
    { product: 'Gadget', version: null, findings: [] },
  ];
  const rewritten = new Set<string>();
  const targets = base.remediationTargets.map((target, i) => {
    const change = plan[i];
    if (!change) return target;
    rewritten.add(target.id);
    return { ...target, vendor: 'Acme', product: change.product, version: change.version, status: change.status ?? ('active' as const) };
  });
  const findings = base.findings.filter((f) => f.remediation_target_id === null || !rewritten.has(f.remediation_target_id));
  plan.forEach((change, i) => {
    const target = targets[i]!;
    for (const [severity, kev] of change.findings) {
      findings.push({ ...template, id: randomUUID(), endpoint_id: target.endpoint_id, remediation_target_id: target.id, severity, is_kev: kev, status: 'open', remediated_at: null });
    }
  });
  return { ...base, remediationTargets: targets, findings };
}

let server: ConsoleTestServer;

beforeAll(async () => {
  server = await startConsoleTestServer([
    { slug: 'demo', inventory: demoInventory(demoSeed) },
    { slug: 'other', inventory: demoInventory(424242) },
    { slug: 'made', inventory: madeInventory() },
  ]);
});
afterAll(() => server.close());

const productKey = (t: Item) => JSON.stringify([t.vendor, t.product]);

/** Our own computation over the /v1 data: the newest version seen (on a target not resolved) that reads as a version, and what it carries. */
function expectedUpdates(targets: Item[], findings: Item[]) {
  const openByTarget = new Map<string, Item[]>();
  for (const f of findings) if (f.status === 'open' && f.remediation_target_id) openByTarget.set(f.remediation_target_id, [...(openByTarget.get(f.remediation_target_id) ?? []), f]);
  const byProduct = new Map<string, Item[]>();
  for (const t of targets) byProduct.set(productKey(t), [...(byProduct.get(productKey(t)) ?? []), t]);
  const expected = new Map<string, Omit<VersionToUpdateTo, 'version_id' | 'sentence'>>();
  for (const [key, group] of byProduct) {
    const seen = group.filter((t) => t.status !== 'resolved');
    const versions = [...new Set(seen.map((t) => t.version as string | null))];
    const readable = versions.filter((v): v is string => v !== null && parseVersion(v) !== undefined);
    const newest = readable.sort(compareVersions).at(-1);
    if (newest === undefined) {
      expected.set(key, { verdict: 'no_version', version: null, installs: 0, endpoints: 0, open_findings: 0, open_critical: 0, open_kev_findings: 0, unreadable_versions: versions.length });
      continue;
    }
    const installs = seen.filter((t) => t.version === newest);
    const open = group.filter((t) => t.version === newest).flatMap((t) => openByTarget.get(t.id) ?? []);
    const critical = open.filter((f) => f.severity === 'critical').length;
    const kev = open.filter((f) => f.is_kev).length;
    expected.set(key, {
      verdict: critical === 0 && kev === 0 ? 'update_to' : 'none_clean',
      version: newest,
      installs: installs.length,
      endpoints: new Set(installs.filter((t) => t.endpoint_id !== null).map((t) => t.endpoint_id)).size,
      open_findings: open.length,
      open_critical: critical,
      open_kev_findings: kev,
      unreadable_versions: versions.length - readable.length,
    });
  }
  return expected;
}

/** Memoized per organization: the data changes in no test of this file. */
function perSlug<T>(read: (slug: string) => Promise<T>): (slug: string) => Promise<T> {
  const answers = new Map<string, Promise<T>>();
  return (slug) => {
    if (!answers.has(slug)) answers.set(slug, read(slug));
    return answers.get(slug)!;
  };
}

/** The organization's targets and findings read through /v1. */
const publicData = perSlug((slug) => Promise.all([server.v1All(slug, 'remediation-targets'), server.v1All(slug, 'vulnerability-findings')]));

/** Every product of the software list, with its detail. */
const productDetails = perSlug(readProductDetails);

async function readProductDetails(slug: string) {
  const listed = softwareListSchema.parse({ data: await server.appAll(`/orgs/${slug}/software`), total: 0, limit: 100, offset: 0 }).data;
  return Promise.all(
    listed.map(async (product) => {
      const { status, body } = await server.app(`/orgs/${slug}/software/${product.id}`);
      expect(status).toBe(200);
      return softwareDetailSchema.parse(body);
    }),
  );
}

describe.each(['demo', 'other', 'made'])('the %s organization', (slug) => {
  it('names for each product the newest version seen in the fleet, its installs and open findings, and whether it is clean', async () => {
    const [targets, findings] = await publicData(slug);
    const expected = expectedUpdates(targets, findings);
    const details = await productDetails(slug);
    expect(details).toHaveLength(expected.size);
    const verdicts = new Set<string>();
    for (const { product, versions, update_to } of details) {
      // Riskiest first, ties by version order (oldest first), not by text.
      for (let i = 1; i < versions.length; i++) {
        const [a, b] = [versions[i - 1]!, versions[i]!];
        expect(a.risk_score).toBeGreaterThanOrEqual(b.risk_score);
        if (a.risk_score === b.risk_score) expect(compareVersions(a.version, b.version), `${a.version} before ${b.version}`).toBeLessThan(0);
      }
      const { version_id, sentence, ...figures } = update_to;
      expect(figures, `${product.vendor} ${product.product}`).toEqual(expected.get(JSON.stringify([product.vendor, product.product])));
      verdicts.add(update_to.verdict);
      // The version's id is the product's version of that name, and its figures agree.
      const version = versions.find((v) => v.id === version_id);
      if (update_to.version === null) expect(version_id).toBeNull();
      else {
        expect(version?.version).toBe(update_to.version);
        expect(version?.endpoints).toBe(update_to.endpoints);
        expect(version?.open_findings.critical).toBe(update_to.open_critical);
        expect(version?.open_kev_findings).toBe(update_to.open_kev_findings);
      }
      const endpoints = `${update_to.endpoints} endpoint${update_to.endpoints === 1 ? '' : 's'}`;
      if (update_to.verdict === 'update_to') expect(sentence).toBe(`Update to ${update_to.version} (run by ${endpoints}, no open critical or KEV finding).`);
      if (update_to.verdict === 'none_clean') expect(sentence).toMatch(new RegExp(`^No version seen in the fleet is clean: the newest, ${escape(update_to.version!)} \\(run by ${endpoints}\\), has .*open (critical|KEV) finding`));
    }
    // The demos show both verdicts that matter; the made inventory all three.
    expect(verdicts).toContain('update_to');
    expect(verdicts).toContain('none_clean');
  });

  it("answers for a finding's remediation target the product's version to update to", async () => {
    const [targets, findings] = await publicData(slug);
    const details = new Map((await productDetails(slug)).map((detail) => [JSON.stringify([detail.product.vendor, detail.product.product]), detail]));
    const targetById = new Map(targets.map((t) => [t.id, t]));
    // About 80 findings with a target the replica holds, spread over the list, and so over products; the made products' own.
    const held = findings.filter((f) => targetById.has(f.remediation_target_id));
    const stride = Math.ceil(held.length / 80);
    const sample = held.filter((f, i) => i % stride === 0 || targetById.get(f.remediation_target_id)!.vendor === 'Acme');
    expect(sample.length).toBeGreaterThan(0);
    for (const finding of sample) {
      const target = targetById.get(finding.remediation_target_id)!;
      const { status, body } = await server.app(`/orgs/${slug}/remediation-targets/${target.id}/update-to`);
      expect(status).toBe(200);
      const answer = targetUpdateSchema.parse(body);
      const detail = details.get(productKey(target))!;
      expect(answer).toEqual({
        product_id: detail.product.id,
        vendor: target.vendor,
        product: target.product,
        version: target.version,
        runs_newest: detail.update_to.version !== null && target.version === detail.update_to.version,
        update_to: detail.update_to,
      });
    }
  });
});

describe('the made organization', () => {
  const update = async (product: string) => {
    const details = await productDetails('made');
    return details.find((d) => d.product.vendor === 'Acme' && d.product.product === product)!.update_to;
  };

  it('compares versions as versions: 116.0.5845.110 is newer than 116.0.5845.96, and a version only on resolved targets is not seen', async () => {
    expect(await update('Widget')).toMatchObject({
      verdict: 'update_to',
      version: '116.0.5845.110',
      installs: 2,
      open_findings: 2,
      open_critical: 0,
      open_kev_findings: 0,
      sentence: expect.stringMatching(/^Update to 116\.0\.5845\.110 \(run by \d+ endpoints?, no open critical or KEV finding\)\.$/),
    });
  });

  it('says no version is clean when the newest (2.0.0, after its rc) has a KEV finding', async () => {
    expect(await update('Tool')).toMatchObject({ verdict: 'none_clean', version: '2.0.0', open_kev_findings: 1, sentence: expect.stringContaining('has 1 open KEV finding') });
  });

  it('suggests nothing where no version seen reads as a version', async () => {
    expect(await update('Gadget')).toMatchObject({ verdict: 'no_version', version: null, version_id: null, unreadable_versions: 2 });
  });

  it('answers 404 for an unknown target and 400 for an id that is not a UUID', async () => {
    expect((await server.app(`/orgs/made/remediation-targets/${randomUUID()}/update-to`)).status).toBe(404);
    const bad = await server.app('/orgs/made/remediation-targets/not-a-uuid/update-to');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/targetId/);
    // Another organization's target is unknown here.
    const [other] = await server.v1All('other', 'remediation-targets');
    expect((await server.app(`/orgs/made/remediation-targets/${other.id}/update-to`)).status).toBe(404);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
