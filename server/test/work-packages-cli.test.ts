/**
 * `plan export` and `plan import-status` through the real binary (needs `npm run build:server`)
 * on a data directory seeded with the demo dataset: the Jira CSV written to a file and read by
 * python3's csv module, the same external ids as the JSON export, a Jira status file made from it
 * read back, and a bad file refused with its line, the data directory left as it was.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { WorkPackageList } from '../../contracts/console/work-packages.js';
import { runCli } from './support/cli-binary.js';
import { storeDigest } from './support/store-digest.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-plan-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);
const file = (name: string) => path.join(dataDir, name);

beforeAll(async () => {
  expect((await cli('orgs', 'create', '--slug', 'acme', '--name', 'Acme')).status).toBe(0);
  expect((await cli('seed', '--org', 'acme', '--size', 'demo', '--seed', '3')).status).toBe(0);
}, 60_000);

/** python3's csv module reads a file: its rows. */
function csvRows(text: string): string[][] {
  const program = 'import csv, io, json, sys\nprint(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read(), newline="")))))';
  return JSON.parse(execFileSync('python3', ['-c', program], { input: text, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as string[][];
}

it('exports the plan as Jira CSV to a file and as JSON, with the same external ids, and reads a Jira status file back', async () => {
  const exported = await cli('plan', 'export', '--org', 'acme', '--format', 'jira', '--out', file('plan.csv'));
  expect(exported.stderr).toMatch(/plan\.csv: \d+ work packages \(jira\)\n$/);
  expect(exported.status).toBe(0);
  const [header, ...rows] = csvRows(fs.readFileSync(file('plan.csv'), 'utf8'));
  expect(header!.slice(0, 6)).toEqual(['Summary', 'Description', 'Issue Type', 'Priority', 'Due date', 'External ID']);
  const json = await cli('plan', 'export', '--org', 'acme', '--format', 'json');
  expect(json.status).toBe(0);
  const packages = (JSON.parse(json.stdout) as WorkPackageList).data;
  expect(rows.map((row) => row[5])).toEqual(packages.map((work) => work.external_id));

  const status = ['Issue key,Status,Resolution,Resolved,Custom field (External ID)', 'ABC-1,Done,Done,02/Dec/26 10:15 AM,' + packages[0]!.external_id, `ABC-2,In Progress,,,${packages[1]!.external_id}`, 'ABC-3,To Do,,,rc-ffffffffffffffffffff'];
  fs.writeFileSync(file('status.csv'), `${status.join('\n')}\n`);
  const imported = await cli('plan', 'import-status', file('status.csv'), '--org', 'acme');
  expect(imported.stderr).toBe('');
  expect(imported.stdout).toBe(
    [
      `${file('status.csv')}: jira export of 3 rows: 2 matched a step, 2 changed, 1 unmatched, 0 of a status that maps to nothing`,
      '  status "Done": done, by the default workflows, 1 row',
      '  status "In Progress": in-progress, by the default workflows, 1 row',
      '  status "To Do": ticketed, by the default workflows, 1 row',
      '  line 4: ABC-3 (rc-ffffffffffffffffffff): no step of the plan has this external id',
      '',
    ].join('\n'),
  );
  const done = JSON.parse((await cli('plan', 'export', '--org', 'acme', '--format', 'json', '--status', 'done')).stdout) as WorkPackageList;
  expect(done.data.map((work) => [work.external_id, work.ticket?.key])).toEqual([[packages[0]!.external_id, 'ABC-1']]);
}, 60_000);

it('exports the steps of one OS family: each family a part of every step\'s endpoints, under the whole plan\'s external ids', async () => {
  const exportJson = async (...filters: string[]) => {
    const answer = await cli('plan', 'export', '--org', 'acme', '--format', 'json', ...filters);
    expect(answer.status).toBe(0);
    return (JSON.parse(answer.stdout) as WorkPackageList).data;
  };
  const whole = await exportJson();
  const endpointsByFamily = new Map<string, string>();
  for (const family of ['macos', 'windows', 'linux']) {
    for (const work of await exportJson('--os-family', family)) {
      const before = whole.find((each) => each.external_id === work.external_id)!;
      const ids = work.endpoints.map((endpoint) => endpoint.endpoint_id);
      // The family's endpoints of the step, in the whole step's order; no endpoint in two families.
      expect(ids).toEqual(before.endpoints.map((endpoint) => endpoint.endpoint_id).filter((id) => ids.includes(id)));
      for (const id of ids) expect(endpointsByFamily.get(id) ?? family).toBe(family);
      for (const id of ids) endpointsByFamily.set(id, family);
      expect(work.findings.total).toBeLessThanOrEqual(before.findings.total);
    }
  }
  expect(new Set(endpointsByFamily.values()).size).toBeGreaterThanOrEqual(2);
  const badFamily = await cli('plan', 'export', '--org', 'acme', '--format', 'jira', '--os-family', 'beos');
  expect(badFamily.status).not.toBe(0);
  expect(badFamily.stderr).toContain('--os-family must be one of macos, windows, linux');
}, 60_000);

it('lists a status that maps to nothing, refuses a bad status file with its line and a bad option by name, leaving the data directory as it was', async () => {
  fs.writeFileSync(file('custom.csv'), 'Issue key,Status,Status Category,External ID\nABC-7,Deployed,Done,rc-ffffffffffffffffffff\nABC-8,Shelved,,rc-eeeeeeeeeeeeeeeeeeee\n');
  const listed = await cli('plan', 'import-status', file('custom.csv'), '--org', 'acme');
  expect(listed.status).toBe(0);
  expect(listed.stdout).toContain('  status "Deployed" (category Done): done, by Jira\'s status category, 1 row\n');
  expect(listed.stdout).toContain('  line 3: ABC-8: the status "Shelved" maps to nothing: not imported\n');
  const before = await storeDigest(dataDir);
  fs.writeFileSync(file('bad.csv'), 'Issue key,Status,External ID\nABC-1,Done,rc-ffffffffffffffffffff\nnot a key,Done,rc-eeeeeeeeeeeeeeeeeeee\n');
  const refused = await cli('plan', 'import-status', file('bad.csv'), '--org', 'acme');
  expect(refused.status).not.toBe(0);
  expect(refused.stderr).toContain(`${file('bad.csv')}: line 3: "not a key" is not a Jira issue key`);
  expect(refused.stderr).toContain('Nothing was imported.');
  const badFormat = await cli('plan', 'export', '--org', 'acme', '--format', 'csv');
  expect(badFormat.status).not.toBe(0);
  expect(badFormat.stderr).toContain('--format must be one of jira, servicenow, json');
  expect(await storeDigest(dataDir)).toBe(before);
}, 60_000);
