/**
 * Reports (issue 40) through the app the product builds, for a replica of the demo's data on a
 * fake remote with its Linux endpoints tagged "internet-facing": the figures of the tag's report
 * checked against an independent count over /v1 and the tags; the detached signature verified by
 * openssl and an edited copy refused; the report unchanged after a sync that changes the data;
 * and the next report's delta naming exactly the findings the sync remediated.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportFigures, ReportSummary } from '../../contracts/console/reports.js';
import { verifyDetachedSignature } from '../agent-config/verify-detached.js';
import { generateInventory } from '../demo/generate.js';
import { readFindingParts } from '../reports/report-findings.js';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { type FakeRemote, startFakeRemote } from './support/fake-remote.js';
import { fastPolicy } from './support/sync-fixtures.js';
import { allV1Items } from './support/v1-items.js';
import { pastDefaultDeadline } from './support/deadline-oracle.js';

let server: ConsoleTestServer;
let remote: FakeRemote;
let folder: string;
let nowMs = Date.UTC(2026, 6, 1, 9, 30);
const day = 86_400_000;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-reports-'));
  remote = await startFakeRemote({ inventory: generateInventory('demo', 7) });
  // Nothing here tests a slow remote: a loaded machine's fake remote gets the time it needs.
  server = await startConsoleTestServer([], { sealer: keyFileSealer(path.join(folder, 'sealing.key')), syncPolicy: { ...fastPolicy, requestTimeoutMs: 30_000 }, clock: () => nowMs });
  expect((await server.app('/organizations', { method: 'POST', body: { slug: 'replica', remoteUrl: remote.url, apiKey: remote.apiKey } })).status).toBe(201);
  await server.sync!.syncNow('replica');
  const tagged = await server.app('/orgs/replica/endpoint-context/bulk', { method: 'POST', body: { filter: 'osFamily=linux', add_tags: ['internet-facing'] } });
  expect(tagged.status).toBe(200);
}, 120_000);
afterAll(async () => {
  await server.close();
  await remote.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

/** Every finding and endpoint of the replica through /v1, with its own key. */
async function v1Findings() {
  const key = (await server.app('/orgs/replica/api-keys', { method: 'POST', body: { label: 'report test' } })).body.key as string;
  const all = (collection: string) => allV1Items(server.url, key, collection);
  const linux = new Set((await all('endpoints')).filter((endpoint) => endpoint.operating_system.family === 'linux').map((endpoint) => endpoint.id as string));
  return (await all('vulnerability-findings')).filter((finding) => linux.has(finding.endpoint_id));
}

/** The open findings of `findings` past their deadline at the minute of `atMs` (the report's instant), by the policy above. */
function overdueAt(findings: any[], atMs: number): any[] {
  const asOf = Math.floor(atMs / 60_000) * 60_000;
  return findings.filter((finding) => pastDefaultDeadline(finding, asOf));
}

