import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the product's package.json, found from this module whether it runs from
 * `server/` (tests, tsx) or from `dist/server/` (the built CLI and the desktop app).
 */
export function packageRoot(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(folder, 'package.json'))) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error('package.json of remediation-console not found');
    folder = parent;
  }
  return folder;
}

/** The product's version, as package.json gives it: what `--version` prints and a report's footer names. */
export function productVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
