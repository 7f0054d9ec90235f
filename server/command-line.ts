import { Command, CommanderError } from 'commander';
import { DataDirectoryLockedError } from './store/data-directory-lock.js';
import { OrganizationInputError } from './organizations/manage-organizations.js';
import { UsageError, dataDirArgument, resolveDataDir } from './cli/cli-context.js';
import { dropReadsAhead, readDatabaseFileAhead } from './store/database-file.js';
import { dataDirectoryFiles } from './store/data-directory.js';

type Register = (program: Command) => void;

/**
 * The commands by name, each loaded only when needed: `serve` then starts without the modules
 * of agent configuration files, `seed` without those of the server. The commands that work on a
 * data directory are in cli/; `serve` starts the whole server, so it and this entry sit with the
 * other composition modules above cli/ and http/.
 */
const commands: Record<string, () => Promise<Register>> = {
  serve: async () => (await import('./serve-command.js')).registerServeCommand,
  orgs: async () => (await import('./cli/commands/orgs.js')).registerOrgsCommands,
  keys: async () => (await import('./cli/commands/keys.js')).registerKeysCommands,
  seed: async () => (await import('./cli/commands/seed.js')).registerSeedCommand,
  'agent-config': async () => (await import('./cli/commands/agent-config.js')).registerAgentConfigCommands,
  verify: async () => (await import('./cli/commands/agent-config.js')).registerAgentConfigCommands,
  sync: async () => (await import('./cli/commands/sync.js')).registerSyncCommand,
};

/** The commands that open the data directory's store (`serve` reads it ahead in its own thread). */
const storeCommands = new Set(['orgs', 'keys', 'sync']);

/**
 * The `remediation-console` command line of DESIGN section 7. With `argv`, only the command it
 * names is registered when it names one; otherwise (help, a mistake) all are, for the listing.
 */
export async function buildProgram(argv: string[] = []): Promise<Command> {
  const program = new Command('remediation-console')
    .description('Remediation Console: the Remediation Inventory v1 API and console on a local replica')
    .showHelpAfterError()
    .exitOverride();
  const named = argv[0] !== undefined && Object.hasOwn(commands, argv[0]) ? [argv[0]] : Object.keys(commands);
  // A module may register several commands (agent-config and verify): each registers once.
  for (const register of new Set(await Promise.all(named.map((name) => commands[name]!())))) register(program);
  return program;
}

/** Runs the command line; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  // The store's file is read while the command's modules load (on `large`, ~0.3 s of the ~1 s
  // of a sync that finds nothing new); help asks for no store.
  if (storeCommands.has(argv[0] ?? '') && !argv.includes('--help') && !argv.includes('-h')) {
    readDatabaseFileAhead(dataDirectoryFiles(resolveDataDir(dataDirArgument(argv))).database);
  }
  try {
    await (await buildProgram(argv)).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof UsageError || error instanceof OrganizationInputError) {
      console.error(`error: ${error.message}`);
      return 2;
    }
    if (error instanceof DataDirectoryLockedError) {
      console.error(`error: ${error.message}`);
      return 1;
    }
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    dropReadsAhead();
  }
}