async function makeReport(filter: string): Promise<ReportSummary> {
  const made = await server.app('/orgs/replica/reports', { method: 'POST', body: { filter, template: 'executive' } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body as ReportSummary;
}

async function read(id: string, format: 'html' | 'p7s' | 'json'): Promise<Buffer> {
  const response = await fetch(`${server.url}/app/orgs/replica/reports/${id}?format=${format}`, { headers: { 'x-console-token': server.consoleToken } });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe('reports', () => {
  let first: ReportSummary;
  let firstHtml: Buffer;

  it("counts what an independent reading of /v1 and the tags counts, and says where its figures come from", async () => {
    first = await makeReport('tag=internet-facing');
    const figures = JSON.parse((await read(first.id, 'json')).toString()) as ReportFigures;
    const [section] = figures.sections;
    const findings = await v1Findings();
    const open = findings.filter((finding) => finding.status === 'open');
    expect(open.length).toBeGreaterThan(50);
    const overdue = overdueAt(open, nowMs);
    expect(section!.counts.open).toBe(open.length);
    expect(section!.counts.open_kev).toBe(open.filter((finding) => finding.is_kev).length);
    for (const severity of ['critical', 'high', 'medium', 'low', 'info'] as const) {
      expect(section!.counts.open_by_severity[severity]).toBe(open.filter((finding) => finding.severity === severity).length);
    }
    expect(section!.counts.overdue).toBe(overdue.length);
    // What the next report's delta compares with: every open finding counted, its KEV and overdue ones marked.
    const kept = await readFindingParts(server.store.reports.findings(first.id, server.store.organizations.bySlug('replica')!.rowId));
    expect(new Set(kept.open)).toEqual(new Set(open.map((finding) => finding.id)));
    expect(new Set(kept.overdue)).toEqual(new Set(overdue.map((finding) => finding.id)));
    expect(new Set(kept.kev)).toEqual(new Set(open.filter((finding) => finding.is_kev).map((finding) => finding.id)));
    expect(section!.counts.open_high_epss).toBeNull();
    expect(section!.delta).toBeNull();
    expect(section!.provenance.last_synced_at).not.toBeNull();
    // The same figures as the console's own views of the tag.
    const performance = (await server.app('/orgs/replica/remediation-performance?tag=internet-facing')).body;
    expect(section!.performance.median_days_to_remediate).toBe(performance.totals.median_days_to_remediate);
    expect(section!.performance.share_in_time).toBe(performance.totals.share_in_time);
    const plan = (await server.app('/orgs/replica/remediation-plan?tag=internet-facing')).body;
    expect(section!.plan.steps.map((step) => step.closes)).toEqual(plan.steps.slice(0, 10).map((step: { closes: number }) => step.closes));

    firstHtml = await read(first.id, 'html');
    const html = firstHtml.toString();
    expect(html).toContain(section!.posture.replaceAll("'", '&#39;'));
    expect(html).toContain('<code>tag=internet-facing</code>');
    expect(html).toContain('last matched with its remote');
    expect(html).toContain('@page');
    // Self-contained: nothing it could fetch.
    expect(html).not.toMatch(/\b(src|href)=|url\(|@import|<script/i);
  });

  it('is signed with the organization\'s identity: openssl verifies it, and refuses an edited copy', async () => {
    const signature = await read(first.id, 'p7s');
    const certificatePem = server.store.organizations.bySlug('replica')!.certificatePem!;
    const report = path.join(folder, 'report.html');
    const cert = path.join(folder, 'org.pem');
    fs.writeFileSync(report, firstHtml);
    fs.writeFileSync(`${report}.p7s`, signature);
    fs.writeFileSync(cert, certificatePem);
    const openssl = (file: string) =>
      spawnSync('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', `${report}.p7s`, '-content', file, '-CAfile', cert, '-purpose', 'any', '-out', '/dev/null'], { encoding: 'utf8' });
    const good = openssl(report);
    expect(good.status, good.stderr).toBe(0);
    expect(good.stderr).toContain('Verification successful');

    const edited = path.join(folder, 'edited.html');
    fs.writeFileSync(edited, firstHtml.toString().replace(/\d+ open finding/, '0 open finding'));
    expect(openssl(edited).status).not.toBe(0);

    const { signers } = await verifyDetachedSignature(firstHtml, signature, 'report.html.p7s', certificatePem);
    expect(signers).toHaveLength(1);
    const [verified] = signers;
    expect(verified!.signer.subject).toBe(first.signer);
    expect(verified!.signedAt).toBe(new Date(Math.floor(Date.parse(first.created_at) / 1000) * 1000).toISOString());
    await expect(verifyDetachedSignature(fs.readFileSync(edited), signature, 'report.html.p7s', certificatePem)).rejects.toThrow(/changed after signing/);
    expect(execFileSync('openssl', ['x509', '-noout', '-subject', '-in', cert], { encoding: 'utf8' })).toContain('replica');
  });

  it('stays as it was made after a sync that changes the data, and the next report says what changed', async () => {
    const figuresBefore = await read(first.id, 'json');
    // On the remote, ten of the tagged open findings remediated.
    const remediated = new Set((await v1Findings()).filter((finding) => finding.status === 'open').slice(0, 10).map((finding) => finding.id as string));
    nowMs += 2 * day;
    const at = new Date(nowMs).toISOString();
    const { inventory } = remote.options;
    inventory.findings = inventory.findings.map((finding) => (remediated.has(finding.id) ? { ...finding, status: 'remediated', remediated_at: at, updated_at: at } : finding));
    await server.sync!.syncNow('replica');

    expect(await read(first.id, 'html')).toEqual(firstHtml);
    expect(await read(first.id, 'json')).toEqual(figuresBefore);

    const second = await makeReport('tag=internet-facing');
    const delta = (JSON.parse((await read(second.id, 'json')).toString()) as ReportFigures).sections[0]!.delta!;
    expect(delta.previous_report_id).toBe(first.id);
    expect(delta.fixed.count).toBe(10);
    expect(new Set(delta.fixed.findings.map((finding) => finding.id))).toEqual(remediated);
    expect(delta.fixed.findings.every((finding) => finding.cve_id !== null)).toBe(true);
    expect(delta.appeared.count).toBe(0);
    expect((await read(second.id, 'html')).toString()).toContain('Fixed: 10');

    const list = (await server.app('/orgs/replica/reports')).body.data as ReportSummary[];
    expect(list.map((report) => report.id)).toEqual([second.id, first.id]);
  }, 180_000);

  it('names the findings that passed their deadline since the previous report, as an independent reading does', async () => {
    const findings = await v1Findings();
    const overdueBefore = new Set(overdueAt(findings, nowMs).map((finding) => finding.id as string));
    // Past the longest deadline of the policy (180 days): every open finding with one is overdue.
    nowMs += 200 * day;
    const newlyOverdue = new Set(overdueAt(findings, nowMs).filter((finding) => !overdueBefore.has(finding.id)).map((finding) => finding.id as string));
    expect(newlyOverdue.size).toBeGreaterThan(0);
    const made = await makeReport('tag=internet-facing');
    const delta = (JSON.parse((await read(made.id, 'json')).toString()) as ReportFigures).sections[0]!.delta!;
    expect([delta.fixed.count, delta.appeared.count, delta.newly_kev.count]).toEqual([0, 0, 0]);
    expect(delta.newly_overdue.count).toBe(newlyOverdue.size);
    expect(delta.newly_overdue.findings.length).toBeGreaterThan(0);
    expect(delta.newly_overdue.findings.every((finding) => newlyOverdue.has(finding.id))).toBe(true);
  }, 180_000);

  it("counts a filter's severity once: its other severities are none, as the list with both would show", async () => {
    const made = await makeReport('tag=internet-facing&severity=critical');
    const [section] = (JSON.parse((await read(made.id, 'json')).toString()) as ReportFigures).sections;
    const open = (await v1Findings()).filter((finding) => finding.status === 'open' && finding.severity === 'critical');
    expect(section!.counts.open).toBe(open.length);
    expect(section!.counts.open_by_severity).toEqual({ critical: open.length, high: 0, medium: 0, low: 0, info: 0 });
    expect(section!.counts.open_kev).toBe(open.filter((finding) => finding.is_kev).length);
  });

  it("reads a saved view's filters, without its sort and status, as the same filter given would", async () => {
    const saved = await server.app('/orgs/replica/saved-views', {
      method: 'POST',
      body: { name: 'Internet-facing critical', view: 'vulnerability-findings', query: 'tag=internet-facing&severity=critical&status=open&sort=-risk' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const byView = await server.app('/orgs/replica/reports', { method: 'POST', body: { view: 'internet-facing CRITICAL' } });
    expect(byView.status, JSON.stringify(byView.body)).toBe(201);
    expect(byView.body.filter).toBe('tag=internet-facing&severity=critical');
    const byFilter = await makeReport('tag=internet-facing&severity=critical');
    const counts = async (id: string) => (JSON.parse((await read(id, 'json')).toString()) as ReportFigures).sections[0]!.counts;
    expect(await counts(byView.body.id)).toEqual(await counts(byFilter.id));
    // A view of another console view: its filters the findings list does not take are refused, naming the view.
    expect((await server.app('/orgs/replica/saved-views', { method: 'POST', body: { name: 'Expired exceptions', view: 'exceptions', query: 'state=expired' } })).status).toBe(201);
    const refused = await server.app('/orgs/replica/reports', { method: 'POST', body: { view: 'Expired exceptions' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/saved view "Expired exceptions" \(exceptions\): Unknown filter parameter "state"/);
    const missing = await server.app('/orgs/replica/reports', { method: 'POST', body: { view: 'No such view' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/no saved view named "No such view"/);
    const both = await server.app('/orgs/replica/reports', { method: 'POST', body: { view: 'Expired exceptions', filter: 'tag=a' } });
    expect(both.status).toBe(400);
  });

  it.each([
    ['sort=risk', /"sort" is set by the report/],
    ['nope=1', /Unknown filter parameter "nope"/],
    ['severity=bogus', /Invalid filter parameter "severity"/],
    ['tag=a&tag=b', /"tag" is given more than once/],
  ])('refuses the filter %s with a 400 naming it, and keeps nothing', async (filter, message) => {
    const count = (await server.app('/orgs/replica/reports')).body.data.length;
    const answer = await server.app('/orgs/replica/reports', { method: 'POST', body: { filter } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(message);
    expect((await server.app('/orgs/replica/reports')).body.data.length).toBe(count);
  });

  // Last: it removes the replica.
  it('goes with its replica when the replica is disconnected, its appendix files too', async () => {
    const technical = await server.app('/orgs/replica/reports', { method: 'POST', body: { filter: 'severity=critical', template: 'technical' } });
    expect(technical.status, JSON.stringify(technical.body)).toBe(201);
    const appendices = path.join(server.sessionDataDir, 'report-appendices');
    const files = [`report-${technical.body.id}.html.findings.csv`, `report-${technical.body.id}.html.findings.json`];
    for (const file of files) expect(fs.existsSync(path.join(appendices, file)), file).toBe(true);

    expect((await server.app('/orgs/replica', { method: 'DELETE' })).status).toBe(204);
    expect(server.store.reports.has(technical.body.id)).toBe(false);
    expect(fs.readdirSync(appendices).filter((file) => files.includes(file))).toEqual([]);
  });
});
