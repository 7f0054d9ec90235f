import { createRequire } from 'node:module';
import initSqlJs, { type SqlJsStatic } from 'sql.js';

const require = createRequire(import.meta.url);
let loading: Promise<SqlJsStatic> | undefined;

/** Loads the sql.js WebAssembly module once per process. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= initSqlJs({ locateFile: (file: string) => require.resolve(`sql.js/dist/${file}`) });
  return loading;
}
