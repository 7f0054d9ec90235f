/**
 * Exceptions (issue 15) through the app the server builds, on a fixed clock: each kind of
 * exception applied to the coverage gaps, the risk figures and the findings' marks, checked
 * against a computation of our own over the organization's data as /v1 answers it; expiry by
 * the clock alone, edits, revocation, bad input refused with nothing stored, /v1 unchanged, and
 * an exported file imported into another data directory with the same effect.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exceptionsFileFormat } from '../../contracts/console/exception-basics.js';
import type { ConsoleException } from '../../contracts/console/exceptions.js';
import type { Inventory } from '../../contracts/inventory.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { isCoverageGap } from './support/coverage-oracle.js';
import { exceptedIds, inForceAt, markOf } from './support/exception-oracle.js';
import { smallInventory } from './support/fixtures.js';
import { exposureOf, inSortOrder } from './support/sort-oracle.js';

/** An item as the APIs answer it; a finding's fields typed for exposureOf. */
type Row = { id: string; severity: string; is_kev: boolean; cvss_score: number | null } & Record<string, any>;
const day = 86_400_000;
const inventory = smallInventory(7, 120);
/** The store's clock: moved by the tests, never by a write. */
let now = Date.parse('2026-07-01T12:00:00.000Z');
const clock = () => now;
const iso = (ms: number) => new Date(ms).toISOString();

let server: ConsoleTestServer;
let apiKey: string;
/** The organization's data as /v1 answers it. */
let data: { endpoints: Row[]; targets: Row[]; scopes: Row[]; findings: Row[] };
/** The organization's data as /v1 answers it, as the coverage oracle reads an inventory. */
const publicInventory = () => ({ endpoints: data.endpoints, remediationTargets: data.targets, scopes: data.scopes, findings: data.findings }) as unknown as Inventory;
/** Raw /v1 answers before any exception. */
let v1Before: string[];
const folders: string[] = [];

/** /v1 answers, as text, that exceptions must never change. */
const v1Paths = () => [
  '/v1/vulnerability-findings?limit=100',
  '/v1/vulnerability-findings?limit=100&offset=3000&status=open',
  `/v1/vulnerability-findings/${data.findings[0]!.id}`,
  '/v1/endpoints?limit=100',
  `/v1/endpoints/${data.endpoints[0]!.id}`,
];

async function v1Text(url: string, key: string): Promise<string> {
  return (await fetch(`${url}${key}`, { headers: { Authorization: `Bearer ${apiKey}` } })).text();
}

async function v1All(pathName: string): Promise<Row[]> {
  const items: Row[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = JSON.parse(await v1Text(server.url, `/v1/${pathName}?limit=100&offset=${offset}`)) as { data: Row[]; total: number };
    items.push(...page.data);
    if (items.length >= page.total) return items;
  }
}

/** Every item of a console list or of the gaps, a page of 100 at a time. */
async function appAll(on: ConsoleTestServer, pathName: string, items = (body: any) => body): Promise<Row[]> {
  const listed: Row[] = [];
  const joiner = pathName.includes('?') ? '&' : '?';
  for (let offset = 0; ; offset += 100) {
    const { status, body } = await on.app(`${pathName}${joiner}limit=100&offset=${offset}`);
    expect(status, pathName).toBe(200);
    const page = items(body);
    listed.push(...page.data);
    if (listed.length >= page.total) return listed;
  }
}

async function listExceptions(on = server): Promise<ConsoleException[]> {
  const { status, body } = await on.app('/orgs/acme/exceptions');
  expect(status).toBe(200);
  return body.data;
}

async function create(body: unknown): Promise<ConsoleException> {
  const { status, body: created } = await server.app('/orgs/acme/exceptions', { method: 'POST', body });
  expect(status, JSON.stringify(created)).toBe(201);
  return created;
}

/**
 * Checks every figure exceptions change against the oracle, for the exceptions `listed` at the
 * clock's moment: the gaps (both counts, the listed findings), each endpoint's exposure (after and
 * before), the endpoints by risk, each product's exposure, the plan's total and every finding's mark;
 * answers how many gaps and open findings the exceptions leave out.
 */
