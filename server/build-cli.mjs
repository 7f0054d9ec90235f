// Bundles the command line into dist/cli with esbuild (`npm run build:cli`), which
// bin/remediation-console.js loads: a few files to read, not the ~290 modules of dist/server,
// dist/contracts and zod (docs/decisions/tests-docs-and-ci/the-command-line-is-bundled.md).
// dist/server stays as tsc emits it: the desktop app imports it.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const { dependencies } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/**
 * The dependencies bundled: zod (95 modules, the largest share of a command's start) and commander
 * (8). The others stay packages loaded from node_modules: sql.js reads its .wasm beside it,
 * express and its CommonJS dependencies load only for `serve`, and the modules required with
 * createRequire (sql.js, fflate, ipaddr.js) are not seen by esbuild anyway.
 */
const bundled = new Set(['zod', 'commander']);

// Chunks are named by their hashes: those of an earlier build would stay beside the new ones.
rmSync(path.join(root, 'dist', 'cli'), { recursive: true, force: true });

const { metafile } = await build({
  absWorkingDir: root,
  // The worker threads' entries are entries of their own, beside the command line's: the server
  // starts its thread from './console-server-worker.js' next to the module that starts it, a sync
  // its fetching thread from './fetching-thread-worker.js'.
  entryPoints: {
    'command-line': 'server/command-line.ts',
    'console-server-worker': 'server/console-server-worker.ts',
    'fetching-thread-worker': 'server/sync/fetching-thread-worker.ts',
  },
  outdir: 'dist/cli',
  // Chunks sit beside the entries, so that URLs made from import.meta.url resolve as from one
  // folder; each command's dynamic import() stays a chunk loaded when that command runs.
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: Object.keys(dependencies).filter((name) => !bundled.has(name)),
  // commander is CommonJS: esbuild's wrapper of it calls `require` for Node's own modules, which
  // an ES module has only if it makes one.
  banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
  sourcemap: true,
  logLevel: 'warning',
  metafile: true,
});

// zod's ~300 KB of locales are shaken out only while the code imports it as a namespace
// (`import * as z from 'zod'`): a value of `z` (`import { z } from 'zod'`) keeps all of them.
const bundledInputs = Object.values(metafile.outputs).flatMap((output) => Object.entries(output.inputs).filter(([, { bytesInOutput }]) => bytesInOutput > 0).map(([input]) => input));
const locales = bundledInputs.filter((input) => /zod\/v4\/locales\/(?!en\.js$)/.test(input));
if (locales.length > 0) {
  throw new Error(`dist/cli bundles ${locales.length} of zod's locales: import zod as \`import * as z from 'zod'\`, not \`import { z } from 'zod'\`.`);
}
