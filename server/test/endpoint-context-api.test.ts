/**
 * Endpoint context (issue 28) through the app the product builds: tags and criticality set on
 * one endpoint, in bulk by a filter of the endpoints list and by a CSV file, and tag rules, on a
 * replica of a fake remote; all of it kept across a full sync (which replaces the replica's
 * inventory), rules tagging an endpoint the sync brings, and none of it shown by /v1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Endpoint } from '../../contracts/endpoint.js';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { parseCsv } from './support/csv.js';
import { type FakeRemote, startFakeRemote } from './support/fake-remote.js';
import { smallInventory } from './support/fixtures.js';
import { sampleInventory } from './support/sample-inventory.js';
import { fastPolicy } from './support/sync-fixtures.js';

let server: ConsoleTestServer;
let remote: FakeRemote;
let sealerDir: string;

beforeAll(async () => {
  sealerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-endpoint-context-'));
  remote = await startFakeRemote({ inventory: sampleInventory() });
  server = await startConsoleTestServer([{ slug: 'home', inventory: smallInventory(5, 5) }], {
    sealer: keyFileSealer(path.join(sealerDir, 'sealing.key')),
    syncPolicy: fastPolicy,
  });
  const connected = await server.app('/organizations', { method: 'POST', body: { slug: 'replica', remoteUrl: remote.url, apiKey: remote.apiKey } });
  expect(connected.status).toBe(201);
  await server.syncEnded('replica');
});
afterAll(async () => {
  await server?.close();
  await remote?.close();
  fs.rmSync(sealerDir, { recursive: true, force: true });
});

const endpoints = () => remote.options.inventory.endpoints;
const exportCsv = async () => {
  const answer = await server.app('/orgs/replica/endpoint-context/export.csv');
  expect(answer.status).toBe(200);
  return answer.body as string;
};
/** Every endpoint's context as the console shows it: what a refused change must leave as it was. */
const exportContext = async () => JSON.stringify(await Promise.all(endpoints().map(async (endpoint) => (await server.app(`/orgs/replica/endpoints/${endpoint.id}/context`)).body)));
const importCsv = (text: string) => server.app('/orgs/replica/endpoint-context/import', { method: 'POST', body: text, headers: { 'content-type': 'text/csv' } });

