import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * How to start a worker thread whose entry is `entry` (a `.js` file) beside the module at `from`
 * (its `import.meta.url`): the built entry (dist/, app.asar, the command line's bundle), or, when
 * that module runs from the TypeScript sources (tests, tsx), the source entry, which the worker
 * compiles with tsx as it loads it. tsx's ES module API is found from its package's exports:
 * vitest's module runner, which loads its global setup, has no `import.meta.resolve`. Answers what
 * `new Worker(script, { eval })` takes.
 */
export function threadScript(entry: URL, from: string): [script: URL | string, evaluate: boolean] {
  if (!from.endsWith('.ts')) return [entry, false];
  const require = createRequire(from);
  const { exports } = require('tsx/package.json') as { exports: { './esm/api': { import: { default: string } } } };
  const tsx = new URL(exports['./esm/api'].import.default, pathToFileURL(require.resolve('tsx/package.json'))).href;
  const source = entry.href.replace(/\.js$/, '.ts');
  return [`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`, true];
}
