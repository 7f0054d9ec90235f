/**
 * A report's delta between two syncs (issue 40 item 4) through the app the product builds: a
 * replica of the demo's data synced three times from a fake remote, with known changes between
 * (findings remediated, added, turned KEV, reopened, gone, and time passing deadlines), the second
 * sync incremental and the third full. The delta between syncs 1 and 3 and between 2 and 3, under
 * the "internet-facing" tag (the Linux endpoints) and under no filter, is checked against an
 * independent reading of /v1 snapshots taken after each sync.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDelta, ReportFigures, ReportSummary } from '../../contracts/console/reports.js';
import type { SyncChanges } from '../../contracts/console/sync-changes.js';
import { generateInventory } from '../demo/generate.js';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import { SyncChangeTally } from '../store/basics/change-tally.js';
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

/** A finding as /v1 answers it, with whether its endpoint is Linux (the tag's endpoints). */
type V1Finding = { id: string; status: string; is_kev: boolean; severity: string; first_detected_at: string; linux: boolean };
/** The replica's findings through /v1 after each sync, by id. */
const snapshots: Map<string, V1Finding>[] = [];
let syncs: SyncChanges[] = [];
let apiKey: string;

async function v1Snapshot(): Promise<Map<string, V1Finding>> {
  const all = (collection: string) => allV1Items(server.url, apiKey, collection);
  const linux = new Set((await all('endpoints')).filter((endpoint) => endpoint.operating_system.family === 'linux').map((endpoint) => endpoint.id as string));
  return new Map((await all('vulnerability-findings')).map((finding) => [finding.id, { ...finding, linux: linux.has(finding.endpoint_id) }]));
}