it('sets, bulk-sets, imports and rules tags and criticality, keeps all of it across a full sync, and a rule tags an endpoint the sync brings', async () => {
  const [first] = endpoints() as Endpoint[];
  const put = await server.app(`/orgs/replica/endpoints/${first!.id}/context`, { method: 'PUT', body: { tags: [' Finance ', 'finance', 'Laptop'], criticality: 'critical' } });
  expect(put.status).toBe(200);
  expect(put.body).toMatchObject({ explicit_tags: ['Finance', 'Laptop'], criticality: 'critical' });

  const windows = endpoints().filter((endpoint) => endpoint.operating_system.family === 'windows');
  const bulk = await server.app('/orgs/replica/endpoint-context/bulk', { method: 'POST', body: { filter: 'osFamily=windows', add_tags: ['windows-fleet'], criticality: 'high' } });
  expect(bulk.body).toEqual({ matched: windows.length, changed: windows.length });
  const again = await server.app('/orgs/replica/endpoint-context/bulk', { method: 'POST', body: { filter: '?osFamily=windows', add_tags: ['Windows-Fleet'] } });
  expect(again.body).toEqual({ matched: windows.length, changed: 0 });
  const badFilter = await server.app('/orgs/replica/endpoint-context/bulk', { method: 'POST', body: { filter: 'osFamily=beos', add_tags: ['x'] } });
  expect([badFilter.status, badFilter.body.error]).toEqual([400, expect.stringMatching(/filter.*osFamily/)]);
  // A parameter the list does not know, or a string that is not percent-encoded, would select every endpoint: refused, naming it.
  const context = await exportContext();
  for (const [filter, named] of [
    ['osfamily=windows', 'Unknown query parameter "osfamily": the parameters are limit, offset, updatedSince, osFamily, hasAgent, tag, criticality, bod2604Outcome, ssvcDecision, fixByBefore, sort, q'],
    ['windows', 'Unknown query parameter "windows"'],
    ['osFamily=windows&hostname=x', 'Unknown query parameter "hostname"'],
    ['%%%', 'Malformed query string: "%%%" is not percent-encoded (write % as %25)'],
    ['osFamily=windows&q=%E0%A4%A', 'Malformed query string: "q=%E0%A4%A" is not percent-encoded'],
    ['q=a&q=b', 'Query parameter "q" is given more than once'],
  ] as const) {
    const refused = await server.app('/orgs/replica/endpoint-context/bulk', { method: 'POST', body: { filter, add_tags: ['everything'], criticality: 'low' } });
    expect([refused.status, refused.body.issues], filter).toEqual([400, [{ field: 'filter', message: expect.stringContaining(named) }]]);
    expect(refused.body.error).toBe(`Invalid body field "filter": ${refused.body.issues[0].message}`);
  }
  expect(await exportContext()).toBe(context);

  const rule = await server.app('/orgs/replica/tag-rules', {
    method: 'POST',
    body: { tag: 'servers', conditions: [{ kind: 'hostname', pattern: 'host-1*.EXAMPLE.test' }, { kind: 'ip', cidr: '10.0.0.0/24' }] },
  });
  expect(rule.status).toBe(201);
  const byRule = endpoints().filter((endpoint) => /^host-1.*\.example\.test$/.test(endpoint.hostname) && endpoint.ip !== null);
  expect(rule.body.endpoints).toBe(byRule.length);
  const badRule = await server.app('/orgs/replica/tag-rules', { method: 'POST', body: { tag: 'x', conditions: [{ kind: 'ip', cidr: '10.0.0.0/40' }] } });
  expect([badRule.status, badRule.body.issues[0].field]).toEqual([400, 'conditions.0.cidr']);

  const tagged = await server.app(`/orgs/replica/endpoints/${byRule[0]!.id}/context`);
  expect(tagged.body.tags).toContainEqual({ tag: 'servers', sources: [{ kind: 'rule', rule_id: rule.body.id }] });

  const before = await exportCsv();
  const tags = (await server.app('/orgs/replica/endpoint-tags')).body;
  expect(tags.has_tags).toBe(true);
  expect(tags.data.find((tag: { tag: string }) => tag.tag === 'windows-fleet')).toEqual({ tag: 'windows-fleet', endpoints: windows.length, explicit: windows.length, from_rules: 0 });

  // The remote's next state: one endpoint more, which the rule names; a full sync compares the replica with it and writes the difference.
  const added: Endpoint = { ...first!, id: '00000009-0000-4000-8000-00000000beef', hostname: 'host-1999.example.test', ip: '10.0.0.99' };
  remote.options.inventory.endpoints = [...endpoints(), added];
  const inventoryBefore = server.store.organizations.bySlug('replica')!.inventoryId;
  expect((await server.app('/orgs/replica/sync?full=true', { method: 'POST' })).status).toBe(202);
  expect((await server.syncEnded('replica')).state.lastSuccessMode).toBe('full');
  expect(server.store.organizations.bySlug('replica')!.inventoryId).toBe(inventoryBefore);

  expect(await exportCsv()).toBe(before);
  expect((await server.app(`/orgs/replica/endpoints/${first!.id}/context`)).body).toEqual(put.body);
  const brought = await server.app(`/orgs/replica/endpoints/${added.id}/context`);
  expect(brought.body).toEqual({ endpoint_id: added.id, tags: [{ tag: 'servers', sources: [{ kind: 'rule', rule_id: rule.body.id }] }], explicit_tags: [], criticality: 'normal' });
  expect((await server.app('/orgs/replica/tag-rules')).body.data).toEqual([{ ...rule.body, endpoints: byRule.length + 1 }]);
});

