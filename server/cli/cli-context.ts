import { InvalidArgumentError } from 'commander';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import type { Sealer } from '../secrets/sealer.js';
import { dataDirectoryFiles, defaultDataDirectory } from '../store/engine/data-directory.js';
import type { Store, StoreOptions } from '../store/store.js';

/** A mistake in how a command was called: printed without a stack, exit code 2. */
export class UsageError extends Error {}

/** The data directory a command works on: `--data-dir`, else the default of DESIGN section 7. */
export function resolveDataDir(option: string | undefined): string {
  return option ?? defaultDataDirectory();
}

/**
 * The data directory `argv` names with `--data-dir`, read before commander parses it (to read
 * the store ahead while the command's modules load); commander's parse is the one that counts.
 */
export function dataDirArgument(argv: readonly string[]): string | undefined {
  let dataDir: string | undefined;
  for (let i = 0; i < argv.length && argv[i] !== '--'; i++) {
    if (argv[i] === '--data-dir') dataDir = argv[++i];
    else if (argv[i]!.startsWith('--data-dir=')) dataDir = argv[i]!.slice('--data-dir='.length);
  }
  return dataDir;
}

/** The headless sealer of a data directory. */
export function headlessSealer(dataDir: string): Sealer {
  return keyFileSealer(dataDirectoryFiles(dataDir).sealingKey);
}

/**
 * Runs `work` on the store of a data directory, closing it (and its lock) afterwards. The store
 * (with the schemas it loads) is imported here, when a command runs, so that the command line
 * starts without it. A command that writes reads the pages it uses, not the whole file (a new key
 * reads a few pages, whatever the file's size).
 */
export async function withStore<T>(
  dataDir: string,
  options: Omit<StoreOptions, 'dataDir'> & { command: string },
  work: (store: Store) => Promise<T> | T,
): Promise<T> {
  const { Store } = await import('../store/store.js');
  const store = await Store.open({ dataDir, pagesOnDemand: true, ...options });
  try {
    return await work(store);
  } finally {
    store.close();
  }
}

/** Parses a whole number option, refusing anything else with the option's name. */
export function parseWholeNumber(name: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}`);
    }
    return Number(value);
  };
}

/** Prints rows under a header, each column as wide as its widest cell. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
}
