import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layer rules of eslint.config.js (eslint-layers.js), run by ESLint's own API on made-up
// modules in the real folders: each forbidden direction is refused, each allowed one passes.
const repositoryRoot = path.resolve(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: repositoryRoot });

/** The layer rules' complaints about `code` as if it were the file `file` of the repository. */
async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repositoryRoot, file) });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports' || message.ruleId === 'no-restricted-syntax').map((message) => message.message);
}

const importing = (specifier: string) => `import { probe } from '${specifier}';\nexport const probed = probe;\n`;

describe('the layer rules', () => {
  it.each([
    ['contracts', 'a server module', 'contracts/probe.ts', '../server/store/store.js', 'not store'],
    ['contracts', 'a package but zod', 'contracts/console/probe.ts', 'node:fs', 'no package but zod'],
    ['the store', 'the domain', 'server/store/probe.ts', '../sync/sync-scheduler.js', 'not domain'],
    ['the store', 'http', 'server/store/probe.ts', '../http/http-error.js', 'not http'],
    ['the domain', 'http', 'server/sync/probe.ts', '../http/http-error.js', 'not http'],
    ['the domain', 'the cli', 'server/organizations/probe.ts', '../cli/cli-context.js', 'not cli'],
    ['http', 'the cli', 'server/http/app/probe.ts', '../../cli/cli-context.js', 'not cli'],
    ['http', 'the composition', 'server/http/probe.ts', '../start-console-server.js', 'not composition'],
    ['the cli', 'http', 'server/cli/commands/probe.ts', '../../http/start-server.js', 'not http'],
    ['the cli', 'the composition', 'server/cli/probe.ts', '../package-root.js', 'not composition'],
    ['the composition', 'the app', 'server/probe.ts', '../app/main.js', 'not app'],
    ['the server', 'the renderer', 'server/http/probe.ts', '../../renderer/src/main.js', 'not renderer'],
    ['the app', 'the renderer', 'app/main/probe.ts', '../../renderer/src/main.js', 'not renderer'],
    ['the renderer', 'the server', 'renderer/src/api/probe.ts', '../../../server/store/store.js', 'not store'],
    ['the renderer', 'the app', 'renderer/src/probe.ts', '../../app/main/app-window.js', 'not app'],
    ['the renderer', 'zod', 'renderer/src/probe.ts', 'zod', 'loads no zod'],
    ['a console component', 'a view', 'renderer/src/components/probe.ts', '../views/list-sort.js', 'Only views import views'],
    ['a console module', "the component tests' support", 'renderer/src/views/probe.ts', '../test-support/console-page.js', 'not renderer test support'],
    ['the renderer', 'values of a contract that builds zod schemas', 'renderer/src/api/probe.ts', '../../../contracts/collections.js', 'takes only types'],
    ['a module', 'server test support', 'server/sync/probe.ts', '../test/support/fake-remote.js', 'not server test support'],
    ['a module', 'app test support', 'app/main/probe.ts', '../test/fake-electron.js', 'not app test support'],
    ['a test', 'the e2e tests', 'server/http/app/probe.test.ts', '../../../e2e/support/serve-process.js', 'not e2e and bench'],
    ['a store test', 'the domain', 'server/store/probe.test.ts', '../demo/generate.js', 'not domain'],
    ['the store engine', 'the derived blocks', 'server/store/engine/probe.ts', '../derived/derived-cache.js', 'not store derived'],
    ['the store engine', 'a query', 'server/store/engine/probe.ts', '../basics/inventory-ids.js', 'not store basics'],
    ['the store engine', 'the facade', 'server/store/engine/probe.ts', '../store.js', 'not store (server/store)'],
    ['the derived blocks', 'a query', 'server/store/derived/probe.ts', '../basics/coverage-columns.js', 'not store basics'],
    ['the derived blocks', 'the facade', 'server/store/derived/probe.ts', '../store.js', 'not store (server/store)'],
    ['a query', 'the facade', 'server/store/records/probe.ts', '../store.js', 'not store (server/store)'],
    ['a query', 'the domain', 'server/store/remediation/probe.ts', '../../organizations/manage-organizations.js', 'not domain'],
    ['an engine test', 'the domain', 'server/store/engine/probe.test.ts', '../../demo/generate.js', 'not domain'],
  ])('refuses %s importing %s', async (_from, _to, file, specifier, reason) => {
    expect(await layerErrors(file, importing(specifier))).toEqual([expect.stringContaining(reason)]);
  });

  // The store's query folders, bottom first: no import runs back up among them.
  const queryFolders = ['basics', 'inventory', 'records', 'context', 'coverage', 'intel', 'exposure', 'remediation', 'console'];
  const upward = queryFolders.flatMap((lower, index) => queryFolders.slice(index + 1).map((higher) => [lower, higher]));

  it.each(upward)('refuses the store\'s %s folder importing the %s folder above it', async (lower, higher) => {
    expect(await layerErrors(`server/store/${lower}/probe.ts`, importing(`../${higher}/probe.js`))).toEqual([expect.stringContaining(`not store ${higher}`)]);
  });

  it.each(upward)('lets the store\'s %s folder be imported by the %s folder above it', async (lower, higher) => {
    expect(await layerErrors(`server/store/${higher}/probe.ts`, importing(`../${lower}/probe.js`))).toEqual([]);
  });

  it('reads import(), import type and export ... from as imports, and paths as written', async () => {
    const store = 'server/store/probe.ts';
    expect(await layerErrors(store, "export const probe = await import('../organizations/manage-organizations.js');\n")).toEqual([expect.stringContaining('not domain')]);
    expect(await layerErrors(store, "import type { Probe } from '../sync/sync-policy.js';\nexport type Probed = Probe;\n")).toEqual([expect.stringContaining('not domain')]);
    expect(await layerErrors(store, "export { probe } from '../http/http-error.js';\n")).toEqual([expect.stringContaining('not http')]);
    expect(await layerErrors(store, importing('../../server/sync/sync-policy.js'))).toEqual([expect.stringContaining('shortest relative path')]);
  });

  it('lets the renderer take types from any contract', async () => {
    const types = "import type { CollectionName } from '../../../contracts/collections.js';\nexport type Probed = CollectionName;\n";
    expect(await layerErrors('renderer/src/api/probe.ts', types)).toEqual([]);
  });

  it.each([
    ['contracts', 'contracts and zod', 'contracts/console/probe.ts', ['../common.js', 'zod']],
    ['the store', 'contracts', 'server/store/probe.ts', ['../../contracts/inventory.js', './store.js']],
    ['the domain', 'the store and the domain', 'server/sync/probe.ts', ['../store/store.js', '../organizations/manage-organizations.js']],
    ['http', 'the domain', 'server/http/app/probe.ts', ['../../sync/sync-scheduler.js', '../v1/v1-router.js']],
    ['the composition', 'http and the cli', 'server/probe.ts', ['./http/start-server.js', './cli/cli-context.js']],
    ['the app', 'the composition and the store', 'app/main/probe.ts', ['../../server/start-console-server.js', '../../server/store/store.js']],
    ['the renderer', 'contracts', 'renderer/src/api/probe.ts', ['../../../contracts/enums.js', '../../../contracts/console/views.js', '../../../contracts/console/exception-basics.js', '../../../contracts/risk-score.js', '../../../contracts/remediation-deadlines.js', '../../../contracts/console/sync-change-bounds.js', '../lib/format.js', 'react']],
    ['a console test', "the component tests' support", 'renderer/src/components/probe.test.tsx', ['../test-support/console-page.js', '@testing-library/react', './virtual-table.js']],
    ['a store test', 'server test support', 'server/store/probe.test.ts', ['../test/support/fixtures.js']],
    ['the store engine', 'contracts', 'server/store/engine/probe.ts', ['../../../contracts/inventory.js', './database.js']],
    ['the derived blocks', 'the engine', 'server/store/derived/probe.ts', ['../engine/database.js', './time-slices.js']],
    ['a query', 'the engine, the derived blocks and the query folders below it', 'server/store/exposure/probe.ts', ['../engine/database.js', '../derived/derived-cache.js', '../basics/excepted-findings.js', '../inventory/sorted-orders.js', './exposure-table.js']],
    ['the imported intelligence', 'the basics and the inventory below it', 'server/store/intel/probe.ts', ['../basics/coverage-columns.js', '../inventory/sorted-orders.js', './finding-intel.js']],
    ['exposure', 'the imported intelligence below it', 'server/store/exposure/probe.ts', ['../intel/exploit-figures.js']],
    ['the console\'s reads', 'every query folder', 'server/store/console/probe.ts', ['../basics/id-page.js', '../inventory/list-totals.js', '../coverage/scope-coverage.js', '../intel/finding-intel.js', '../exposure/exposure-figures.js', '../remediation/exceptions.js', '../context/endpoint-context.js']],
    ['the facade', 'every part of the store', 'server/store/probe.ts', ['./engine/database.js', './derived/derived-cache.js', './inventory/inventories.js', './console/console-queries.js']],
    ['a query test', 'the facade and server test support', 'server/store/coverage/probe.test.ts', ['../store.js', '../../test/support/fixtures.js']],
    ['the domain', 'a part of the store', 'server/organizations/probe.ts', ['../store/records/organization-records.js', '../store/engine/data-directory.js']],
    ['an app test', 'test support', 'app/main/probe.test.ts', ['../test/fake-electron.js', '../../server/test/support/identity-sealer.js']],
  ])('lets %s import %s', async (_from, _to, file, specifiers) => {
    for (const specifier of specifiers) expect(await layerErrors(file, importing(specifier)), specifier).toEqual([]);
  });
});