it('imports a file all or nothing, naming the line of its first problem, and exports the file it imported', async () => {
  const [a, b, c] = endpoints() as Endpoint[];
  const file = ['id,hostname,tags,criticality', `${a!.id},${a!.hostname},alpha;beta,low`, `${b!.id},${b!.hostname},gamma,normal`, `${c!.id},${c!.hostname},,critical`].join('\r\n');
  // Apply it over whatever the endpoints held, then export only these three (the others are cleared first by a file that names them).
  const clear = ['id,tags,criticality', ...endpoints().map((endpoint) => `${endpoint.id},,normal`)].join('\r\n');
  expect((await importCsv(clear)).status).toBe(200);
  const imported = await importCsv(`${file}\r\n`);
  expect(imported.body).toEqual({ lines: 3, endpoints: 3, changed: 3 });
  const exported = await exportCsv();
  const expected = ['id,hostname,tags,criticality', `${a!.id},${a!.hostname},alpha;beta,low`, `${b!.id},${b!.hostname},gamma,normal`, `${c!.id},${c!.hostname},,critical`];
  // The header, then the lines in export's order (by hostname).
  const byHostname = [expected[0], ...expected.slice(1).sort((x, y) => x.split(',')[1]!.localeCompare(y.split(',')[1]!))];
  expect(exported).toBe(`${byHostname.join('\r\n')}\r\n`);
  expect((await importCsv(exported)).body.changed).toBe(0);
  expect(await exportCsv()).toBe(exported);

  for (const [bad, message] of [
    [`hostname,tags\r\n${a!.hostname},x\r\nno-such-host,y\r\n`, /^line 3: no endpoint has the hostname "no-such-host"/],
    [`id,tags\r\n${a!.id},x\r\n${b!.id},${'t'.repeat(65)}\r\n`, /^line 3: tags: tag 1: must be at most 64 characters/],
    [`id,criticality\r\n${a!.id},high\r\n${b!.id},urgent\r\n`, /^line 3: criticality "urgent" must be one of low, normal, high, critical/],
    [`id,tags\r\n${a!.id},x\r\n${a!.id},y\r\n`, /^line 3: endpoint .* is already set on line 2/],
    [`id,tags\r\n${a!.id},x\r\nnot-an-id,y\r\n`, /^line 3: the id "not-an-id" is not a UUID/],
    [`id,tags\r\n${a!.id},x\r\n"${b!.id},y\r\n`, /^line 3: not CSV/],
    [`name,tags\r\nx,y\r\n`, /^line 1: the header names neither/],
  ] as const) {
    const answer = await importCsv(bad);
    expect([answer.status, answer.body.error], bad).toEqual([400, expect.stringMatching(message)]);
    expect(await exportCsv()).toBe(exported);
  }
});

it('never shows tags or criticality in /v1', async () => {
  const home = server.orgs[0]!;
  const endpoint = home.inventory.endpoints[0]!;
  const before = await fetch(`${server.url}/v1/endpoints/${endpoint.id}`, { headers: { Authorization: `Bearer ${home.apiKey}` } }).then((r) => r.text());
  const put = await server.app(`/orgs/home/endpoints/${endpoint.id}/context`, { method: 'PUT', body: { tags: ['finance'], criticality: 'critical' } });
  expect(put.status).toBe(200);
  const after = await fetch(`${server.url}/v1/endpoints/${endpoint.id}`, { headers: { Authorization: `Bearer ${home.apiKey}` } }).then((r) => r.text());
  expect(after).toBe(before);
  expect((await server.app(`/orgs/home/endpoints/00000000-0000-4000-8000-000000000000/context`)).status).toBe(404);
});