async function expectFiguresFollow(on: ConsoleTestServer, listed: ConsoleException[]): Promise<{ gaps: number; open: number }> {
  const inForce = inForceAt(listed, now);
  const excepted = exceptedIds(inForce, data.findings as never);
  const open = data.findings.filter((f) => f.status === 'open');
  const kept = open.filter((f) => !excepted.has(f.id));
  const gapsBefore = data.findings.filter((f) => isCoverageGap(publicInventory(), f as never));
  const gapsAfter = gapsBefore.filter((f) => !excepted.has(f.id));
  const { body: gaps } = await on.app('/orgs/acme/coverage-gaps');
  expect(gaps.counts.findings).toBe(gapsAfter.length);
  expect(gaps.countsBeforeExceptions.findings).toBe(gapsBefore.length);
  expect((await appAll(on, '/orgs/acme/coverage-gaps', (body) => body.findings)).map((f) => f.id)).toEqual(gapsAfter.map((f) => f.id));

  const endpoints = await appAll(on, '/orgs/acme/endpoints');
  const expectedEndpoints = data.endpoints.map((endpoint) => {
    const all = exposureOf(open.filter((f) => f.endpoint_id === endpoint.id));
    const after = exposureOf(kept.filter((f) => f.endpoint_id === endpoint.id));
    const count = (exposure: typeof all) => Object.values(exposure.open_findings).reduce((sum, n) => sum + n, 0);
    return { id: endpoint.id, ...after, excepted_open_findings: count(all) - count(after), risk_score_before_exceptions: all.risk_score };
  });
  const figuresOf = (e: Row) => ({
    id: e.id,
    open_findings: e.open_findings,
    open_kev_findings: e.open_kev_findings,
    highest_open_cvss: e.highest_open_cvss,
    risk_score: e.risk_score,
    excepted_open_findings: e.excepted_open_findings,
    risk_score_before_exceptions: e.risk_score_before_exceptions,
  });
  expect(endpoints.map(figuresOf).sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(expectedEndpoints.sort((a, b) => (a.id < b.id ? -1 : 1)));
  const byRisk = (await appAll(on, '/orgs/acme/endpoints?sort=-risk_score')).map((e) => e.id);
  expect(byRisk).toEqual(inSortOrder('endpoints', '-risk_score', expectedEndpoints).map((e) => e.id));

  const targetById = new Map(data.targets.map((t) => [t.id, t]));
  const products = await appAll(on, '/orgs/acme/software');
  for (const product of products) {
    const findings = kept.filter((f) => {
      const target = targetById.get(f.remediation_target_id);
      return target !== undefined && target.vendor === product.vendor && target.product === product.product;
    });
    const { open_findings, open_kev_findings, highest_open_cvss, risk_score } = product;
    expect({ open_findings, open_kev_findings, highest_open_cvss, risk_score }, product.product).toEqual(exposureOf(findings));
  }
  const { body: plan } = await on.app('/orgs/acme/remediation-plan');
  expect(plan.open_critical_or_kev).toBe(kept.filter((f) => f.severity === 'critical' || f.is_kev).length);

  const marks = new Map((await appAll(on, '/orgs/acme/vulnerability-findings')).map((f) => [f.id, f.exception]));
  for (const finding of data.findings) expect(marks.get(finding.id), finding.id).toEqual(markOf(inForce, finding as never));
  return { gaps: gapsBefore.length - gapsAfter.length, open: open.length - kept.length };
}

beforeAll(async () => {
  server = await startConsoleTestServer([{ slug: 'acme', inventory }], { clock });
  apiKey = server.orgs[0]!.apiKey;
  const [endpoints, targets, scopes, findings] = await Promise.all(['endpoints', 'remediation-targets', 'scopes', 'vulnerability-findings'].map(v1All));
  data = { endpoints: endpoints!, targets: targets!, scopes: scopes!, findings: findings! };
  v1Before = await Promise.all(v1Paths().map((p) => v1Text(server.url, p)));
});
afterAll(async () => {
  await server.close();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** The CVE with the most open gaps, and others after it: exceptions that change what the figures show. */
function cvesByGaps(): string[] {
  const gapsByCve = new Map<string, number>();
  for (const f of data.findings) if (isCoverageGap(publicInventory(), f as never)) gapsByCve.set(f.cve_id, (gapsByCve.get(f.cve_id) ?? 0) + 1);
  return [...gapsByCve.entries()].sort((a, b) => b[1] - a[1]).map(([cve]) => cve);
}

describe('exceptions', () => {
  let everywhere: ConsoleException;
  let onEndpoints: ConsoleException;
  let oneFinding: ConsoleException;
  /** What the exceptions made so far leave out. */
  let left = { gaps: 0, open: 0 };

  it('change nothing while there are none', async () => {
    expect(await listExceptions()).toEqual([]);
    expect(await expectFiguresFollow(server, [])).toEqual({ gaps: 0, open: 0 });
  });

  it('by CVE leave every finding of the CVE out, made by the local user', async () => {
    const [cve] = cvesByGaps();
    everywhere = await create({ scope: { kind: 'cve', cve_id: cve!.toLowerCase() }, reason: 'compensating_control', note: 'WAF rule 932', expires_at: iso(now + 300 * day) });
    const named = data.findings.filter((f) => f.cve_id === cve);
    expect(everywhere).toMatchObject({
      scope: { kind: 'cve', cve_id: cve },
      reason: 'compensating_control',
      note: 'WAF rule 932',
      expires_at: iso(now + 300 * day),
      created_by: os.userInfo().username,
      created_at: iso(now),
      updated_by: null,
      revoked_at: null,
      state: 'active',
      findings: named.length,
      open_findings: named.filter((f) => f.status === 'open').length,
    });
    left = await expectFiguresFollow(server, await listExceptions());
    expect(left.gaps).toBeGreaterThan(0);
  });

  it('by CVE on chosen endpoints leave only those endpoints’ findings of it out', async () => {
    const cve = cvesByGaps()[1]!;
    const endpoints = [...new Set(data.findings.filter((f) => f.cve_id === cve && f.status === 'open').map((f) => f.endpoint_id))].slice(0, 2);
    onEndpoints = await create({ scope: { kind: 'cve_on_endpoints', cve_id: cve, endpoint_ids: endpoints.map((id) => id.toUpperCase()) }, reason: 'planned_remediation', expires_at: iso(now + 30 * day) });
    expect(onEndpoints.scope).toEqual({ kind: 'cve_on_endpoints', cve_id: cve, endpoint_ids: [...endpoints].sort() });
    expect(onEndpoints.note).toBe('');
    const more = await expectFiguresFollow(server, await listExceptions());
    expect(more.gaps).toBeGreaterThan(left.gaps);
    left = more;
  });

  it('by finding leave that finding out, and its detail carries the mark', async () => {
    const cve = cvesByGaps()[2]!;
    const finding = data.findings.find((f) => f.cve_id === cve && f.status === 'open' && f.is_kev === false) ?? data.findings.find((f) => f.cve_id === cve)!;
    oneFinding = await create({ scope: { kind: 'finding', finding_id: finding.id }, reason: 'false_positive', note: 'Not installed', expires_at: iso(now + 60 * day) });
    expect(oneFinding.findings).toBe(1);
    const { body: detail } = await server.app(`/orgs/acme/vulnerability-findings/${finding.id}`);
    expect(detail.exception).toEqual({ id: oneFinding.id, reason: 'false_positive', expires_at: iso(now + 60 * day) });
    expect((await expectFiguresFollow(server, await listExceptions())).open).toBe(left.open + 1);
  });

  it('mark a finding several cover with the one expiring last', async () => {
    const cve = everywhere.scope.kind === 'cve' ? everywhere.scope.cve_id : '';
    const finding = data.findings.find((f) => f.cve_id === cve)!;
    const longer = await create({ scope: { kind: 'finding', finding_id: finding.id }, reason: 'risk_accepted', expires_at: iso(now + 310 * day) });
    const { body: detail } = await server.app(`/orgs/acme/vulnerability-findings/${finding.id}`);
    expect(detail.exception.id).toBe(longer.id);
    await expectFiguresFollow(server, await listExceptions());
    expect((await server.app(`/orgs/acme/exceptions/${longer.id}/revoke`, { method: 'POST' })).status).toBe(200);
  });

  it('expire by the clock alone: the findings count again with no write', async () => {
    const version = server.store.version;
    now += 31 * day;
    const listed = await listExceptions();
    expect(listed.find((e) => e.id === onEndpoints.id)!.state).toBe('expired');
    expect(listed.find((e) => e.id === everywhere.id)!.state).toBe('active');
    expect((await expectFiguresFollow(server, listed)).gaps).toBeLessThan(left.gaps);
    expect((await server.app('/orgs/acme/exceptions?state=expired')).body.data.map((e: ConsoleException) => e.id)).toEqual([onEndpoints.id]);
    expect(server.store.version).toBe(version);
  });

  it('are edited (reason, note, expiry) by the local user; a new expiry makes an expired one active again', async () => {
    const { status, body } = await server.app(`/orgs/acme/exceptions/${onEndpoints.id}`, {
      method: 'PATCH',
      body: { expires_at: iso(now + 90 * day), note: 'Patch window in September' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ state: 'active', note: 'Patch window in September', updated_by: os.userInfo().username, updated_at: iso(now), scope: onEndpoints.scope });
    await expectFiguresFollow(server, await listExceptions());
    const reason = await server.app(`/orgs/acme/exceptions/${oneFinding.id}`, { method: 'PATCH', body: { reason: 'risk_accepted' } });
    expect(reason.body).toMatchObject({ reason: 'risk_accepted', expires_at: oneFinding.expires_at });
  });

  it('are revoked, keeping the record; their findings count again at once', async () => {
    const { status, body } = await server.app(`/orgs/acme/exceptions/${everywhere.id}/revoke`, { method: 'POST' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: everywhere.id, state: 'revoked', revoked_by: os.userInfo().username, revoked_at: iso(now) });
    await expectFiguresFollow(server, await listExceptions());
    expect((await server.app(`/orgs/acme/exceptions/${everywhere.id}/revoke`, { method: 'POST' })).status).toBe(409);
    expect((await server.app(`/orgs/acme/exceptions/${everywhere.id}`, { method: 'PATCH', body: { note: 'again' } })).status).toBe(409);
    expect((await server.app('/orgs/acme/exceptions?state=revoked')).body.data.map((e: ConsoleException) => e.id).sort()).toContain(everywhere.id);
  });

  it('never change what /v1 answers', async () => {
    expect(await Promise.all(v1Paths().map((p) => v1Text(server.url, p)))).toEqual(v1Before);
  });

  it('are refused, with nothing stored, when the input is wrong', async () => {
    const before = await listExceptions();
    const cve = { kind: 'cve', cve_id: 'CVE-2021-44228' };
    const refusals: [unknown, string][] = [
      [{ scope: cve, reason: 'risk_accepted', expires_at: iso(now - 1) }, 'expires_at'],
      [{ scope: cve, reason: 'risk_accepted', expires_at: iso(now) }, 'expires_at'],
      [{ scope: cve, reason: 'risk_accepted', expires_at: iso(now + 366 * day) }, 'expires_at'],
      [{ scope: cve, reason: 'because', expires_at: iso(now + day) }, 'reason'],
      [{ scope: cve, reason: 'risk_accepted' }, 'expires_at'],
      [{ scope: { kind: 'cve', cve_id: 'log4shell' }, reason: 'risk_accepted', expires_at: iso(now + day) }, 'scope.cve_id'],
      [{ scope: { kind: 'cve_on_endpoints', cve_id: 'CVE-2021-44228', endpoint_ids: [] }, reason: 'risk_accepted', expires_at: iso(now + day) }, 'scope.endpoint_ids'],
      [{ scope: { kind: 'everything' }, reason: 'risk_accepted', expires_at: iso(now + day) }, 'scope.kind'],
      [{ scope: cve, reason: 'risk_accepted', expires_at: iso(now + day), created_by: 'someone else' }, 'created_by'],
      ['{"scope":', 'body'],
    ];
    for (const [body, field] of refusals) {
      const answer = await server.app('/orgs/acme/exceptions', { method: 'POST', body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.issues, JSON.stringify(body)).toEqual([{ field, message: expect.any(String) }]);
      expect(answer.body.error).toContain(`"${field}"`);
    }
    const expiry = await server.app(`/orgs/acme/exceptions/${oneFinding.id}`, { method: 'PATCH', body: { expires_at: iso(now + 400 * day) } });
    expect(expiry.status).toBe(400);
    expect(expiry.body.error).toMatch(/at most a year ahead/);
    expect((await server.app(`/orgs/acme/exceptions/${oneFinding.id}`, { method: 'PATCH', body: {} })).status).toBe(400);
    expect((await server.app('/orgs/acme/exceptions/00000000-0000-4000-8000-000000000000', { method: 'PATCH', body: { note: 'x' } })).status).toBe(404);
    expect((await server.app('/orgs/acme/exceptions/not-an-id/revoke', { method: 'POST' })).status).toBe(400);
    expect((await server.app('/orgs/acme/exceptions?state=dormant')).status).toBe(400);
    expect(await listExceptions()).toEqual(before);
  });

  it('refuse an import with anything wrong in it, storing none of it', async () => {
    const before = await listExceptions();
    const { body: file } = await server.app('/orgs/acme/exceptions/export');
    const fresh = (id: string) => ({ ...file.exceptions[0], id, created_at: iso(now), updated_by: null, updated_at: null, revoked_by: null, revoked_at: null });
    const good = fresh('11111111-1111-4111-8111-111111111111');
    const withEntries = (...entries: unknown[]) => ({ ...file, exceptions: [good, ...entries] });
    const refusals: [unknown, RegExp][] = [
      ['not json', /not JSON/],
      [{ ...file, format: 'something-else' }, /"format"/],
      [{ ...file, version: 2 }, /"version"/],
      [withEntries({ ...fresh('22222222-2222-4222-8222-222222222222'), reason: 'because' }), /"exceptions\.1\.reason"/],
      [withEntries(good), /"exceptions\.1\.id".*again/],
      [withEntries({ ...fresh('33333333-3333-4333-8333-333333333333'), expires_at: iso(now + 400 * day) }), /"exceptions\.1\.expires_at".*year/],
      [withEntries({ ...fresh('44444444-4444-4444-8444-444444444444'), expires_at: iso(now - day) }), /"exceptions\.1\.expires_at".*created_at/],
      [withEntries({ ...fresh('55555555-5555-4555-8555-555555555555'), updated_at: iso(now) }), /"exceptions\.1\.updated_by"/],
      [withEntries({ ...file.exceptions[0], scope: { kind: 'cve', cve_id: 'CVE-1999-0001' } }), /"exceptions\.1\.scope".*never changes/],
      [{ ...file, exceptions: [{ ...good, state: 'active' }] }, /"exceptions\.0\.state"/],
    ];
    for (const [body, message] of refusals) {
      const answer = await server.app('/orgs/acme/exceptions/import', { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
      expect(answer.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(answer.body.error).toMatch(message);
    }
    expect(await listExceptions()).toEqual(before);
  });

  it('exported and imported into another data directory have the same effect; imported again, they are skipped or updated', async () => {
    const exported = await server.app('/orgs/acme/exceptions/export');
    expect(exported.headers.get('content-disposition')).toBe('attachment; filename="acme-exceptions.json"');
    expect(exported.body).toMatchObject({ ...exceptionsFileFormat, organization: { slug: 'acme', name: 'Test acme' }, exported_at: iso(now) });
    const listed = await listExceptions();
    expect(exported.body.exceptions).toHaveLength(listed.length);

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-exceptions-'));
    folders.push(dataDir);
    let other = await startConsoleTestServer([{ slug: 'acme', inventory }], { clock, dataDir });
    try {
      const imported = await other.app('/orgs/acme/exceptions/import', { method: 'POST', body: exported.body });
      expect(imported).toMatchObject({ status: 200, body: { created: listed.length, updated: 0, skipped: 0 } });
      expect(await listExceptions(other)).toEqual(listed);
      await expectFiguresFollow(other, listed);

      const again = await other.app('/orgs/acme/exceptions/import', { method: 'POST', body: exported.body });
      expect(again.body).toEqual({ created: 0, updated: 0, skipped: listed.length });

      now += day;
      await server.app(`/orgs/acme/exceptions/${oneFinding.id}`, { method: 'PATCH', body: { note: 'Confirmed by the vendor' } });
      const edited = await server.app('/orgs/acme/exceptions/export');
      expect((await other.app('/orgs/acme/exceptions/import', { method: 'POST', body: edited.body })).body).toEqual({ created: 0, updated: 1, skipped: listed.length - 1 });
      expect(await listExceptions(other)).toEqual(await listExceptions());
    } finally {
      await other.close();
    }
    // Kept on disk: the data directory opened again holds them.
    other = await startConsoleTestServer([], { clock, dataDir });
    try {
      expect((await other.app('/orgs/acme/exceptions')).body.data).toEqual(await listExceptions());
    } finally {
      await other.close();
    }
  });
});