/** Changes the remote's findings (`change` answers a finding changed, or null to drop it), stamped now, then syncs and snapshots. */
async function changeAndSync(change: (finding: any) => any, added: any[], full: boolean): Promise<void> {
  const at = new Date(nowMs).toISOString();
  const { inventory } = remote.options;
  inventory.findings = [
    ...inventory.findings.flatMap((finding) => {
      const changed = change(finding);
      return changed === null ? [] : changed === finding ? [finding] : [{ ...changed, updated_at: at }];
    }),
    ...added.map((finding) => ({ ...finding, created_at: at, updated_at: at })),
  ];
  await server.sync!.syncNow('replica', { full });
  snapshots.push(await v1Snapshot());
}

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-sync-delta-'));
  remote = await startFakeRemote({ inventory: generateInventory('demo', 11) });
  server = await startConsoleTestServer([], { sealer: keyFileSealer(path.join(folder, 'sealing.key')), syncPolicy: { ...fastPolicy, requestTimeoutMs: 30_000 }, clock: () => nowMs });
  expect((await server.app('/organizations', { method: 'POST', body: { slug: 'replica', remoteUrl: remote.url, apiKey: remote.apiKey } })).status).toBe(201);
  await server.sync!.syncNow('replica');
  apiKey = (await server.app('/orgs/replica/api-keys', { method: 'POST', body: { label: 'sync delta test' } })).body.key as string;
  expect((await server.app('/orgs/replica/endpoint-context/bulk', { method: 'POST', body: { filter: 'osFamily=linux', add_tags: ['internet-facing'] } })).status).toBe(200);
  snapshots.push(await v1Snapshot());

  // Between syncs 1 and 2 (incremental): 6 tagged open findings remediated, 2 turned KEV, 3 added on a tagged endpoint (one KEV), one untagged remediated.
  const first = [...snapshots[0]!.values()];
  const openTagged = first.filter((finding) => finding.status === 'open' && finding.linux);
  const remediated = new Set(openTagged.slice(0, 6).map((finding) => finding.id));
  const turnedKev = new Set(openTagged.filter((finding) => !finding.is_kev).slice(-2).map((finding) => finding.id));
  const untagged = first.find((finding) => finding.status === 'open' && !finding.linux)!.id;
  const template = remote.options.inventory.findings.find((finding) => finding.id === openTagged[10]!.id)!;
  nowMs += 20 * day;
  const at = new Date(nowMs).toISOString();
  const added = [0, 1, 2].map((n) => ({ ...template, id: randomUUID(), status: 'open', is_kev: n === 0, remediated_at: null, first_detected_at: new Date(nowMs - 40 * day).toISOString() }));
  await changeAndSync(
    (finding) =>
      remediated.has(finding.id) || finding.id === untagged
        ? { ...finding, status: 'remediated', remediated_at: at }
        : turnedKev.has(finding.id)
          ? { ...finding, is_kev: true }
          : finding,
    added,
    false,
  );

  // Between syncs 2 and 3 (full): 2 of the remediated reopened, one added remediated, 3 more remediated, 4 open tagged ones gone from the remote.
  nowMs += 20 * day;
  const later = new Date(nowMs).toISOString();
  const reopened = new Set([...remediated].slice(0, 2));
  const stillOpen = openTagged.slice(6).filter((finding) => !turnedKev.has(finding.id));
  const remediatedLater = new Set([added[1]!.id, ...stillOpen.slice(0, 3).map((finding) => finding.id)]);
  const gone = new Set(stillOpen.slice(3, 7).map((finding) => finding.id));
  await changeAndSync(
    (finding) =>
      gone.has(finding.id)
        ? null
        : reopened.has(finding.id)
          ? { ...finding, status: 'open', remediated_at: null }
          : remediatedLater.has(finding.id)
            ? { ...finding, status: 'remediated', remediated_at: later }
            : finding,
    [],
    true,
  );
  syncs = ((await server.app('/orgs/replica/sync-changes')).body.data as SyncChanges[]).reverse();
}, 300_000);
afterAll(async () => {
  await server.close();
  await remote.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

/** The minute of a sync's end: the instant a delta reads its overdue findings at. */
const minuteOf = (iso: string) => Math.floor(Date.parse(iso) / 60_000) * 60_000;


/**
 * The delta between snapshots `a` and `b` (indexes of the syncs), read independently: open then
 * and not now, and so on. Overdue "then" is read with the deadlines as the replica knows them at
 * `b` (a finding turned KEV since has the KEV deadline at both), as the product reads them. Under
 * a filter, a finding gone from the replica is taken by no filter: its fields are gone with it.
 */
function expectedDelta(a: number, b: number, tagged: boolean): Record<'fixed' | 'appeared' | 'newly_kev' | 'newly_overdue', Set<string>> {
  const then = snapshots[a]!;
  const now = snapshots[b]!;
  const taken = (id: string) => !tagged || now.get(id)?.linux === true;
  const open = (snapshot: Map<string, V1Finding>, id: string) => snapshot.get(id)?.status === 'open';
  const ids = (snapshot: Map<string, V1Finding>, keep: (id: string, finding: V1Finding) => boolean) =>
    new Set([...snapshot].filter(([id, finding]) => taken(id) && keep(id, finding)).map(([id]) => id));
  const [atThen, atNow] = [minuteOf(syncs[a]!.finishedAt), minuteOf(syncs[b]!.finishedAt)];
  return {
    fixed: ids(then, (id) => open(then, id) && !open(now, id)),
    appeared: ids(now, (id) => open(now, id) && !open(then, id)),
    newly_kev: ids(now, (id, finding) => open(now, id) && finding.is_kev && !(open(then, id) && then.get(id)!.is_kev)),
    newly_overdue: ids(now, (id, finding) => pastDefaultDeadline(finding, atNow) && !(open(then, id) && pastDefaultDeadline(finding, atThen))),
  };
}

async function reportBetween(a: number, b: number, filter: string): Promise<{ summary: ReportSummary; delta: ReportDelta }> {
  const made = await server.app('/orgs/replica/reports', { method: 'POST', body: { filter, compare_syncs: [syncs[a]!.id, syncs[b]!.id] } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const summary = made.body as ReportSummary;
  const figures = (await server.app(`/orgs/replica/reports/${summary.id}?format=json`)).body as ReportFigures;
  return { summary, delta: figures.sections[0]!.delta! };
}

describe("a report's delta between two syncs", () => {
  it('records the three syncs, each keeping the findings it moved', () => {
    // The second sync's mode is the scheduler's choice (the fake remote's totals moved: a reconcile); the third is full.
    expect(syncs.map((sync) => [sync.firstSync, sync.findingsKept])).toEqual([
      [true, true],
      [false, true],
      [false, true],
    ]);
    expect(syncs[2]!.mode).toBe('full');
  });

  it.each([
    [0, 2, 'tag=internet-facing'],
    [1, 2, 'tag=internet-facing'],
    [0, 2, ''],
    [1, 2, ''],
  ])('between syncs %i and %i (0-based) with filter "%s" counts and names what an independent reading of /v1 snapshots finds', async (a, b, filter) => {
    const { delta } = await reportBetween(a, b, filter);
    const expected = expectedDelta(a, b, filter !== '');
    expect(delta.previous_report_id).toBeNull();
    expect(delta.syncs).toEqual({ from: { id: syncs[a]!.id, finished_at: syncs[a]!.finishedAt }, until: { id: syncs[b]!.id, finished_at: syncs[b]!.finishedAt } });
    for (const list of ['fixed', 'appeared', 'newly_kev', 'newly_overdue'] as const) {
      expect(delta[list].count, list).toBe(expected[list].size);
      expect(delta[list].findings.length, list).toBe(Math.min(25, expected[list].size));
      for (const finding of delta[list].findings) expect(expected[list].has(finding.id), `${list} ${finding.id}`).toBe(true);
    }
    // The known changes are there to be found.
    if (a === 0) expect([expected.fixed.size, expected.appeared.size, expected.newly_kev.size, expected.newly_overdue.size].every((size) => size > 0)).toBe(true);
  }, 120_000);

  it.each(['tag=internet-facing', ''])('between syncs 0 and 1, the second not the newest, with filter "%s" finds what was fixed and what appeared', async (filter) => {
    // Read back through the third sync's moves: a finding reopened by it was still fixed at the second.
    const { delta } = await reportBetween(0, 1, filter);
    const expected = expectedDelta(0, 1, filter !== '');
    for (const list of ['fixed', 'appeared'] as const) {
      expect(delta[list].count, list).toBe(expected[list].size);
      expect(expected[list].size, list).toBeGreaterThan(0);
      for (const finding of delta[list].findings) expect(expected[list].has(finding.id), `${list} ${finding.id}`).toBe(true);
    }
  }, 120_000);

  it("names the two syncs compared in the report's HTML", async () => {
    const { summary } = await reportBetween(0, 2, 'tag=internet-facing');
    const html = await (await fetch(`${server.url}/app/orgs/replica/reports/${summary.id}?format=html`, { headers: { 'x-console-token': server.consoleToken } })).text();
    expect(html).toContain(`sync ${syncs[0]!.id}, finished ${syncs[0]!.finishedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}`);
    expect(html).toContain(`sync ${syncs[2]!.id}, finished`);
    expect(html).toContain('between the two syncs compared');
  }, 120_000);

  it.each([
    [[2, 1], 'must be older'],
    [[1, 999_999], 'is not among'],
  ])('refuses the syncs %j with a 400 saying why, and keeps nothing', async (pair, message) => {
    const before = (await server.app('/orgs/replica/reports')).body.data.length as number;
    const ids = pair.map((index) => syncs[index]?.id ?? index);
    const made = await server.app('/orgs/replica/reports', { method: 'POST', body: { compare_syncs: ids } });
    expect(made.status).toBe(400);
    expect(JSON.stringify(made.body)).toContain(message);
    expect((await server.app('/orgs/replica/reports')).body.data.length).toBe(before);
  });

  // Last: it records a sync after the others.
  it('refuses a span across a sync that did not keep its findings, naming it, and keeps nothing', async () => {
    // As a sync recorded by an older version, or one that moved more findings than are kept, is recorded.
    const tally = new SyncChangeTally();
    tally.merged('endpoints', true);
    tally.moves = null;
    const organization = server.store.organizations.list().find((candidate) => candidate.slug === 'replica')!;
    const at = new Date(nowMs).toISOString();
    const unkept = server.store.write(() => server.store.syncChanges.record(organization.rowId, { startedAt: at, finishedAt: at, mode: 'incremental' }, tally), {
      changes: ['sync-records'],
    })!;
    const before = (await server.app('/orgs/replica/reports')).body.data.length as number;
    const made = await server.app('/orgs/replica/reports', { method: 'POST', body: { compare_syncs: [syncs[0]!.id, syncs[2]!.id] } });
    expect(made.status).toBe(400);
    expect(made.body.error).toContain(`Sync ${unkept.id} (finished ${at}) did not keep the findings it changed`);
    expect((await server.app('/orgs/replica/reports')).body.data.length).toBe(before);
  });
});
