import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** What `npm start` and the Electron e2e tests say where no Electron runtime is installed. */
export const noElectronRuntime =
  'No Electron runtime is installed here (its download is not possible on this machine); run the headless console instead: npm run serve';

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
  let packageDir;
  try {
    packageDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return undefined;
  }
  const pathFile = path.join(packageDir, 'path.txt');
  const recorded = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : undefined;
  const executable = recorded ?? (env.ELECTRON_OVERRIDE_DIST_PATH ? 'electron' : undefined);
  if (!executable) return undefined;
  const candidate = path.join(env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(packageDir, 'dist'), executable);
  return fs.existsSync(candidate) ? candidate : undefined;
}
