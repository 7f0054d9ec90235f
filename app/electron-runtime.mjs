import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const installTimeoutMinutes = 15;

function electronPackageDir() {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return undefined;
  }
}

/**
 * The path of the installed Electron executable, or undefined when there is none. It reads what
 * the `electron` package recorded at install (path.txt, honouring ELECTRON_OVERRIDE_DIST_PATH as
 * the package does) instead of calling `require('electron')`, which tries to download a missing
 * binary before it fails.
 *
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string | undefined}
 */
export function findElectronRuntime(env = process.env) {
  const packageDir = electronPackageDir();
  if (!packageDir) return undefined;
  const pathFile = path.join(packageDir, 'path.txt');
  const recorded = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : undefined;
  const executable = recorded ?? (env.ELECTRON_OVERRIDE_DIST_PATH ? 'electron' : undefined);
  if (!executable) return undefined;
  const candidate = path.join(env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(packageDir, 'dist'), executable);
  return fs.existsSync(candidate) ? candidate : undefined;
}

/**
 * Installs the Electron runtime with the `electron` package's own installer (a download of the
 * whole runtime, cached by it), which npm does not run: package.json's allowScripts leaves it out so
 * that `npm ci` succeeds where the download is impossible.
 *
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {{ installed: true, executable: string } | { installed: false, reason: string }}
 */
export function installElectronRuntime(env = process.env) {
  const packageDir = electronPackageDir();
  if (!packageDir) return { installed: false, reason: 'the electron package is not installed (run npm ci)' };
  const install = spawnSync(process.execPath, [path.join(packageDir, 'install.js')], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    // A network that drops packets would otherwise leave `npm start` waiting for ever.
    timeout: installTimeoutMinutes * 60_000,
  });
  const executable = install.status === 0 ? findElectronRuntime(env) : undefined;
  if (executable) return { installed: true, executable };
  return { installed: false, reason: `its download from ${downloadAddress(env)} failed: ${failureOf(install)}` };
}

// Where @electron/get downloads the runtime from: a mirror named in the environment (by the
// variables it reads, ELECTRON_MIRROR the documented one), else Electron's GitHub releases.
function downloadAddress(env) {
  return env.npm_config_electron_mirror || env.NPM_CONFIG_ELECTRON_MIRROR || env.npm_package_config_electron_mirror || env.ELECTRON_MIRROR || 'https://github.com/electron/electron/releases/download/';
}

// The installer prints a stack trace: its first line says what went wrong. Node's fetch says only
// "TypeError: fetch failed" when no connection could be made, which is put in words.
function failureOf(install) {
  if (install.error?.code === 'ETIMEDOUT') return `it did not finish within ${installTimeoutMinutes} minutes`;
  if (install.error) return install.error.message;
  const firstLine = (install.stderr ?? '').split('\n').find((line) => line.trim() !== '')?.trim();
  if (firstLine === 'TypeError: fetch failed') {
    return 'that address could not be reached (no network here, a firewall, or a proxy to go through; ELECTRON_MIRROR names another address to download from)';
  }
  return firstLine ?? `the installer exited with ${install.status ?? install.signal}`;
}
