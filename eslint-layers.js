// The layers of the code as ESLint rules (docs/decisions/layers/layers.md, "Layers"): one config block per
// folder, because a relative import names its target as seen from the importing folder.
import fs from 'node:fs';
import path from 'node:path';

const repositoryRoot = import.meta.dirname;
const domain = ['server/organizations', 'server/sync', 'server/remote', 'server/secrets', 'server/agent-config', 'server/demo', 'server/work-packages', 'server/reports'];
// The store's query folders, bottom first (server/store/README.md, "The spine"): the basics every
// figure reads, the features, and the console's composed reads. Each imports only those below it.
// The imported intelligence sits below exposure, its first reader (plan sums, products' exploit figures);
// the fix-by dates (ssvc/) read it and sit below remediation, whose deadlines follow them.
const storeQueries = ['basics', 'inventory', 'records', 'context', 'coverage', 'intel', 'ssvc', 'exposure', 'remediation', 'console'];
// The store's parts, bottom first: the engine, the derived-data building blocks, the query
// folders, and the facade store.ts that wires them.
const store = ['store engine', 'store derived', ...storeQueries.map((folder) => `store ${folder}`), 'store'];
const belowApp = ['contracts', ...store, 'domain', 'http', 'cli', 'composition'];

/**
 * The layers, bottom first. A module imports from its own layer and from `imports`; a test
 * (`*.test.ts`) also from `testSupport`. `filesOnly`: the layer is the files directly in its
 * root, not the folders below it. `packages`: the only packages it may import, when limited.
 * `also`: further restrictions of the layer, as no-restricted-imports patterns.
 * Every folder of code belongs to exactly one layer (the one with the longest root above it).
 */
export const layers = [
  { name: 'contracts', roots: ['contracts'], imports: [], packages: ['zod'] },
  // The store's tests may go through the facade (`openStore`), as the product does.
  { name: 'store engine', roots: ['server/store/engine'], imports: ['contracts'], testSupport: ['server test support', 'store'] },
  { name: 'store derived', roots: ['server/store/derived'], imports: ['contracts', 'store engine'], testSupport: ['server test support', 'store'] },
  // One layer per query folder: a folder builds on those below it (exposure on the sorted orders,
  // remediation on exposure's figures, the console on all), never on one above.
  ...storeQueries.map((folder, index) => ({
    name: `store ${folder}`,
    roots: [`server/store/${folder}`],
    imports: ['contracts', 'store engine', 'store derived', ...storeQueries.slice(0, index).map((below) => `store ${below}`)],
    testSupport: ['server test support', 'store'],
  })),
  { name: 'store', roots: ['server/store'], filesOnly: true, imports: ['contracts', ...store.filter((name) => name !== 'store')], testSupport: ['server test support'] },
  { name: 'domain', roots: domain, imports: ['contracts', ...store], testSupport: ['server test support'] },
  { name: 'http', roots: ['server/http'], imports: ['contracts', ...store, 'domain'], testSupport: ['server test support'] },
  { name: 'cli', roots: ['server/cli'], imports: ['contracts', ...store, 'domain'], testSupport: ['server test support'] },
  // What wires the server together: start-console-server.ts, the command line's entry, serve.
  { name: 'composition', roots: ['server'], filesOnly: true, imports: ['contracts', ...store, 'domain', 'http', 'cli'], testSupport: ['server test support'] },
  { name: 'server test support', roots: ['server/test'], imports: belowApp },
  { name: 'app', roots: ['app'], imports: belowApp, testSupport: ['server test support', 'app test support'] },
  { name: 'app test support', roots: ['app/test'], imports: ['app', ...belowApp, 'server test support'] },
  {
    name: 'renderer',
    roots: ['renderer'],
    imports: ['contracts'],
    testSupport: ['renderer test support'],
    also: [
      // zod in the console's bundle probes `new Function`, which its CSP (no 'unsafe-eval') reports as a violation.
      { regex: '^zod(/|$)', allowTypeImports: true, message: 'The console loads no zod; the server validates.' },
      // Views compose components, lib and api; nothing below them reaches back up (views import each other by './').
      { regex: '^\\.\\./views/', message: 'Only views import views: move what a component, lib or api module shares down into components/ or lib/.' },
      {
        regex: '/contracts/(?!(enums|collection-basics|figure-text|risk-score|remediation-deadlines|fix-by|ssvc-tables|remote-url|cli-command|console/views|console/exception-basics|console/sync-change-bounds|console/sync-basics|console/threat-intel-basics|console/work-package-basics|console/saved-view-basics)(\\.js)?$)',
        allowTypeImports: true,
        message: 'This module builds zod schemas: the renderer takes only types from it, and values from enums.ts, collection-basics.ts, figure-text.ts, risk-score.ts, remediation-deadlines.ts, fix-by.ts, ssvc-tables.ts, remote-url.ts, cli-command.ts, console/views.ts, console/exception-basics.ts, console/sync-change-bounds.ts, console/sync-basics.ts, console/threat-intel-basics.ts, console/work-package-basics.ts or console/saved-view-basics.ts.',
      },
    ],
  },
  // What the console's component tests open it with: its routes, a memory router, the test server's address.
  { name: 'renderer test support', roots: ['renderer/src/test-support'], imports: ['renderer', 'contracts'] },
  // Harnesses that run the product from outside: nothing imports them, and they import anything.
  { name: 'e2e and bench', roots: ['e2e', 'e2e-electron', 'bench'], harness: true },
];

