import fs from 'node:fs';
import readline from 'node:readline/promises';
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
 * reads a few pages, whatever the file's size), and first sweeps the report appendices and findings parts
 * whose report is not kept (report-appendix.ts), as `serve` does at its start.
 */
export async function withStore<T>(
  dataDir: string,
  options: Omit<StoreOptions, 'dataDir'> & { command: string },
  work: (store: Store) => Promise<T> | T,
): Promise<T> {
  const { Store } = await import('../store/store.js');
  const store = await Store.open({ dataDir, pagesOnDemand: true, holdWithoutBound: true, temporaryInMemory: true, ...options });
  try {
    if (!options.readOnly) {
      const { sweepUnkeptReports } = await import('../reports/report-appendix.js');
      sweepUnkeptReports(store, dataDirectoryFiles(dataDir).reportAppendices);
    }
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

/** Why a file could not be read or written, in words (Node's message leads with a code such as ENOENT). */
export function fileProblem(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'there is no such file (check the path; a relative one starts from the current folder)';
    case 'ENOTDIR':
      return 'a part of its path is a file, not a folder';
    case 'EISDIR':
      return 'it is a folder, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied (its owner or mode does not let this user)';
    case 'EEXIST':
      return 'a file of that name was made at the same moment';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/** The bytes of a file a command was given (`what` names it: its option or argument), or a usage error saying why not. */
export function readGivenFile(file: string, what: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    throw new UsageError(`Cannot read ${what} ${file}: ${fileProblem(error)}`);
  }
}

/**
 * Asks a yes-or-no question at the terminal: true for "y" or "yes", false for anything else
 * (Ctrl-C and Ctrl-D included); undefined without a terminal to ask at (a script, a pipe).
 */
export async function confirmAtTerminal(question: string): Promise<boolean | undefined> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  const prompt = readline.createInterface({ input: process.stdin, output: process.stderr });
  // Without a listener, Ctrl-C at the prompt would only pause the input; here it answers no.
  prompt.on('SIGINT', () => prompt.close());
  try {
    const answer = await new Promise<string>((resolve) => {
      prompt.once('close', () => resolve(''));
      prompt.question(question).then(resolve, () => resolve(''));
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}
