/**
 * A report's delta between two syncs through the built binary: a replica of a fake remote synced
 * twice by `sync`, its syncs listed by `sync --list`, and `report --since-sync A --until-sync B`
 * naming the two syncs and the findings remediated on the remote between them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInventory } from '../demo/generate.js';
import { runCli } from './support/cli-binary.js';
import { type FakeRemote, startFakeRemote } from './support/fake-remote.js';

let folder: string;
let dataDir: string;
let remote: FakeRemote;
const remediated = new Set<string>();

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-sync-delta-cli-'));
  dataDir = path.join(folder, 'data');
  remote = await startFakeRemote({ inventory: generateInventory('demo', 5) });
  const keyFile = path.join(folder, 'remote.key');
  fs.writeFileSync(keyFile, remote.apiKey);
  const connected = await runCli(['orgs', 'connect', '--slug', 'replica', '--remote', remote.url, '--api-key-file', keyFile, '--data-dir', dataDir]);
  expect(connected.status, connected.stderr).toBe(0);
  const first = await runCli(['sync', '--org', 'replica', '--data-dir', dataDir]);
  expect(first.status, first.stderr).toBe(0);
  // On the remote, eight open findings remediated.
  const at = new Date().toISOString();
  const { inventory } = remote.options;
  for (const finding of inventory.findings.filter((finding) => finding.status === 'open').slice(0, 8)) remediated.add(finding.id);
  inventory.findings = inventory.findings.map((finding) => (remediated.has(finding.id) ? { ...finding, status: 'remediated', remediated_at: at, updated_at: at } : finding));
  const second = await runCli(['sync', '--org', 'replica', '--data-dir', dataDir]);
  expect(second.status, second.stderr).toBe(0);
  expect(second.stdout).toMatch(/Recorded as sync \d+\./);
}, 300_000);
afterAll(async () => {
  await remote.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('report --since-sync --until-sync', () => {
  it('compares two syncs listed by sync --list, and says which in the report', async () => {
    const listed = await runCli(['sync', '--list', '--org', 'replica', '--data-dir', dataDir]);
    expect(listed.status, listed.stderr).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    // Newest first: id, finished at, mode.
    const [until, since] = lines.map((line) => line.split('\t'));
    expect(since![2]).toBe('full (first)');

    const out = path.join(folder, 'delta.html');
    const made = await runCli(['report', '--org', 'replica', '--since-sync', since![0]!, '--until-sync', until![0]!, '--out', out, '--data-dir', dataDir]);
    expect(made.status, made.stderr).toBe(0);
    const html = fs.readFileSync(out, 'utf8');
    expect(html).toContain(`sync ${since![0]}, finished ${since![1]!.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}`);
    expect(html).toContain(`sync ${until![0]}, finished`);
    expect(html).toContain(`Fixed: ${remediated.size}`);
    for (const id of remediated) expect(html).toContain(id);
    expect(html).toContain('Appeared: 0');
  }, 120_000);

  it.each([
    [['--since-sync', '1'], 'Give --since-sync and --until-sync together'],
    [['--since-sync', '1', '--until-sync', 'two'], '--until-sync must be a sync'],
    [['--since-sync', '1', '--until-sync', '999'], 'Sync 999 is not among'],
  ])('refuses %j with a usage error', async (flags, message) => {
    const refused = await runCli(['report', '--org', 'replica', ...flags, '--out', path.join(folder, 'refused.html'), '--data-dir', dataDir]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(message);
    expect(fs.existsSync(path.join(folder, 'refused.html'))).toBe(false);
  }, 60_000);
});
