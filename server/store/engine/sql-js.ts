import fs from 'node:fs';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import type InitSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';
import { FileWriteTap, type ProbeDatabase, type WasmImports, type WasmInstance } from './file-write-tap.js';

const require = createRequire(import.meta.url);
/**
 * sql.js's CommonJS module, required rather than imported: the ESM loader parses a CommonJS
 * module's whole text for its exports first, about 14 ms of CPU for this one at every start.
 */
const initSqlJs = require('sql.js') as typeof InitSqlJs;

/** sql.js with the tap on its file writes (see file-write-tap.ts). */
export interface LoadedSqlJs {
  SQL: SqlJsStatic;
  tap: FileWriteTap;
}

/** `WebAssembly.instantiate`, typed for what is used here (the project compiles without the DOM's types). */
const webAssembly = (globalThis as unknown as { WebAssembly: { instantiate(bytes: Uint8Array, imports: WasmImports): Promise<{ instance: WasmInstance; module: unknown }> } })
  .WebAssembly;
const instantiate = (bytes: Uint8Array, imports: WasmImports) => webAssembly.instantiate(bytes, imports);

/**
 * How much of a function of SQLite's WebAssembly runs before V8 compiles it again with its
 * optimising compiler, TurboFan (V8's `--wasm-tiering-budget`, a rough count of bytes of code
 * executed; 1.8 million by default). At the default a CLI command's few statements, and the
 * tap's probes, tier up SQLite's largest functions (its statement loop alone is 100 KB of code,
 * 100 to 200 ms of CPU to compile) on a background thread, for a process that ends before the
 * compiled code repays it: about 30 % of `orgs list`'s CPU. A hundred times the default keeps
 * the baseline compiler's code until a function has run for a while (a long command, `serve`
 * under requests), which then tiers up as before
 * (docs/decisions/the-engine-sqljs-on-disk/sqlite-tiers-up-once-it-has-run-a-while.md).
 */
const wasmTieringBudget = 180_000_000;

let loading: Promise<LoadedSqlJs> | undefined;

/** Loads the sql.js WebAssembly module once per thread, its file writes tapped. */
export function loadSqlJs(): Promise<LoadedSqlJs> {
  loading ??= (async () => {
    // Read when the module compiles: set before it does.
    v8.setFlagsFromString(`--wasm-tiering-budget=${wasmTieringBudget}`);
    const tap = new FileWriteTap();
    const wasm = fs.promises.readFile(require.resolve('sql.js/dist/sql-wasm.wasm'));
    const SQL = await initSqlJs({
      instantiateWasm(imports: WasmImports, receive: (instance: WasmInstance, module: unknown) => void) {
        void wasm
          .then((bytes) => instantiate(bytes, tap.wrapImports(imports)))
          .then(({ instance, module }) => {
            tap.attach(instance);
            receive(instance, module);
          });
        // Emscripten's sign that the instance comes later, through `receive`.
        return {};
      },
    } as Parameters<typeof initSqlJs>[0]);
    tap.identify((bytes) => new SQL.Database(bytes) as unknown as ProbeDatabase);
    return { SQL, tap };
  })();
  return loading;
}