const codeFile = /\.(js|mjs|cjs|ts|tsx|mts|cts)$/;
const codeExtensions = '{js,mjs,cjs,ts,tsx,mts,cts}';
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The layer a folder's files belong to: the one whose root is the longest above it. */
function layerOf(folder) {
  let found;
  let foundRoot = '';
  for (const layer of layers) {
    for (const root of layer.roots) {
      const covers = layer.filesOnly ? folder === root : folder === root || folder.startsWith(`${root}/`);
      if (covers && root.length >= foundRoot.length) [found, foundRoot] = [layer, root];
    }
  }
  return found;
}

/** The folders below `root` (itself included) that hold code, as repository paths. */
function codeFolders(root) {
  const entries = fs.readdirSync(path.join(repositoryRoot, root), { withFileTypes: true });
  const below = entries.filter((entry) => entry.isDirectory() && entry.name !== 'node_modules').flatMap((entry) => codeFolders(`${root}/${entry.name}`));
  return entries.some((entry) => entry.isFile() && codeFile.test(entry.name)) ? [root, ...below] : below;
}

/** A regular expression matching the specifiers that reach `root` from `folder`, as written. */
function reaching(folder, root, filesOnly) {
  const relative = path.posix.relative(folder, root);
  const prefix = relative.startsWith('..') ? relative : `./${relative}`;
  return `^${escape(prefix)}/${filesOnly ? '[^/]+$' : ''}`;
}

/** Specifiers that climb out of a folder and back into it: the rules read paths as written. */
function roundabout(folder) {
  const names = folder.split('/');
  return names.map((name, index) => `^(\\.\\./){${names.length - index}}${escape(name)}/`);
}

/** What a file of `folder` may not import, tests (`forTests`) or not, with the reason. */
function restrictions(folder, forTests) {
  const layer = layerOf(folder);
  const allowed = new Set([layer.name, ...layer.imports, ...(forTests ? (layer.testSupport ?? []) : [])]);
  const may = [...allowed].filter((name) => name !== layer.name).join(', ') || 'nothing else';
  const found = [];
  for (const target of layers.filter((other) => !allowed.has(other.name))) {
    for (const root of target.roots) {
      found.push({ regex: reaching(folder, root, target.filesOnly), message: `${layer.name} (${folder}) imports only its own layer and ${may}; not ${target.name} (${root}).` });
    }
  }
  found.push(...(layer.also ?? []));
  for (const regex of roundabout(folder)) found.push({ regex, message: 'Import by the shortest relative path: the layer rules read paths as written.' });
  if (layer.packages) {
    const packages = layer.packages.map((name) => `${escape(name)}(/|$)`).join('|');
    found.push({ regex: `^(?!\\.|${packages})`, message: `${layer.name} imports no package but ${layer.packages.join(', ')}.` });
  }
  return found;
}

/** no-restricted-imports for static imports, no-restricted-syntax for `import()`. */
function rulesOf(found) {
  return {
    'no-restricted-imports': ['error', { patterns: found.map((pattern) => ({ caseSensitive: true, ...pattern })) }],
    'no-restricted-syntax': [
      'error',
      ...found.map(({ regex, message }) => ({ selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\/')}/]`, message })),
    ],
  };
}

/**
 * The config blocks enforcing the layers: for each folder of code, one for its modules and one
 * for its tests. Throws when a folder of code belongs to no layer, so that none goes unchecked.
 */
export function layerRules() {
  const topFolders = new Set(layers.filter((layer) => !layer.harness).flatMap((layer) => layer.roots.map((root) => root.split('/')[0])));
  return [...topFolders].flatMap(codeFolders).flatMap((folder) => {
    if (!layerOf(folder)) throw new Error(`eslint-layers.js: ${folder}/ belongs to no layer; add it to \`layers\`.`);
    const files = `${folder}/*.${codeExtensions}`;
    const tests = `${folder}/*.test.${codeExtensions}`;
    return [
      { files: [files], ignores: [tests], rules: rulesOf(restrictions(folder, false)) },
      { files: [tests], rules: rulesOf(restrictions(folder, true)) },
    ];
  });
}
