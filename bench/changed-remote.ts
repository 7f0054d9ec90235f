/**
 * A remote whose inventory changed: the generated dataset a seeded data directory holds, dated
 * from today as `seed` dated it, with 1 % of each collection changed at each residue given
 * (`changeOnePercent`), served by the fake remote on a port of the caller's choice, in a process
 * of its own. The `waits` section measures `/health` from its own process while a replica syncs
 * from it: a remote in that process would answer its pages on the thread that times the pings.
 * `serve` has no way to change its inventory, so this one takes the place of a `serve` remote.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DatasetSize } from '../contracts/inventory.js';
import { generateInventory } from '../server/demo/index.js';
import { startFakeRemote } from '../server/test/support/fake-remote.js';
import { changeOnePercent, warmFakeRemote } from './sync-bench.js';
import { stop } from './support.js';

/** What the changed remote serves and where. */
export interface ChangedRemoteOptions {
  size: DatasetSize;
  seed: number;
  /** The API key it accepts: the seeded organization's. */
  apiKey: string;
  port: number;
  /** The residues of 100 whose items changed, one `changeOnePercent` each, in order. */
  residues: number[];
}

/** Starts the changed remote in a child process; resolves once it listens and has sorted its collections. */
export async function startChangedRemote(options: ChangedRemoteOptions): Promise<{ child: ChildProcess; close(): Promise<void> }> {
  // The same loader as this process (tsx's flags), so that the child runs this TypeScript file.
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the changed remote exited (${code}): ${output}`)));
  });
  return { child, close: () => stop(child) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const options = JSON.parse(process.argv[2]!) as ChangedRemoteOptions;
  const inventory = generateInventory(options.size, options.seed, { dayMs: Date.now() });
  for (const residue of options.residues) changeOnePercent(inventory, residue);
  const fake = await startFakeRemote({ inventory, cacheOrder: true, apiKey: options.apiKey, port: options.port });
  await warmFakeRemote(fake);
  process.once('SIGTERM', () => void fake.close().then(() => process.exit(0)));
  console.log('ready');
}
