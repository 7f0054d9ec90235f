#!/usr/bin/env node
// `npm start`: the desktop app on its data directory (with the demo organization at first start).
// It finds the Electron runtime, installing it where npm did not (package.json's allowScripts
// keeps electron's download out of `npm ci`, which must work where that download is impossible),
// builds, and launches it. Where no runtime can be had it says so in one line and offers the
// headless console instead: it never pretends to have started.
//
// --no-build launches what is built already.
import { spawn, spawnSync } from 'node:child_process';
import readline from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { findElectronRuntime, installElectronRuntime } from './electron-runtime.mjs';

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY);

const electron = findElectronRuntime() ?? installRuntime();
if (!electron) process.exit(await offerHeadlessConsole());
if (!process.argv.includes('--no-build')) {
  const built = runNpm(['run', 'build']);
  if (built !== 0) process.exit(built);
}

const env = { ...process.env };
// Set in the environment, it would make Electron a plain Node and ignore the app.
delete env.ELECTRON_RUN_AS_NODE;
const child = spawn(electron, [repositoryRoot], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

/** The runtime's path once installed, or undefined after saying why it could not be. */
function installRuntime() {
  // A note while the download runs, erased after it, so that the outcome stays one line.
  if (interactive) process.stderr.write('Downloading the Electron runtime (once)…');
  const outcome = installElectronRuntime();
  if (interactive) process.stderr.write('\r\x1b[K');
  if (outcome.installed) return outcome.executable;
  console.error(
    `No Electron runtime: it is not installed and ${outcome.reason}. The headless console is the same product in your browser: npm run serve`,
  );
  return undefined;
}

/** Runs the headless console if the person at the terminal wants it; the exit code to end with. */
async function offerHeadlessConsole() {
  if (!interactive) return 1;
  const prompt = readline.createInterface({ input: process.stdin, output: process.stderr });
  const answer = (await prompt.question('Start the headless console instead? [Y/n] ')).trim().toLowerCase();
  prompt.close();
  if (answer !== '' && answer !== 'y' && answer !== 'yes') return 1;
  return runNpm(['run', 'serve']);
}

/** Runs npm (the one running this script, where there is one) in the repository; its exit code. */
function runNpm(args) {
  const npmCli = process.env.npm_execpath;
  const options = { stdio: 'inherit', cwd: repositoryRoot };
  const run =
    npmCli && /\.[cm]?js$/.test(npmCli)
      ? spawnSync(process.execPath, [npmCli, ...args], options)
      : spawnSync('npm', args, { ...options, shell: process.platform === 'win32' });
  return run.status ?? 1;
}