it('refuses a bulk change that would put more than 32 tags on an endpoint, writing nothing, and round-trips tags a spreadsheet would run', async () => {
  const [first] = endpoints() as Endpoint[];
  const many = Array.from({ length: 31 }, (_, index) => `t${index}`);
  expect((await server.app(`/orgs/replica/endpoints/${first!.id}/context`, { method: 'PUT', body: { tags: many } })).status).toBe(200);
  const before = await exportCsv();
  const refused = await server.app('/orgs/replica/endpoint-context/bulk', { method: 'POST', body: { filter: '', add_tags: ['x1', 'x2'] } });
  expect([refused.status, refused.body.error]).toEqual([400, `Endpoint ${first!.id} would carry 33 tags: at most 32`]);
  expect(await exportCsv()).toBe(before);

  // "-1" and "=cmd" are written as '-1 and '=cmd (no formula in a spreadsheet) and read back as they were.
  expect((await server.app(`/orgs/replica/endpoints/${first!.id}/context`, { method: 'PUT', body: { tags: ['=cmd', '-1'] } })).status).toBe(200);
  const exported = await exportCsv();
  expect(exported).toContain(`${first!.id},${first!.hostname},'-1;=cmd,`);
  expect((await importCsv(exported)).body.changed).toBe(0);
  expect((await server.app(`/orgs/replica/endpoints/${first!.id}/context`)).body.explicit_tags).toEqual(['-1', '=cmd']);
});

it('writes every tag a spreadsheet would run behind an apostrophe (full-width forms, the guard itself), and imports the file back unchanged', async () => {
  // Tags are trimmed, so what a spreadsheet runs is their first character: one endpoint per start.
  const starts = ['\uff1dcmd', '\uff0b1', '\uff0d1', '\uff20SUM(A1)', "'=x", '@x'];
  const chosen = (endpoints() as Endpoint[]).slice(0, starts.length);
  for (const [index, endpoint] of chosen.entries()) {
    const put = await server.app(`/orgs/replica/endpoints/${endpoint.id}/context`, { method: 'PUT', body: { tags: [starts[index]] } });
    expect(put.status).toBe(200);
  }
  const exported = await exportCsv();
  for (const [index, endpoint] of chosen.entries()) expect(exported).toContain(`${endpoint.id},${endpoint.hostname},'${starts[index]},`);
  expect((await importCsv(exported)).body.changed).toBe(0);
  for (const [index, endpoint] of chosen.entries()) {
    expect((await server.app(`/orgs/replica/endpoints/${endpoint.id}/context`)).body.explicit_tags).toEqual([starts[index]]);
  }
  expect(await exportCsv()).toBe(exported);
});

it("writes a remote's hostnames that a spreadsheet would run (a leading space, line feed, full-width sign) behind an apostrophe in the endpoints CSV", async () => {
  const hostile = [' =1+1', '\n=cmd|" /C calc"!A0', '\uff1dHYPERLINK("http://evil.example")', '\u3000@SUM(A1)', '\t-2+3', "'=x"];
  const now = new Date().toISOString();
  const changed = (endpoints() as Endpoint[]).slice(0, hostile.length).map((endpoint, index) => ({ ...endpoint, hostname: hostile[index]!, updated_at: now }));
  remote.options.inventory.endpoints = [...changed, ...endpoints().slice(hostile.length)];
  expect((await server.app('/orgs/replica/sync', { method: 'POST' })).status).toBe(202);
  expect((await server.syncEnded('replica')).state.lastError).toBeNull();

  const answer = await fetch(`${server.url}/app/orgs/replica/export/endpoints.csv`, { headers: { 'x-console-token': server.consoleToken } });
  const [header, ...rows] = parseCsv(await answer.text());
  const [id, hostname] = [header!.indexOf('id'), header!.indexOf('hostname')];
  for (const endpoint of changed) {
    const cell = rows.find((row) => row[id] === endpoint.id)![hostname]!;
    expect(cell, JSON.stringify(endpoint.hostname)).toBe(`'${endpoint.hostname}`);
  }
});
