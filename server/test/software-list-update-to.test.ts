/**
 * The software list's version to update to (issue 28, item 6, "for each product in the Software
 * view"): each product of the list carries the version to update it to, the same as the
 * product's own answer says, whatever the list's filters; and the list's CSV has its verdict and
 * version. Through the app the server builds, on the demo and another seed.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SoftwareInstall, softwareDetailSchema, softwareListSchema, softwareVersionDetailSchema } from '../../contracts/console/software.js';
import { demoSeed } from '../organizations/ensure-demo-organization.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { demoInventory } from './support/fixtures.js';

const slugs = ['demo', 'other'];
let server: ConsoleTestServer;

beforeAll(async () => {
  server = await startConsoleTestServer([
    { slug: 'demo', inventory: demoInventory(demoSeed) },
    { slug: 'other', inventory: demoInventory(424242) },
  ]);
});
afterAll(() => server.close());

/** Every product of the software list (with `query`), as the contract reads it. */
async function listed(slug: string, query = '') {
  return softwareListSchema.parse({ data: await server.appAll(`/orgs/${slug}/software${query}`), total: 0, limit: 100, offset: 0 }).data;
}

/** The product's own answer's version to update to, cut to what the list gives. */
async function ownUpdateTo(slug: string, productId: string) {
  const { status, body } = await server.app(`/orgs/${slug}/software/${productId}`);
  expect(status).toBe(200);
  const { verdict, version_id, version, sentence } = softwareDetailSchema.parse(body).update_to;
  return { verdict, version_id, version, sentence };
}

/** Every install of a version of a product, a page of 100 at a time. */
async function versionInstalls(slug: string, productId: string, versionId: string) {
  const installs: SoftwareInstall[] = [];
  for (;;) {
    const { status, body } = await server.app(`/orgs/${slug}/software/${productId}/versions/${versionId}?limit=100&offset=${installs.length}`);
    expect(status).toBe(200);
    const page = softwareVersionDetailSchema.parse(body).installs;
    installs.push(...page.data);
    if (page.data.length === 0 || installs.length >= page.total) return installs;
  }
}

describe.each(slugs)('the software list of %s', (slug) => {
  it("gives each product the version to update it to that the product's own answer gives", async () => {
    const products = await listed(slug);
    expect(products.length).toBeGreaterThan(10);
    const verdicts = new Set<string>();
    for (const product of products) {
      expect(product.update_to, `${product.vendor} ${product.product}`).toEqual(await ownUpdateTo(slug, product.id));
      verdicts.add(product.update_to.verdict);
    }
    // Both verdicts that matter show on the list.
    expect(verdicts).toContain('update_to');
    expect(verdicts).toContain('none_clean');
  });

  it("gives the whole fleet's version to update to on a list filtered by criticality, whose figures are the filter's", async () => {
    // A product whose newest version has open critical or KEV findings on some endpoints and is installed (in some version)
    // on others: those endpoints set high, the list of the normal ones counts none of its urgent findings, yet no version is clean.
    let chosen: { productId: string; urgent: Set<string> } | undefined;
    for (const product of await listed(slug)) {
      if (product.update_to.verdict !== 'none_clean') continue;
      const newest = await versionInstalls(slug, product.id, product.update_to.version_id!);
      const urgent = new Set(newest.filter((i) => i.open_findings.critical > 0 || i.open_kev_findings > 0).map((i) => i.endpoint_id!));
      const { body } = await server.app(`/orgs/${slug}/software/${product.id}`);
      const installed = new Set<string>();
      for (const version of softwareDetailSchema.parse(body).versions) {
        for (const install of await versionInstalls(slug, product.id, version.id)) {
          if (install.target_status !== 'resolved' && install.endpoint_id !== null) installed.add(install.endpoint_id);
        }
      }
      if (urgent.size > 0 && [...installed].some((endpointId) => !urgent.has(endpointId))) {
        chosen = { productId: product.id, urgent };
        break;
      }
    }
    expect(chosen, 'a product with no clean version, installed elsewhere too').toBeDefined();
    for (const endpointId of chosen!.urgent) {
      expect((await server.app(`/orgs/${slug}/endpoints/${endpointId}/context`, { method: 'PUT', body: { criticality: 'high' } })).status).toBe(200);
    }
    // The filtered list first, after the write: what it answers is computed for it, not read from the whole list's answer.
    const filtered = await listed(slug, '?criticality=normal');
    const whole = new Map((await listed(slug)).map((product) => [product.id, product]));
    const product = filtered.find((p) => p.id === chosen!.productId);
    expect(product, 'the product on the list of the normal endpoints').toBeDefined();
    // The filter's figures leave out the findings of the high endpoints; the version to update to is the fleet's.
    expect(product!.risk_score).toBeLessThan(whole.get(product!.id)!.risk_score);
    expect(product!.update_to.verdict).toBe('none_clean');
    for (const item of filtered) expect(item.update_to, `${item.vendor} ${item.product}`).toEqual(whole.get(item.id)!.update_to);
  });

  it("exports the verdict and the version to update to as the list's last CSV columns", async () => {
    const products = await listed(slug, '?sort=product');
    const response = await fetch(`${server.url}/app/orgs/${slug}/export/software.csv?sort=product`, { headers: { 'x-console-token': server.consoleToken } });
    expect(response.status).toBe(200);
    const [header, ...rows] = parse(await response.text()) as string[][];
    expect(header!.slice(-2)).toEqual(['update_to_verdict', 'update_to_version']);
    // One column per field otherwise: neither the sentence nor the version's id.
    expect(header!.filter((name) => name.startsWith('update_to'))).toHaveLength(2);
    expect(rows.map((row) => [row[0], ...row.slice(-2)])).toEqual(
      products.map((product) => [product.id, product.update_to.verdict, product.update_to.version ?? '']),
    );
  });
});
