import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionBasics } from '../../../contracts/collection-basics.js';
import type { Inventory } from '../../../contracts/inventory.js';
import { consoleInventory } from '../../test/support/console-inventory.js';
import { type ConsoleTestServer, startConsoleTestServer } from '../../test/support/console-test-server.js';
import { parseCsv } from '../../test/support/csv.js';
import { inSortOrder, withConsoleFields } from '../../test/support/sort-oracle.js';

let server: ConsoleTestServer;
const inventory: Inventory = consoleInventory();
// A finding and a target on an endpoint the replica does not hold: no endpoint filter keeps them.
const unknownEndpoint = '0000000e-0000-4000-8000-000000000001';
inventory.findings.push({ ...inventory.findings[1]!, id: '0000000f-0000-4000-8000-000000000001', endpoint_id: unknownEndpoint, remediation_target_id: null });
inventory.remediationTargets.push({ ...inventory.remediationTargets[1]!, id: '0000000f-0000-4000-8000-000000000002', endpoint_id: unknownEndpoint });

beforeAll(async () => {
  server = await startConsoleTestServer([{ slug: 'acme', inventory }]);
});
afterAll(() => server.close());

/** Every item of a /v1 list with its query, read with the organization's key a page at a time. */
async function v1Items(path: string, query: Record<string, string>): Promise<any[]> {
  const items: any[] = [];
  for (;;) {
    const search = new URLSearchParams({ ...query, limit: '100', offset: String(items.length) });
    const response = await fetch(`${server.url}/v1/${path}?${search}`, { headers: { Authorization: `Bearer ${server.orgs[0]!.apiKey}` } });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { data: any[]; total: number };
    items.push(...page.data);
    if (items.length >= page.total || page.data.length === 0) return items;
  }
}

/**
 * The ids of the items of a /v1 list (`path`, with `query`) on the endpoints /v1 lists for
 * `endpointQuery` (`osFamily`, `hasAgent`): each endpoint's items asked of /v1 by its id.
 */
async function v1ItemsOnEndpoints(path: string, endpointQuery: Record<string, string>, query: Record<string, string>): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const endpoint of await v1Items('endpoints', endpointQuery)) {
    for (const item of await v1Items(path, { ...query, endpointId: endpoint.id })) ids.add(item.id);
  }
  return ids;
}

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('findings filtered by their endpoint', () => {
  const cases: [Record<string, string>, Record<string, string>][] = [
    [{ osFamily: 'windows' }, {}],
    [{ osFamily: 'linux' }, { status: 'open', severity: 'critical' }],
    [{ osFamily: 'macos', hasAgent: 'true' }, { isKev: 'true' }],
    [{ hasAgent: 'false' }, { status: 'remediated' }],
    [{ osFamily: 'windows', hasAgent: 'false' }, { status: 'open', isKev: 'true', severity: 'critical' }],
    [{ osFamily: 'linux', hasAgent: 'true' }, { cveId: 'cve-2024-1003' }],
  ];

  it.each(cases)('%j with %j: the items and count /v1 gives, endpoint by endpoint', async (endpointQuery, filters) => {
    const expected = await v1ItemsOnEndpoints('vulnerability-findings', endpointQuery, filters);
    const page = await server.app(`/orgs/acme/vulnerability-findings?${query({ ...endpointQuery, ...filters, limit: '5' })}`);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(expected.size);
    const listed = await server.appAll(`/orgs/acme/vulnerability-findings?${query({ ...endpointQuery, ...filters })}`);
    expect(new Set(listed.map((finding) => finding.id))).toEqual(expected);
    for (const finding of listed) {
      if (endpointQuery.osFamily) expect(finding.endpoint_os_family).toBe(endpointQuery.osFamily);
      if (endpointQuery.hasAgent) expect(finding.endpoint_has_agent).toBe(endpointQuery.hasAgent === 'true');
    }
  });

  it('finds something for most of these filters, and never a finding whose endpoint the replica does not hold', async () => {
    expect((await server.app('/orgs/acme/vulnerability-findings?osFamily=windows&status=open')).body.total).toBeGreaterThan(10);
    for (const parameters of ['osFamily=windows', 'osFamily=linux', 'osFamily=macos', 'hasAgent=true', 'hasAgent=false']) {
      const listed = await server.appAll(`/orgs/acme/vulnerability-findings?${parameters}`);
      expect(listed.map((finding) => finding.endpoint_id)).not.toContain(unknownEndpoint);
      expect(listed.map((finding) => finding.endpoint_id)).not.toContain(null);
    }
    const unknown = (await server.app('/orgs/acme/vulnerability-findings/0000000f-0000-4000-8000-000000000001')).body;
    expect(unknown).toMatchObject({ endpoint_os_family: null, endpoint_has_agent: null });
  });

  it('sorts the filtered findings in every order, paged as one list', async () => {
    const { findings } = withConsoleFields(inventory);
    const onLinux = await v1ItemsOnEndpoints('vulnerability-findings', { osFamily: 'linux' }, { status: 'open' });
    for (const sort of ['-risk', 'risk', '-cvss_score', 'endpoint_hostname', '-due_at', 'created_at']) {
      const expected = inSortOrder('findings', sort, findings.filter((finding) => onLinux.has(finding.id))).map((finding) => finding.id);
      const pages: string[] = [];
      for (let offset = 0; offset < expected.length; offset += 7) {
        const page = await server.app(`/orgs/acme/vulnerability-findings?osFamily=linux&status=open&sort=${sort}&limit=7&offset=${offset}`);
        expect(page.body.total).toBe(expected.length);
        pages.push(...page.body.data.map((finding: any) => finding.id));
      }
      expect(pages, sort).toEqual(expected);
    }
  });

  it("the view's default (open, riskiest first) puts KEV first, then CVSS descending", async () => {
    const { status, sort } = collectionBasics.findings.defaultView.query;
    const listed = await server.appAll(`/orgs/acme/vulnerability-findings?${query({ status, sort, osFamily: 'windows' })}`);
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.every((finding) => finding.status === 'open')).toBe(true);
    const firstNotKev = listed.findIndex((finding) => !finding.is_kev);
    expect(listed.slice(firstNotKev).some((finding) => finding.is_kev)).toBe(false);
    for (const part of [listed.slice(0, firstNotKev), listed.slice(firstNotKev)]) {
      const scores = part.map((finding) => finding.cvss_score ?? -1);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
  });

  it('exports the filtered findings with the OS family and agent of their endpoint', async () => {
    const expected = await v1ItemsOnEndpoints('vulnerability-findings', { osFamily: 'macos' }, { status: 'open' });
    const [header, ...rows] = parseCsv((await server.app('/orgs/acme/export/vulnerability-findings.csv?osFamily=macos&status=open&sort=-risk')).body);
    const column = (name: string) => rows.map((row) => row[header!.indexOf(name)]);
    expect(new Set(column('id'))).toEqual(expected);
    expect(new Set(column('endpoint_os_family'))).toEqual(new Set(['macos']));
    const withAgent = new Set((await v1Items('endpoints', { osFamily: 'macos', hasAgent: 'true' })).map((endpoint) => endpoint.id));
    expect(column('endpoint_has_agent')).toEqual(column('endpoint_id').map((id) => String(withAgent.has(id!))));
    expect(new Set(column('endpoint_has_agent'))).toEqual(new Set(['true', 'false']));
  });
});

