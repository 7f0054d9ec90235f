import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Electron's main process does native things only (docs/decisions/the-servers-process/the-server-runs-in-a-worker-thread.md, "The server runs in a
// worker thread"): the store, its SQL and the in-thread server run in the server's worker
// thread. This walks what the main process loads, from app/main.ts, as the compiler emits it
// (so that `import type` and type-only names, which load nothing, do not count, and
// `import { type X }`, which still loads its module, does).
const repositoryRoot = path.resolve(import.meta.dirname, '..');

/** The modules a source file loads when it runs: its emitted imports, re-exports and `import()`s. */
function loadedSpecifiers(file: string): string[] {
  const emitted = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
    fileName: file,
    compilerOptions: { module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  }).outputText;
  return ts.preProcessFile(emitted, true, true).importedFiles.map((imported) => imported.fileName);
}

/** Every source file and package the main process loads from `entry`, as repository paths and package names. */
function loadedBy(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    const relative = path.relative(repositoryRoot, file);
    if (files.has(relative)) return;
    files.add(relative);
    for (const specifier of loadedSpecifiers(file)) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
        continue;
      }
      const target = path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts');
      if (!fs.existsSync(target)) throw new Error(`${relative} imports ${specifier}, which has no source`);
      visit(target);
    }
  };
  visit(path.join(repositoryRoot, entry));
  return { files, packages };
}

describe("the Electron main process's modules", () => {
  const { files, packages } = loadedBy('app/main.ts');

  it('start the server through its worker thread, and not the server itself', () => {
    expect(files).toContain('server/start-console-server-worker.ts');
    expect(files).not.toContain('server/start-console-server.ts');
    expect(files).not.toContain('server/console-server-worker.ts');
  });

  it('load no store and nothing that runs SQL: of server/store/ only the data directory’s paths, file helpers and lock', () => {
    expect([...files].filter((file) => file.startsWith('server/store/'))).toEqual([
      'server/store/engine/data-directory.ts',
      'server/store/engine/file-steps.ts',
      'server/store/engine/engine-files.ts',
      'server/store/engine/data-directory-lock.ts',
    ]);
    expect(packages).not.toContain('sql.js');
  });
});
