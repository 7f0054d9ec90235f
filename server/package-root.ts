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
