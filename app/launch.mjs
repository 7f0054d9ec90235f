#!/usr/bin/env node
// `npm start`: launches the built desktop app in the installed Electron runtime. With --check
// it only checks that a runtime exists, so that `npm start` says so before spending a build.
// Where there is none it says so in one line and fails: it never pretends to have started.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { findElectronRuntime, noElectronRuntime } from './electron-runtime.mjs';

const electron = findElectronRuntime();
if (!electron) {
  console.error(noElectronRuntime);
  process.exit(1);
}
if (process.argv.includes('--check')) process.exit(0);

const env = { ...process.env };
// Set in the environment, it would make Electron a plain Node and ignore the app.
delete env.ELECTRON_RUN_AS_NODE;
const child = spawn(electron, [fileURLToPath(new URL('..', import.meta.url))], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
