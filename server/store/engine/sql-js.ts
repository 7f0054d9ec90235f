import fs from 'node:fs';
import { createRequire } from 'node:module';
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { FileWriteTap, type ProbeDatabase, type WasmImports, type WasmInstance } from './file-write-tap.js';

const require = createRequire(import.meta.url);

/** sql.js with the tap on its file writes (see file-write-tap.ts). */
export interface LoadedSqlJs {
  SQL: SqlJsStatic;
  tap: FileWriteTap;
}

/** `WebAssembly.instantiate`, typed for what is used here (the project compiles without the DOM's types). */
const webAssembly = (globalThis as unknown as { WebAssembly: { instantiate(bytes: Uint8Array, imports: WasmImports): Promise<{ instance: WasmInstance; module: unknown }> } })
  .WebAssembly;
const instantiate = (bytes: Uint8Array, imports: WasmImports) => webAssembly.instantiate(bytes, imports);

let loading: Promise<LoadedSqlJs> | undefined;

/** Loads the sql.js WebAssembly module once per thread, its file writes tapped. */
export function loadSqlJs(): Promise<LoadedSqlJs> {
  loading ??= (async () => {
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
