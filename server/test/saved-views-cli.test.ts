/**
 * `views list`, `views export` and `views import` through the real binary (needs `npm run
 * build:server`): views saved through /app on a data directory, listed and exported by the CLI,
 * the file imported into another organization, and a bad file or a name taken refused with
 * nothing imported.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { savedViewsFileSchema } from '../../contracts/saved-views.js';
import { runCli } from './support/cli-binary.js';
import { startConsoleTestServer } from './support/console-test-server.js';
import { smallInventory } from './support/fixtures.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-views-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);
const file = (name: string) => path.join(dataDir, name);

beforeAll(async () => {
  // Saved through /app on the data directory, as the console saves them; the server closed before the CLI writes.
  const server = await startConsoleTestServer(
    [
      { slug: 'acme', inventory: smallInventory(3, 1) },
      { slug: 'beta', inventory: smallInventory(2, 1) },
    ],
    { dataDir },
  );
  try {
    for (const view of [
      { name: 'Critical, internet-facing', view: 'vulnerability-findings', query: 'severity=critical&tag=internet-facing' },
      { name: 'Dashboard of high', view: 'dashboard', query: 'criticality=high' },
    ]) {
      expect((await server.app('/orgs/acme/saved-views', { method: 'POST', body: view })).status).toBe(201);
    }
  } finally {
    await server.close();
  }
}, 60_000);

it('lists and exports the views, and imports the file into another organization, once', async () => {
  const listed = await cli('views', 'list', '--org', 'acme');
  expect(listed.status).toBe(0);
  expect(listed.stdout).toMatch(/^NAME +VIEW +FILTERS +ID\nCritical, internet-facing +vulnerability-findings +severity=critical&tag=internet-facing +[0-9a-f-]{36}\nDashboard of high +dashboard +criticality=high/);

  const exported = await cli('views', 'export', '--org', 'acme', '--out', file('views.json'));
  expect(exported.status).toBe(0);
  expect(exported.stderr).toBe(`${file('views.json')}: 2 saved views\n`);
  const views = savedViewsFileSchema.parse(JSON.parse(fs.readFileSync(file('views.json'), 'utf8'))).views;
  expect(views.map((view) => view.name)).toEqual(['Critical, internet-facing', 'Dashboard of high']);

  const imported = await cli('views', 'import', file('views.json'), '--org', 'beta');
  expect(imported.stdout).toBe(`${file('views.json')}: 2 saved views imported into beta\n`);
  expect(imported.status).toBe(0);
  expect((await cli('views', 'list', '--org', 'beta')).stdout).toContain('Dashboard of high');

  const again = await cli('views', 'import', file('views.json'), '--org', 'beta');
  expect(again.status).not.toBe(0);
  expect(again.stderr).toContain('A view is already named "Critical, internet-facing", "Dashboard of high": rename or delete it first. Nothing was imported.');
});

it('refuses a file that is not JSON or holds a view its view refuses, and imports nothing', async () => {
  fs.writeFileSync(file('not.json'), 'name,view\n');
  const notJson = await cli('views', 'import', file('not.json'), '--org', 'acme');
  expect(notJson.status).not.toBe(0);
  expect(notJson.stderr).toContain('is not JSON: nothing was imported.');

  const exported = JSON.parse((await cli('views', 'export', '--org', 'acme')).stdout) as { views: { name: string; query: string }[] };
  const refused = { ...exported, views: [{ name: 'Fine', view: 'dashboard', query: '' }, { name: 'Bad', view: 'dashboard', query: 'severity=critical' }] };
  fs.writeFileSync(file('bad.json'), JSON.stringify(refused));
  const bad = await cli('views', 'import', file('bad.json'), '--org', 'acme');
  expect(bad.status).not.toBe(0);
  expect(bad.stderr).toContain('views.1.query: Unknown query parameter "severity"');
  expect((await cli('views', 'list', '--org', 'acme')).stdout).not.toContain('Fine');
});