describe('remediation targets filtered by their endpoint', () => {
  it.each([
    [{ osFamily: 'linux' }, {}],
    [{ osFamily: 'windows', hasAgent: 'true' }, { targetType: 'os_patch' }],
    [{ hasAgent: 'false' }, { status: 'active' }],
  ] as [Record<string, string>, Record<string, string>][])('%j with %j: the items /v1 gives, endpoint by endpoint', async (endpointQuery, filters) => {
    const expected = await v1ItemsOnEndpoints('remediation-targets', endpointQuery, filters);
    expect(expected.size).toBeGreaterThan(0);
    const listed = await server.appAll(`/orgs/acme/remediation-targets?${query({ ...endpointQuery, ...filters })}`);
    expect(new Set(listed.map((target) => target.id))).toEqual(expected);
    expect(listed.map((target) => target.endpoint_id)).not.toContain(unknownEndpoint);
    const sorted = (await server.app(`/orgs/acme/remediation-targets?${query({ ...endpointQuery, ...filters, sort: '-product', limit: '100' })}`)).body;
    expect(sorted.total).toBe(expected.size);
    expect(sorted.data.map((target: any) => target.id)).toEqual(inSortOrder('remediationTargets', '-product', listed).map((target) => target.id));
  });

  it('exports them with the OS family and agent of their endpoint', async () => {
    const [header, ...rows] = parseCsv((await server.app('/orgs/acme/export/remediation-targets.csv?osFamily=windows&hasAgent=false')).body);
    expect(header!.slice(-4, -2)).toEqual(['endpoint_os_family', 'endpoint_has_agent']);
    expect(rows.length).toBe((await v1ItemsOnEndpoints('remediation-targets', { osFamily: 'windows', hasAgent: 'false' }, {})).size);
    for (const row of rows) expect(row.slice(-4, -2)).toEqual(['windows', 'false']);
  });
});

describe('the endpoint filters', () => {
  it('refuse a value they do not know, naming the parameter', async () => {
    for (const [path, name] of [
      ['/vulnerability-findings?osFamily=beos', 'osFamily'],
      ['/vulnerability-findings?hasAgent=maybe', 'hasAgent'],
      ['/remediation-targets?osFamily=other', 'osFamily'],
      ['/export/remediation-targets.csv?hasAgent=yes', 'hasAgent'],
    ] as const) {
      const response = await server.app(`/orgs/acme${path}`);
      expect(response.status, path).toBe(400);
      expect(JSON.stringify(response.body), path).toContain(name);
    }
  });

  it('see a write at the next read', async () => {
    const before = (await server.app('/orgs/acme/vulnerability-findings?osFamily=linux')).body.total;
    const moved = inventory.endpoints.find((endpoint) => endpoint.operating_system.family === 'linux')!;
    const onIt = (await v1Items('vulnerability-findings', { endpointId: moved.id })).length;
    expect(onIt).toBeGreaterThan(0);
    server.store.write((writes) =>
      writes.replace(server.orgs[0]!.organization.inventoryId, {
        ...inventory,
        endpoints: inventory.endpoints.map((endpoint) =>
          endpoint.id === moved.id ? { ...endpoint, operating_system: { ...endpoint.operating_system, family: 'windows' } } : endpoint,
        ),
      }), { changes: ['inventory'] },
    );
    expect((await server.app('/orgs/acme/vulnerability-findings?osFamily=linux')).body.total).toBe(before - onIt);
  });
});
