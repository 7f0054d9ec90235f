/**
 * `fix-by show`, `fix-by set` and `fix-by summary` through the real binary (needs `npm run
 * build:server`) on a data directory seeded with the demo dataset: the settings changed and read
 * back, the change of exposure tags recorded in the fix-by feed as /app records it, the due
 * counts equal to /app's fix-by-summary on the same directory, and a bad option refused by name
 * with the data directory left as it was.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from './support/cli-binary.js';
import { startConsoleTestServer } from './support/console-test-server.js';
import { storeDigest } from './support/store-digest.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-fix-by-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);

beforeAll(async () => {
  expect((await cli('orgs', 'create', '--slug', 'acme', '--name', 'Acme')).status).toBe(0);
  expect((await cli('seed', '--org', 'acme', '--size', 'demo', '--seed', '3')).status).toBe(0);
}, 60_000);

it("shows the defaults, sets the policy and the exposure tags, and records the tags' what-if in the feed", async () => {
  const shown = await cli('fix-by', 'show', '--org', 'acme');
  expect(shown.stdout).toBe('deadline policy: severity-days\nexposure tags: internet-facing\nunknown counts as: shorter-timeline\nupdated: never (the defaults)\n');
  const set = await cli('fix-by', 'set', '--org', 'acme', '--policy', 'bod-26-04', '--exposure-tags', 'dmz-only,perimeter');
  expect(set.stderr).toBe('');
  expect(set.status).toBe(0);
  expect(set.stdout).toMatch(/^deadline policy: bod-26-04\nexposure tags: dmz-only, perimeter\nunknown counts as: shorter-timeline\nupdated: \d{4}-\d{2}-\d{2}T/);
  const json = JSON.parse((await cli('fix-by', 'show', '--org', 'acme', '--json')).stdout);
  expect(json).toMatchObject({ deadline_policy: 'bod-26-04', exposure_tags: ['dmz-only', 'perimeter'], unknown_as: 'shorter-timeline' });

  const server = await startConsoleTestServer([], { dataDir });
  try {
    expect((await server.app('/orgs/acme/fix-by-settings')).body).toEqual(json);
    const [change] = (await server.app('/orgs/acme/fix-by-changes')).body.data;
    expect(change).toMatchObject({ cause: 'fix-by settings: policy bod-26-04, exposure tags dmz-only, perimeter, unknown as shorter-timeline' });
    expect(change.findings_changed).toBeGreaterThan(0);
  } finally {
    await server.close();
  }
}, 60_000);

it("prints the due counts /app's fix-by-summary answers on the same data directory", async () => {
  // Both at the same minute: a minute apart, a finding may fall due between them.
  for (let attempt = 0; ; attempt++) {
    const printed = JSON.parse((await cli('fix-by', 'summary', '--org', 'acme', '--json')).stdout);
    const server = await startConsoleTestServer([], { dataDir });
    const answered = (await server.app('/orgs/acme/fix-by-summary')).body;
    await server.close();
    if (printed.as_of !== answered.as_of && attempt < 2) continue;
    expect(printed).toEqual(answered);
    expect(printed.open).toBeGreaterThan(0);
    const text = await cli('fix-by', 'summary', '--org', 'acme');
    expect(text.stdout).toContain(`open: ${printed.open}\noverdue: ${printed.overdue}\ndue within 3 days: ${printed.due_within.days_3}\n`);
    expect(text.stdout).toContain(`can wait for the next upgrade: ${printed.on_upgrade}\n`);
    return;
  }
}, 60_000);

it('refuses a bad option by name, changing nothing', async () => {
  const before = await storeDigest(dataDir);
  const refused = await cli('fix-by', 'set', '--org', 'acme', '--policy', 'bod-22-01');
  expect(refused.status).not.toBe(0);
  expect(refused.stderr).toContain('--policy must be one of severity-days, bod-26-04, kev-due-date. Nothing was changed.');
  const badTag = await cli('fix-by', 'set', '--org', 'acme', '--unknown-as', 'maybe');
  expect(badTag.stderr).toContain('--unknown-as must be one of shorter-timeline, longer-timeline');
  expect(await storeDigest(dataDir)).toEqual(before);
}, 60_000);
