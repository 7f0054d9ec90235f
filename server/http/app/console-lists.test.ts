import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionAtPath, collections } from '../../../contracts/collections.js';
import { parseCsv } from '../../test/support/csv.js';
import { consoleInventory } from '../../test/support/console-inventory.js';
import { type ConsoleTestServer, startConsoleTestServer } from '../../test/support/console-test-server.js';

let server: ConsoleTestServer;
const inventory = consoleInventory();

beforeAll(async () => {
  const other = consoleInventory();
  // The second organization's ids differ, so that an id of one is unknown to the other.
  const renamed = JSON.parse(JSON.stringify(other).replace(/-0000-4000-8000-/g, '-1111-4000-8000-'));
  server = await startConsoleTestServer([
    { slug: 'acme', inventory },
    { slug: 'other', inventory: renamed },
  ]);
});
afterAll(() => server.close());

const v1 = async (path: string) => {
  const response = await fetch(`${server.url}/v1${path}`, { headers: { Authorization: `Bearer ${server.orgs[0]!.apiKey}` } });
  return response.json() as Promise<any>;
};

describe('the console token', () => {
  it.each(['/session', '/organizations', '/orgs/acme/endpoints', '/orgs/nope/dashboard', '/orgs/acme/api-keys'])(
    'refuses %s without the token, or with another one',
    async (path) => {
      for (const token of [null, 'wrong', `${server.consoleToken}x`]) {
        const response = await server.app(path, { token });
        expect(response.status).toBe(401);
        // Without the header, nor a session cookie, the answer says how a browser gets a session.
        expect(response.body).toEqual({ error: token === null ? expect.stringMatching(/^No console session.*console-url/) : expect.stringMatching(/^Invalid console token: x-console-token takes only the desktop app's token of this run/) });
      }
    },
  );

  it('is not accepted by /v1, nor an API key by /app', async () => {
    const response = await fetch(`${server.url}/v1/endpoints`, { headers: { Authorization: `Bearer ${server.consoleToken}` } });
    expect(response.status).toBe(401);
    expect((await server.app('/session', { token: server.orgs[0]!.apiKey })).status).toBe(401);
  });
});

describe('session and organizations', () => {
  it('tells the loopback API address', async () => {
    const response = await server.app('/session');
    expect(response.body).toEqual({ apiBaseUrl: server.url, secretStorage: null });
  });

  it('lists the organizations without secrets or row ids', async () => {
    const response = await server.app('/organizations');
    expect(response.body.data.map((o: any) => o.slug)).toEqual(['acme', 'other']);
    for (const organization of response.body.data) {
      expect(Object.keys(organization).sort()).toEqual(
        ['createdAt', 'hasEnrollmentSecret', 'id', 'isDemo', 'kind', 'name', 'remoteUrl', 'slug'].sort(),
      );
    }
  });

  it('answers 404 for an unknown organization and 400 for a malformed slug', async () => {
    expect(await server.app('/orgs/nope/endpoints')).toMatchObject({ status: 404, body: { error: 'Organization "nope" not found' } });
    expect((await server.app('/orgs/NOT_A_SLUG/endpoints')).status).toBe(400);
  });
});

/** An item of a console list without the console's own fields: the /v1 item. */
function withoutConsoleFields(path: string, item: Record<string, unknown>) {
  const { consoleFields } = collections[collectionAtPath(path.slice(1))!];
  return Object.fromEntries(Object.entries(item).filter(([field]) => !(field in consoleFields)));
}

const lists = [
  ['/endpoints', ['', '?osFamily=linux', '?hasAgent=false&limit=5&offset=2']],
  ['/remediation-targets', ['', '?targetType=service&status=active', `?endpointId=${inventory.endpoints[3]!.id}`]],
  ['/scopes', ['', '?status=active']],
  ['/vulnerability-findings', ['?limit=100', '?severity=critical&status=open', '?isKev=true&offset=3', '?cveId=cve-2024-1003', `?remediationTargetId=${inventory.remediationTargets[5]!.id}`]],
] as const;

describe('the four lists', () => {
  it.each(lists)("%s answers what /v1 answers for the same filters, each item with the console's own fields", async (path, queries) => {
    const { consoleFields } = collections[collectionAtPath(path.slice(1))!];
    for (const query of queries) {
      const response = await server.app(`/orgs/acme${path}${query}`);
      expect(response.status).toBe(200);
      for (const item of response.body.data) expect(Object.keys(item)).toEqual(expect.arrayContaining(Object.keys(consoleFields)));
      expect({ ...response.body, data: response.body.data.map((item: any) => withoutConsoleFields(path, item)) }).toEqual(await v1(`${path}${query}`));
    }
  });

  it.each(lists)('%s sorts newest first with sort=-created_at', async (path) => {
    const ascending = (await server.app(`/orgs/acme${path}?limit=100`)).body;
    const descending = (await server.app(`/orgs/acme${path}?limit=100&sort=-created_at`)).body;
    if (ascending.total <= 100) expect(descending.data).toEqual([...ascending.data].reverse());
    const last = (await server.app(`/orgs/acme${path}?limit=1&offset=${ascending.total - 1}`)).body.data[0];
    expect(descending.data[0]).toEqual(last);
  });

  it('searches endpoints by hostname or IP, targets by product, vendor or package, scopes by name', async () => {
    const hosts = (await server.app('/orgs/acme/endpoints?q=HOST-1&limit=100')).body;
    expect(hosts.data.map((e: any) => e.hostname)).toEqual(inventory.endpoints.filter((e) => e.hostname.startsWith('host-1')).map((e) => e.hostname));
    expect(hosts.total).toBe(10);
    expect((await server.app('/orgs/acme/endpoints?q=10.0.0.24')).body.total).toBe(1);
    expect((await server.app('/orgs/acme/endpoints?q=%25')).body.total).toBe(0);
    const targets = (await server.app('/orgs/acme/remediation-targets?q=log4j&limit=100')).body;
    expect(targets.total).toBe(inventory.remediationTargets.filter((t) => t.product === 'Log4j').length);
    expect((await server.app('/orgs/acme/scopes?q=scope%203')).body.data.map((s: any) => s.name)).toEqual(['Scope 3']);
  });

  it('refuses invalid parameters with a message naming them', async () => {
    for (const [path, name] of [
      ['/endpoints?limit=0', 'limit'],
      ['/endpoints?sort=ip', 'sort'],
      ['/remediation-targets?endpointId=nope', 'endpointId'],
      ['/vulnerability-findings?isKev=maybe', 'isKev'],
      ['/vulnerability-findings?severity=critical&severity=high', 'severity'],
      [`/scopes?q=${'x'.repeat(101)}`, 'q'],
    ] as const) {
      const response = await server.app(`/orgs/acme${path}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(`"${name}"`);
    }
  });

  it('gets one item by id, and answers 404 for an id of another organization', async () => {
    const finding = inventory.findings[7]!;
    const got = (await server.app(`/orgs/acme/vulnerability-findings/${finding.id.toUpperCase()}`)).body;
    expect(withoutConsoleFields('/vulnerability-findings', got)).toEqual(await v1(`/vulnerability-findings/${finding.id}`));
    expect(got).toMatchObject({ endpoint_hostname: inventory.endpoints.find((e) => e.id === finding.endpoint_id)?.hostname ?? null });
    const foreign = (await server.app('/orgs/other/endpoints?limit=1')).body.data[0];
    expect((await server.app(`/orgs/acme/endpoints/${foreign.id}`)).status).toBe(404);
    expect((await server.app('/orgs/acme/scopes/not-a-uuid')).status).toBe(400);
  });
});

describe('local API keys', () => {
  it('creates a key shown once, lists it by hint, and revokes it', async () => {
    const created = await server.app('/orgs/other/api-keys', { method: 'POST', body: { label: ' ci runner ' } });
    expect(created.status).toBe(201);
    const { key, info } = created.body;
    expect(key).toMatch(/^rc_/);
    expect(info).toMatchObject({ label: 'ci runner', hint: key.slice(-4), revokedAt: null });

    const endpoints = await fetch(`${server.url}/v1/endpoints?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
    expect(((await endpoints.json()) as any).data[0].id).toContain('-1111-');

    const listed = (await server.app('/orgs/other/api-keys')).body.data;
    expect(listed).toContainEqual(info);
    expect(JSON.stringify(listed)).not.toContain(key);
    expect((await server.app('/orgs/acme/api-keys')).body.data.map((k: any) => k.id)).not.toContain(info.id);

    expect((await server.app(`/orgs/acme/api-keys/${info.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await server.app(`/orgs/other/api-keys/${info.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await server.app(`/orgs/other/api-keys/${info.id}`, { method: 'DELETE' })).status).toBe(404);
    const refused = await fetch(`${server.url}/v1/endpoints`, { headers: { Authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(401);
    expect((await server.app('/orgs/other/api-keys')).body.data.find((k: any) => k.id === info.id).revokedAt).not.toBeNull();
  });

  it('creates a key without a label, and refuses a bad body', async () => {
    const created = await server.app('/orgs/acme/api-keys', { method: 'POST' });
    expect(created.status).toBe(201);
    expect(created.body.info.label).toBeNull();
    expect((await server.app('/orgs/acme/api-keys', { method: 'POST', body: { label: 'x'.repeat(101) } })).body.error).toContain('"label"');
    expect((await server.app('/orgs/acme/api-keys', { method: 'POST', body: { label: 'a', admin: true } })).status).toBe(400);
    expect((await server.app('/orgs/acme/api-keys', { method: 'POST', body: '{nope' })).status).toBe(400);
    expect((await server.app('/orgs/acme/api-keys/nope', { method: 'DELETE' })).status).toBe(400);
  });
});

describe('CSV export', () => {
  it('exports every item of the filtered list, in its order, as an attachment', async () => {
    const response = await fetch(`${server.url}/app/orgs/acme/export/vulnerability-findings.csv?status=open&sort=-created_at&limit=3`, {
      headers: { 'x-console-token': server.consoleToken },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="acme-vulnerability-findings.csv"');
    const [header, ...rows] = parseCsv(await response.text());
    expect(header).toEqual([
      ...Object.keys(inventory.findings[0]!),
      'endpoint_hostname',
      'endpoint_os_family',
      'endpoint_has_agent',
      'target_product',
      'target_version',
      'age_days',
      'due_at',
      'overdue',
      'exception.id',
      'exception.reason',
      'exception.expires_at',
      'epss',
      'epss_percentile',
      'epss_score_date',
      'epss_model_version',
      'epss_state',
      'kev.date_added',
      'kev.due_date',
      'kev.ransomware',
      'kev.required_action',
      'kev.sources',
      'bod2604_outcome',
      'ssvc_decision',
      'fix_by',
      'fix_by_path',
    ]);
    const expected = [];
    for (let offset = 0; ; offset += 100) {
      const page = (await server.app(`/orgs/acme/vulnerability-findings?status=open&sort=-created_at&limit=100&offset=${offset}`)).body;
      expected.push(...page.data);
      if (offset + 100 >= page.total) break;
    }
    expect(rows.map((row) => row[0])).toEqual(expected.map((f: any) => f.id));
    for (const column of ['is_kev', 'due_at', 'overdue', 'bod2604_outcome', 'fix_by']) {
      const at = header!.indexOf(column);
      expect(rows.map((row) => row[at]), column).toEqual(expected.map((f: any) => (f[column] === null ? '' : String(f[column]))));
    }
  });

  it('spreads the operating system over columns and defuses formulas', async () => {
    const text = await (await fetch(`${server.url}/app/orgs/acme/export/endpoints.csv?q=host-01`, { headers: { 'x-console-token': server.consoleToken } })).text();
    const [header, row] = parseCsv(text);
    expect(header).toContain('operating_system.family');
    expect(row![header!.indexOf('operating_system.family')]).toBe('windows');
    const targets = parseCsv(await (await fetch(`${server.url}/app/orgs/acme/export/scopes.csv`, { headers: { 'x-console-token': server.consoleToken } })).text());
    expect(targets).toHaveLength(inventory.scopes.length + 1);
    expect(JSON.parse(targets[1]![targets[0]!.indexOf('finding_filter')]!)).toEqual(inventory.scopes[0]!.finding_filter);
  });

  it('needs the console token and valid filters', async () => {
    expect((await fetch(`${server.url}/app/orgs/acme/export/endpoints.csv`)).status).toBe(401);
    expect((await server.app('/orgs/acme/export/endpoints.csv?osFamily=beos')).status).toBe(400);
  });
});

describe('agent configuration', () => {
  it('validates the query as /v1/agent/config does, and answers 409 without an enrollment secret', async () => {
    expect((await server.app('/orgs/acme/agent-config')).body.error).toContain('"platform"');
    expect((await server.app('/orgs/acme/agent-config?platform=linux&profile=mdm-full')).body.error).toContain('platform/profile');
    const refused = await server.app('/orgs/acme/agent-config?platform=macos&profile=mdm-permissions');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('enrollment secret');
  });
});
