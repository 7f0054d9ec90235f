/**
 * The what-if in the open (issue 37, item 4, and Tests): tagging an endpoint as exposed, or
 * changing its criticality, changes its findings' outcomes and dates at the next read, and the
 * change feed records what changed with its cause; outcomes, settings and the feed stay across a
 * full sync of the replica and a restart of the server on its data directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleTokenHeader } from '../http/app/require-console-token.js';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { type FakeRemote, startFakeRemote } from './support/fake-remote.js';
import { sampleInventory } from './support/sample-inventory.js';
import { repositoryPath, sharedTableCsv, sharedVulnrichmentFiles } from './support/ssvc-files.js';
import { fastPolicy } from './support/sync-fixtures.js';

let server: ConsoleTestServer;
let remote: FakeRemote;
let dataDir: string;
const inventory = sampleInventory();
const start = () => startConsoleTestServer([], { sealer: keyFileSealer(path.join(dataDir, 'sealing.key')), syncPolicy: fastPolicy, dataDir });
const bodRows = new Map(sharedTableCsv('cisa_bod_26_04_1_0_0.csv').slice(1).map((cells) => [cells.slice(1, 5).join('|'), cells[5]!]));
const coordinatorRows = new Map(sharedTableCsv('cisa_coordinator_2_0_3.csv').slice(1).map((cells) => [cells.slice(1, 5).join('|'), cells[5]!]));

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-fix-by-what-if-'));
  remote = await startFakeRemote({ inventory });
  server = await start();
  expect((await server.app('/organizations', { method: 'POST', body: { slug: 'replica', remoteUrl: remote.url, apiKey: remote.apiKey } })).status).toBe(201);
  await server.syncEnded('replica');
  const zip = zipSync(Object.fromEntries(sharedVulnrichmentFiles().map((file) => [repositoryPath(file.name), new Uint8Array(file.bytes)])));
  const response = await fetch(`${server.url}/app/intel/imports`, { method: 'POST', headers: { [consoleTokenHeader]: server.consoleToken }, body: Buffer.from(zip) });
  expect(response.status).toBe(201);
}, 60_000);
afterAll(async () => {
  await server.close();
  await remote.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The open findings of the endpoint, by id, as the console answers them. */
async function findingsOf(endpointId: string) {
  return new Map((await server.appAll(`/orgs/replica/vulnerability-findings?status=open&endpointId=${endpointId}`)).map((finding) => [finding.id, finding]));
}

/** The endpoint with the most open findings. */
function busiestEndpoint() {
  const counts = new Map<string, number>();
  for (const finding of inventory.findings) if (finding.status === 'open' && finding.endpoint_id) counts.set(finding.endpoint_id, (counts.get(finding.endpoint_id) ?? 0) + 1);
  const [id] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  return inventory.endpoints.find((endpoint) => endpoint.id === id)!;
}

describe('the what-if of exposure and criticality', () => {
  const endpoint = busiestEndpoint();
  let tagged: Map<string, any>;

  it('tagging an endpoint as exposed changes its findings’ outcomes at once, and the change feed says why and how many', async () => {
    const before = await findingsOf(endpoint.id);
    expect(before.size).toBeGreaterThan(2);
    for (const finding of before.values()) expect(finding.fix_by_path[1]).toMatchObject({ value: 'no', source: 'no tag internet-facing' });
    const bulk = await server.app('/orgs/replica/endpoint-context/bulk', { method: 'POST', body: { filter: `q=${endpoint.hostname}`, add_tags: ['internet-facing'] } });
    expect(bulk.status).toBe(200);
    tagged = await findingsOf(endpoint.id);
    let changed = 0;
    for (const [id, finding] of tagged) {
      const path = finding.fix_by_path.map((step: any) => step.value);
      expect(path[1]).toBe('yes');
      expect(finding.fix_by_path[1].source).toBe('tag internet-facing, set on the endpoint');
      expect(finding.bod2604_outcome).toBe(bodRows.get(path.slice(0, 4).join('|')));
      const old = before.get(id)!;
      if (old.bod2604_outcome !== finding.bod2604_outcome || old.fix_by !== finding.fix_by || old.ssvc_decision !== finding.ssvc_decision) changed++;
    }
    expect(changed).toBeGreaterThan(0);
    const [latest] = (await server.app('/orgs/replica/fix-by-changes')).body.data;
    expect(latest).toMatchObject({ cause: `bulk change of 1 endpoints (filter "q=${endpoint.hostname}"): tags added internet-facing`, findings_changed: changed });
    expect(latest.moves.reduce((sum: number, move: any) => sum + move.findings, 0)).toBe([...tagged].filter(([id, f]) => before.get(id)!.bod2604_outcome !== f.bod2604_outcome).length);
  });

  it('a lower criticality changes the Coordinator decisions at once', async () => {
    const before = tagged;
    expect((await server.app(`/orgs/replica/endpoints/${endpoint.id}/context`, { method: 'PUT', body: { criticality: 'low' } })).status).toBe(200);
    tagged = await findingsOf(endpoint.id);
    for (const finding of tagged.values()) {
      const [, , automatable, impact, exploitation, mission] = finding.fix_by_path.map((step: any) => step.value);
      expect(mission).toBe('low');
      expect(finding.ssvc_decision).toBe(coordinatorRows.get([exploitation, automatable, impact, mission].join('|')));
    }
    const changed = [...tagged].filter(([id, finding]) => before.get(id)!.ssvc_decision !== finding.ssvc_decision).length;
    expect(changed).toBeGreaterThan(0);
    expect((await server.app('/orgs/replica/fix-by-changes')).body.data[0]).toMatchObject({ cause: `endpoint ${endpoint.id}: criticality low`, findings_changed: changed, moves: [] });
  });

  it('keeps the outcomes, the settings and the feed across a full sync and a restart', async () => {
    const feed = (await server.app('/orgs/replica/fix-by-changes')).body;
    const fields = (findings: Map<string, any>) => [...findings.values()].map((f) => [f.id, f.bod2604_outcome, f.ssvc_decision, f.fix_by, f.fix_by_path]);
    expect((await server.app('/orgs/replica/sync?full=true', { method: 'POST' })).status).toBe(202);
    expect((await server.syncEnded('replica')).state).toMatchObject({ lastSuccessMode: 'full', lastError: null });
    expect(fields(await findingsOf(endpoint.id))).toEqual(fields(tagged));
    await server.close();
    server = await start();
    expect(fields(await findingsOf(endpoint.id))).toEqual(fields(tagged));
    expect((await server.app('/orgs/replica/fix-by-changes')).body).toEqual(feed);
    // Untagging it undoes the outcomes, recorded as its own change.
    expect((await server.app('/orgs/replica/endpoint-context/bulk', { method: 'POST', body: { filter: `q=${endpoint.hostname}`, remove_tags: ['internet-facing'] } })).status).toBe(200);
    for (const finding of (await findingsOf(endpoint.id)).values()) expect(finding.fix_by_path[1].value).toBe('no');
    expect((await server.app('/orgs/replica/fix-by-changes')).body.data[0].cause).toMatch(/tags removed internet-facing$/);
  }, 60_000);
});
