/**
 * Work packages (issue 39) through the app the product builds, for a replica of the demo's data
 * on a fake remote: the Jira CSV read by python3's csv module (Atlassian's rules checked on what
 * it reads and on the bytes), marked done by python3 as Jira's export would give it, imported
 * back, then a sync where half of those products were updated, and exactly the other half
 * flagged "done but still vulnerable"; the same external ids from a second export; the JSON
 * validated against its published schema by python3's jsonschema; the ServiceNow CSV; each bad file.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoneCheckList, TicketStatusImportResult, WorkPackageList } from '../../contracts/console/work-packages.js';
import { generateInventory } from '../demo/generate.js';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { type FakeRemote, startFakeRemote } from './support/fake-remote.js';
import { smallInventory } from './support/fixtures.js';
import { fastPolicy } from './support/sync-fixtures.js';

let server: ConsoleTestServer;
let remote: FakeRemote;
let folder: string;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-work-packages-'));
  remote = await startFakeRemote({ inventory: generateInventory('demo', 7) });
  server = await startConsoleTestServer([{ slug: 'home', inventory: smallInventory(5, 5) }], {
    sealer: keyFileSealer(path.join(folder, 'sealing.key')),
    syncPolicy: fastPolicy,
  });
  expect((await server.app('/organizations', { method: 'POST', body: { slug: 'replica', remoteUrl: remote.url, apiKey: remote.apiKey } })).status).toBe(201);
  await server.sync!.syncNow('replica');
}, 120_000);
afterAll(async () => {
  await server.close();
  await remote.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

/** Runs a python3 program with `input` on its standard input; answers what it printed. */
function python(program: string, input: string, ...args: string[]): string {
  return execFileSync('python3', ['-c', program, ...args], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

/** The answer of a download: its status, headers and text. */
async function download(url: string): Promise<{ status: number; type: string | null; disposition: string | null; text: string }> {
  const response = await fetch(`${server.url}/app${url}`, { headers: { 'x-console-token': server.consoleToken } });
  return { status: response.status, type: response.headers.get('content-type'), disposition: response.headers.get('content-disposition'), text: await response.text() };
}

/** Posts a status file; answers the status and body. */
async function importStatus(text: string) {
  const response = await fetch(`${server.url}/app/orgs/replica/work-packages/status-import`, {
    method: 'POST',
    headers: { 'x-console-token': server.consoleToken, 'content-type': 'text/csv' },
    body: text,
  });
  return { status: response.status, body: (await response.json()) as TicketStatusImportResult & { error?: string } };
}

const list = async (query = '') => ((await server.app(`/orgs/replica/work-packages${query}`)).body as WorkPackageList).data;

/** python3's csv module reads a file; prints its rows as JSON. */
const readCsv = 'import csv, io, json, sys\nprint(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read(), newline="")))))';

describe('work packages', () => {
  it('exports the plan as Jira CSV that an independent reader reads under Atlassian\'s rules, and reads the status back: done steps still vulnerable after a sync are flagged', async () => {
    const packages = await list();
    expect(packages.length).toBeGreaterThan(4);
    const plan = (await server.app('/orgs/replica/remediation-plan')).body as { steps: { product_id: string; closes: number; endpoints: number }[] };
    expect(packages.map((work) => [work.product_id, work.findings.total, work.endpoints.length])).toEqual(plan.steps.map((step) => [step.product_id, step.closes, step.endpoints]));

    const jira = await download('/orgs/replica/export/work-packages?format=jira');
    expect(jira.status).toBe(200);
    expect(jira.type).toBe('text/csv; charset=utf-8');
    expect(jira.disposition).toBe('attachment; filename="replica-work-packages.jira.csv"');
    const rows = JSON.parse(python(readCsv, jira.text)) as string[][];
    const [header, ...lines] = rows;
    // A header row with Summary, Description, Priority, Due date, a Labels column per label, the external id in its own column.
    expect(header).toEqual(['Summary', 'Description', 'Issue Type', 'Priority', 'Due date', 'External ID', 'Issue key', 'Labels', 'Labels', 'Labels', 'Labels']);
    expect(lines).toHaveLength(packages.length);
    expect(jira.text.startsWith('"Summary","Description",')).toBe(true);
    for (const [index, line] of lines.entries()) {
      const work = packages[index]!;
      expect(line).toHaveLength(header!.length);
      expect(line[5]).toBe(work.external_id);
      expect(line.slice(7)).toContain(work.external_id);
      // Descriptions keep their line breaks, inside quotes.
      expect(line[1]!.split('\n').length).toBeGreaterThan(5);
      expect(line[1]).toContain(work.update_to.sentence);
      expect(['Highest', 'High', 'Medium', 'Low']).toContain(line[3]);
      if (work.due_at) expect(line[4]).toMatch(/^\d{2}\/[A-Z][a-z]{2}\/\d{2} \d{1,2}:\d{2} [AP]M$/);
    }

    // Jira's export after the import: Issue key, Status, Resolution, Resolved, the custom field; every step done, written by python3.
    const markDone = [
      'import csv, io, sys',
      'rows = list(csv.reader(io.StringIO(sys.stdin.read(), newline="")))',
      'out = io.StringIO()',
      'w = csv.writer(out, lineterminator="\\n")',
      'w.writerow(["Summary", "Issue key", "Status", "Resolution", "Resolved", "Custom field (External ID)", "Labels", "Labels"])',
      'for n, r in enumerate(rows[1:], 1): w.writerow([r[0], "PROJ-%d" % n, "Done", "Done", "02/Dec/26 10:15 AM", r[5], r[7], r[8]])',
      'sys.stdout.write(out.getvalue())',
    ].join('\n');
    const doneFile = python(markDone, jira.text);
    const imported = await importStatus(doneFile);
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({
      system: 'jira',
      rows: packages.length,
      matched: packages.length,
      changed: packages.length,
      unmatched: [],
      statuses: [{ system_status: 'Done', status_category: '', status: 'done', mapped_by: 'built-in', rows: packages.length }],
      unmapped: [],
    });
    const done = await list('?status=done');
    expect(done.map((work) => work.ticket!.key)).toEqual(packages.map((_, n) => `PROJ-${n + 1}`));
    expect(done[0]!.ticket).toMatchObject({ system: 'jira', status: 'done', resolved_at: '2026-12-02T10:15:00.000Z' });
    expect(await list('?status=not-ticketed')).toEqual([]);

    // On the remote, half of those products updated: every other step's findings remediated, its targets resolved.
    const fixed = packages.filter((_, index) => index % 2 === 0);
    const stillOpen = packages.filter((_, index) => index % 2 === 1);
    const names = new Set(fixed.map((work) => JSON.stringify([work.vendor, work.product])));
    const now = new Date().toISOString();
    const { inventory } = remote.options;
    const fixedTargets = new Set<string>();
    inventory.remediationTargets = inventory.remediationTargets.map((target) => {
      if (!names.has(JSON.stringify([target.vendor, target.product]))) return target;
      fixedTargets.add(target.id);
      return { ...target, status: 'resolved', updated_at: now };
    });
    inventory.findings = inventory.findings.map((finding) =>
      finding.remediation_target_id !== null && fixedTargets.has(finding.remediation_target_id) && finding.status === 'open'
        ? { ...finding, status: 'remediated', remediated_at: now, updated_at: now }
        : finding,
    );
    await server.sync!.syncNow('replica');

    // The plan orders its remaining steps anew: compared as sets.
    const idsOf = (works: { external_id: string }[]) => works.map((work) => work.external_id).sort();
    const flagged = await list('?status=still-vulnerable');
    expect(idsOf(flagged)).toEqual(idsOf(stillOpen));
    for (const work of flagged) {
      const before = stillOpen.find((each) => each.external_id === work.external_id)!;
      expect(work.still_vulnerable).toMatchObject({ endpoints: before.endpoints.length });
      expect(work.still_vulnerable!.sentence).toBe(`Closed in Jira as ${work.ticket!.key} on 2026-12-02, still vulnerable on ${before.endpoints.length} endpoint${before.endpoints.length === 1 ? '' : 's'}.`);
      expect(work.still_vulnerable!.hostnames).toEqual(before.endpoints.map((endpoint) => endpoint.hostname).sort().slice(0, 50));
    }
    // The change feed's entry of that check names the same steps.
    const checks = (await server.app('/orgs/replica/work-packages/checks')).body as DoneCheckList;
    expect(idsOf(checks.data[0]!.flagged)).toEqual(idsOf(stillOpen));
    // The fixed half left the plan: its tickets stay, read back again by their external ids.
    expect(idsOf(await list())).toEqual(idsOf(stillOpen));
    const again = await importStatus(doneFile);
    expect(again.body).toMatchObject({ matched: packages.length, changed: 0, unmatched: [] });
  }, 120_000);

  it('gives the same external ids when exporting twice, and the JSON validates against its schema in the /app OpenAPI document', async () => {
    const first = await download('/orgs/replica/export/work-packages?format=json');
    const second = await download('/orgs/replica/export/work-packages?format=json');
    expect(first.type).toBe('application/json; charset=utf-8');
    const ids = (text: string) => (JSON.parse(text) as WorkPackageList).data.map((work) => work.external_id);
    expect(ids(first.text)).toEqual(ids(second.text));
    expect(new Set(ids(first.text)).size).toBe(ids(first.text).length);
    const jiraIds = (text: string) => (JSON.parse(python(readCsv, text)) as string[][]).slice(1).map((row) => row[5]);
    expect(jiraIds((await download('/orgs/replica/export/work-packages?format=jira')).text)).toEqual(ids(first.text));

    const documentFile = path.join(folder, 'openapi.json');
    fs.writeFileSync(documentFile, JSON.stringify((await server.app('/openapi.json')).body));
    const validate = [
      'import json, sys, jsonschema',
      'doc = json.load(open(sys.argv[1]))',
      'schema = {"$ref": "#/components/schemas/WorkPackageList", "components": doc["components"]}',
      'jsonschema.Draft202012Validator(schema).validate(json.loads(sys.stdin.read()))',
      'print("valid")',
    ].join('\n');
    expect(python(validate, first.text, documentFile).trim()).toBe('valid');
    // A broken package is refused by the same validator: the check is real.
    const broken = JSON.parse(first.text) as { data: Record<string, unknown>[] };
    broken.data[0]!.external_id = 'PROJ-1';
    expect(() => execFileSync('python3', ['-c', validate, documentFile], { input: JSON.stringify(broken), stdio: 'pipe' })).toThrow(/does not match/);
  });

  it('exports a ServiceNow import-set CSV of u_ columns, and one step alone', async () => {
    const packages = await list();
    const servicenow = await download('/orgs/replica/export/work-packages?format=servicenow');
    const [header, ...rows] = JSON.parse(python(readCsv, servicenow.text)) as string[][];
    expect(header!.every((name) => name.startsWith('u_'))).toBe(true);
    expect(rows.map((row) => row[header!.indexOf('u_external_id')])).toEqual(packages.map((work) => work.external_id));
    const endpoints = rows[0]![header!.indexOf('u_endpoints')]!.split('\n');
    expect(endpoints).toEqual(packages[0]!.endpoints.map((endpoint) => endpoint.hostname));

    const one = await download(`/orgs/replica/export/work-packages?format=json&step=${packages[0]!.external_id}`);
    expect(one.disposition).toBe(`attachment; filename="replica-${packages[0]!.external_id}.json"`);
    expect((JSON.parse(one.text) as WorkPackageList).data.map((work) => work.external_id)).toEqual([packages[0]!.external_id]);
    expect((await download('/orgs/replica/export/work-packages?format=json&step=rc-00000000000000000000')).status).toBe(404);
    expect((await download('/orgs/replica/export/work-packages?format=xml')).status).toBe(400);
  });

  it("keeps a step's owner and note", async () => {
    const [work] = await list();
    const answer = await server.app(`/orgs/replica/work-packages/${work!.external_id}`, { method: 'PUT', body: { owner: 'Desktop team', note: 'Patch window Tuesday' } });
    expect(answer.status).toBe(200);
    expect((await list())[0]).toMatchObject({ owner: 'Desktop team', note: 'Patch window Tuesday' });
    expect((await server.app(`/orgs/replica/work-packages/${work!.external_id}`, { method: 'PUT', body: { owner: 'x'.repeat(201), note: '' } })).status).toBe(400);
    expect((await server.app('/orgs/replica/work-packages/rc-00000000000000000000', { method: 'PUT', body: { owner: '', note: '' } })).status).toBe(404);
  });

  it('refuses each bad status file with its line named, and changes nothing', async () => {
    const before = await list();
    const [first, second] = before;
    const header = 'Issue key,Status,Resolution,Resolved,Custom field (External ID)';
    const good = (key: string, id: string) => `${key},Done,Done,02/Dec/26 10:15 AM,${id}`;
    const cases: [string, string, RegExp][] = [
      ['empty', '', /line 1: the file is empty/],
      ['no key column', 'Summary,Status\nx,Done\n', /line 1: the header names neither Jira's "Issue key" nor ServiceNow's "number" column/],
      ['no status column', 'Issue key,External ID\nPROJ-1,x\n', /line 1: the header names no "Status" column/],
      ['no external id column', 'Issue key,Status\nPROJ-1,Done\n', /line 1: the header names no external id column/],
      ['a quote never closed', `${header}\n${good('PROJ-1', first!.external_id)}\n"PROJ-2,Done,Done,,x\n`, /line 3: not CSV \(a quote opened on it is never closed\)/],
      ['a bad key', `${header}\n${good('PROJ-1', first!.external_id)}\nnot a key,Done,Done,,${second!.external_id}\n`, /line 3: "not a key" is not a Jira issue key/],
      ['no status', `${header}\n${good('PROJ-1', first!.external_id)}\nPROJ-2,,,,${second!.external_id}\n`, /line 3: the ticket has no status/],
      ['a bad date', `${header}\n${good('PROJ-1', first!.external_id)}\nPROJ-2,Done,Done,31/Feb/26 1:00 AM,${second!.external_id}\n`, /line 3: "31\/Feb\/26 1:00 AM" is not a date/],
      ['an external id twice', `${header}\n${good('PROJ-1', first!.external_id)}\n${good('PROJ-2', first!.external_id)}\n`, /line 3: the external id .* is on line 2 too/],
      ['a column named twice', `Issue key,Status,Status,Custom field (External ID)\nPROJ-1,Done,Done,${first!.external_id}\n`, /line 1: the column "Status" is named twice/],
      ['a bad ServiceNow number', `number,state,u_external_id\nINC0010001,New,${first!.external_id}\nPROJ-2,New,${second!.external_id}\n`, /line 3: "PROJ-2" is not a ServiceNow number \(like INC0012345\)/],
      ['a bad ServiceNow date', `number,state,closed_at,u_external_id\nINC0010001,Closed,2026-13-40 10:00:00,${first!.external_id}\n`, /line 2: "2026-13-40 10:00:00" is not a date/],
      ['too many rows', `${header}\n${Array.from({ length: 20_001 }, (_, n) => `PROJ-${n + 1},Done,Done,,`).join('\n')}\n`, /line 20002: a status file holds at most 20,000 rows/],
    ];
    for (const [what, text, message] of cases) {
      const answer = await importStatus(text);
      expect([what, answer.status]).toEqual([what, 400]);
      expect(answer.body.error, what).toMatch(/^The status file was refused, nothing changed: /);
      expect(answer.body.error, what).toMatch(message);
    }
    const tooLarge = await importStatus(`${header}\n${'x'.repeat(9 * 1024 * 1024)}\n`);
    expect(tooLarge.status).toBe(413);
    expect(await list()).toEqual(before);

    // Rows that match no step are listed, never guessed at.
    const unmatched = await importStatus(`${header},Labels\nPROJ-7,In Progress,,,rc-0123456789abcdef0123,\nPROJ-8,To Do,,,,remediation-console\n${good('PROJ-9', second!.external_id)},\n`);
    expect(unmatched.body.unmatched).toEqual([
      { line: 2, key: 'PROJ-7', external_id: 'rc-0123456789abcdef0123', why: 'no step of the plan has this external id' },
      { line: 3, key: 'PROJ-8', external_id: null, why: 'the row names no external id' },
    ]);
    expect(unmatched.body.matched).toBe(1);
  });

  it("reads a team's own status names through Jira's Status Category and the organization's mapping, and lists a status that maps to nothing, never guessed", async () => {
    const [first, second, third] = await list();
    const header = 'Issue key,Status,Status Category,Resolution,Resolved,Custom field (External ID)';
    const file = [header, `OPS-1,Ready for QA,In Progress,,,${first!.external_id}`, `OPS-2,Deployed,Done,Done,02/Dec/26 10:15 AM,${second!.external_id}`, `OPS-3,Frozen,,,,${third!.external_id}`, 'OPS-4,constructor,,,,rc-0123456789abcdef0123'].join('\n');
    const byCategory = await importStatus(`${file}\n`);
    expect(byCategory.status).toBe(200);
    expect(byCategory.body.statuses).toEqual([
      { system_status: 'Ready for QA', status_category: 'In Progress', status: 'in-progress', mapped_by: 'status-category', rows: 1 },
      { system_status: 'Deployed', status_category: 'Done', status: 'done', mapped_by: 'status-category', rows: 1 },
      { system_status: 'Frozen', status_category: '', status: null, mapped_by: 'none', rows: 1 },
      { system_status: 'constructor', status_category: '', status: null, mapped_by: 'none', rows: 1 },
    ]);
    expect(byCategory.body.unmapped).toEqual([
      { line: 4, key: 'OPS-3', external_id: third!.external_id, system_status: 'Frozen' },
      { line: 5, key: 'OPS-4', external_id: 'rc-0123456789abcdef0123', system_status: 'constructor' },
    ]);
    expect(byCategory.body).toMatchObject({ rows: 4, matched: 2, unmatched: [] });
    const statusOf = async (id: string) => (await list()).find((work) => work.external_id === id)!.ticket;
    expect(await statusOf(first!.external_id)).toMatchObject({ key: 'OPS-1', status: 'in-progress', system_status: 'Ready for QA' });
    expect(await statusOf(second!.external_id)).toMatchObject({ key: 'OPS-2', status: 'done' });
    // The unmapped row changed nothing of its step: its ticket is the one the first test read.
    const thirdBefore = (await list()).find((work) => work.external_id === third!.external_id)!.ticket;
    expect(thirdBefore?.key).not.toBe('OPS-3');

    // The organization names them: its names come before the category, and map what nothing did.
    expect((await server.app('/orgs/replica/work-packages/status-mapping')).body).toEqual({ mappings: [], updated_at: null });
    const mappings = [
      { system: 'jira', status: 'ready for qa', maps_to: 'done' },
      { system: 'jira', status: 'Frozen', maps_to: 'wont-do' },
      { system: 'servicenow', status: 'Awaiting deployment', maps_to: 'in-progress' },
    ];
    const saved = await server.app('/orgs/replica/work-packages/status-mapping', { method: 'PUT', body: { mappings } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ mappings, updated_at: expect.stringMatching(/^\d{4}-/) });
    expect((await server.app('/orgs/replica/work-packages/status-mapping')).body).toEqual(saved.body);
    const bySetting = await importStatus(`${file}\n`);
    expect(bySetting.body.statuses.map((line) => [line.system_status, line.status, line.mapped_by])).toEqual([
      ['Ready for QA', 'done', 'setting'],
      ['Deployed', 'done', 'status-category'],
      ['Frozen', 'wont-do', 'setting'],
      ['constructor', null, 'none'],
    ]);
    expect(bySetting.body.unmapped.map((row) => row.key)).toEqual(['OPS-4']);
    expect(await statusOf(first!.external_id)).toMatchObject({ status: 'done' });
    expect(await statusOf(third!.external_id)).toMatchObject({ key: 'OPS-3', status: 'wont-do', system_status: 'Frozen' });

    // ServiceNow's states by the same setting; the built-in ones still known; one unknown listed.
    const serviceNow = ['number,state,close_code,closed_at,u_external_id', `INC0010001,Awaiting deployment,,,${first!.external_id}`, `INC0010002,Resolved,Solved (Permanently),2026-12-02 10:15:00,${second!.external_id}`, `INC0010003,Limbo,,,${third!.external_id}`].join('\n');
    const fromServiceNow = await importStatus(`${serviceNow}\n`);
    expect(fromServiceNow.body.statuses.map((line) => [line.system_status, line.status, line.mapped_by])).toEqual([
      ['Awaiting deployment', 'in-progress', 'setting'],
      ['Resolved', 'done', 'built-in'],
      ['Limbo', null, 'none'],
    ]);
    expect(await statusOf(first!.external_id)).toMatchObject({ system: 'servicenow', key: 'INC0010001', status: 'in-progress' });

    // A bad mapping is refused by field, and the saved one stays.
    for (const [body, message] of [
      [{ mappings: [...mappings, { system: 'jira', status: 'FROZEN', maps_to: 'done' }] }, /mappings\.3\.status.*"FROZEN" of jira is mapped twice/],
      [{ mappings: [{ system: 'jira', status: 'Deployed', maps_to: 'shipped' }] }, /mappings\.0\.maps_to.*must be one of ticketed, in-progress, done, wont-do/],
      [{ mappings: [{ system: 'jira', status: 'x'.repeat(256), maps_to: 'done' }] }, /mappings\.0\.status.*at most 255 characters/],
      [{ mappings: [{ system: 'jira', status: '  ', maps_to: 'done' }] }, /mappings\.0\.status.*must not be empty/],
      [{ mappings: [], extra: 1 }, /extra/],
    ] as const) {
      const refused = await server.app('/orgs/replica/work-packages/status-mapping', { method: 'PUT', body });
      expect(refused.status).toBe(400);
      expect((refused.body as { error: string }).error).toMatch(message);
    }
    expect((await server.app('/orgs/replica/work-packages/status-mapping')).body).toEqual(saved.body);
  });
});
