import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// `npm start` (app/launch.mjs) run as a user runs it, with the Electron runtime and npm played by
// scripts that record how they were called.
const launcher = fileURLToPath(new URL('launch.mjs', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const electronPackageDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
const recordedExecutable = (() => {
  const pathFile = path.join(electronPackageDir, 'path.txt');
  return fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : 'electron';
})();

describe('npm start', () => {
  let folder: string;
  let runtimeDir: string;
  let calls: string;
  let fakeNpm: string;

  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'launch-'));
    runtimeDir = path.join(folder, 'electron-dist');
    fs.mkdirSync(runtimeDir);
    calls = path.join(folder, 'calls.log');
    fakeNpm = path.join(folder, 'fake-npm.cjs');
    fs.writeFileSync(
      fakeNpm,
      `require('node:fs').appendFileSync(${JSON.stringify(calls)}, 'npm ' + process.argv.slice(2).join(' ') + ' in ' + process.cwd() + '\\n');`,
    );
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  /** Runs the launcher; with `answer`, at a terminal (util-linux `script`) that answers that. */
  function launch(args: string[], options: { env?: NodeJS.ProcessEnv; answer?: string } = {}) {
    const env = {
      ...process.env,
      ELECTRON_OVERRIDE_DIST_PATH: runtimeDir,
      // The download, should a test reach it, fails at once and leaves the user's cache alone.
      ELECTRON_MIRROR: 'http://127.0.0.1:9/',
      electron_config_cache: path.join(folder, 'cache'),
      npm_execpath: fakeNpm,
      ...options.env,
    };
    if (options.answer === undefined) {
      return spawnSync(process.execPath, [launcher, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    }
    const command = [process.execPath, launcher, ...args].map((word) => `'${word}'`).join(' ');
    return spawnSync('script', ['-qec', command, '/dev/null'], { env, encoding: 'utf8', input: `${options.answer}\n` });
  }

  function installFakeRuntime(exitCode: number): void {
    const executable = path.join(runtimeDir, recordedExecutable);
    fs.mkdirSync(path.dirname(executable), { recursive: true });
    fs.writeFileSync(
      executable,
      `#!/bin/sh\necho "electron $* run-as-node=\${ELECTRON_RUN_AS_NODE:-unset}" >> '${calls}'\nexit ${exitCode}\n`,
      { mode: 0o755 },
    );
  }

  const recordedCalls = () => (fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : []);

  it('says in one line that there is no Electron runtime, why, and what runs instead', () => {
    const run = launch([]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    // The mirror given (a port nothing listens on) is named, and no raw "TypeError: fetch failed".
    expect(lines[0]).toBe(
      'No Electron runtime: it is not installed and its download from http://127.0.0.1:9/ failed: that address could not be reached ' +
        '(no network here, a firewall, or a proxy to go through; ELECTRON_MIRROR names another address to download from). ' +
        'The headless console is the same product in your browser: npm run serve',
    );
    expect(recordedCalls()).toEqual([]);
  });

  it.runIf(process.platform === 'linux')('offers the headless console at a terminal, and starts it when accepted', () => {
    const declined = launch([], { answer: 'n' });
    expect(declined.stdout).toContain('Start the headless console instead? [Y/n]');
    expect(declined.status).toBe(1);
    expect(recordedCalls()).toEqual([]);

    const accepted = launch([], { answer: '' });
    expect(accepted.status).toBe(0);
    expect(recordedCalls()).toEqual([`npm run serve in ${repositoryRoot.replace(/\/$/, '')}`]);
  });

  it('builds, then launches the app in the installed runtime, never as plain Node', () => {
    installFakeRuntime(0);
    const run = launch([], { env: { ELECTRON_RUN_AS_NODE: '1' } });
    expect(run.status).toBe(0);
    expect(recordedCalls()).toEqual([`npm run build in ${repositoryRoot.replace(/\/$/, '')}`, `electron ${repositoryRoot} run-as-node=unset`]);
  });

  it('passes on the exit code of the app, and launches what is built with --no-build', () => {
    installFakeRuntime(3);
    const run = launch(['--no-build']);
    expect(run.status).toBe(3);
    expect(recordedCalls()).toEqual([`electron ${repositoryRoot} run-as-node=unset`]);
  });
});
