import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const supportFolder = path.dirname(fileURLToPath(import.meta.url));

/**
 * Runs `script`, a file of this folder, in a node child through tsx (`nodeFlags` before it, such
 * as `--expose-gc`), and answers the JSON of the last line it prints: what a test measures in a
 * process of its own, whose heap, flags and timers no other test shares.
 */
export function lastJsonOfChild<T>(script: string, { args = [], nodeFlags = [], timeoutMs = 60_000 }: { args?: string[]; nodeFlags?: string[]; timeoutMs?: number } = {}): T {
  const output = execFileSync(process.execPath, [...nodeFlags, '--import', 'tsx', path.join(supportFolder, script), ...args], { encoding: 'utf8', timeout: timeoutMs });
  return JSON.parse(output.trim().split('\n').pop()!) as T;
}
