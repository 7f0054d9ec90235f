import { Command, CommanderError } from 'commander';
import { DataDirectoryLockedError } from './store/engine/data-directory-lock.js';
import { OrganizationInputError } from './organizations/manage-organizations.js';
import { UsageError, dataDirArgument, resolveDataDir } from './cli/cli-context.js';
import { dropReadsAhead, readDatabaseFileAhead } from './store/engine/database-file.js';
import { dataDirectoryFiles } from './store/engine/data-directory.js';
import { withLoopAlive } from './cli/with-loop-alive.js';
import { keepHeapSmall } from './cli/command-heap.js';
import { productVersion } from './package-root.js';

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
  'console-url': async () => (await import('./cli/commands/console-url.js')).registerConsoleUrlCommand,
  sessions: async () => (await import('./cli/commands/sessions.js')).registerSessionsCommands,
  intel: async () => (await import('./cli/commands/intel.js')).registerIntelCommands,
  plan: async () => (await import('./cli/commands/plan.js')).registerPlanCommands,
  'fix-by': async () => (await import('./cli/commands/fix-by.js')).registerFixByCommands,
  views: async () => (await import('./cli/commands/views.js')).registerViewsCommands,
  report: async () => (await import('./cli/commands/report.js')).registerReportCommand,
};

/**
 * Whether `argv` reads the data directory's store whole, without its lock (`orgs list`, `orgs
 * cert`): it is read while the command's modules load. Commands that write read the pages they
 * use when they use them (cli-context.ts); `serve` reads ahead in its own thread.
 */
const readsStoreWhole = (argv: string[]) => argv[0] === 'orgs' && (argv[1] === 'list' || argv[1] === 'cert');

/** Whether `argv` asks only for the version, which needs no command's modules. */
const asksVersionOnly = (argv: string[]) => argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V');

/**
 * The `remediation-console` command line of DESIGN section 7. With `argv`, only the command it
 * names is registered when it names one, none when it asks for the version only; otherwise
 * (help, a mistake) all are, for the listing.
 */
export async function buildProgram(argv: string[] = []): Promise<Command> {
  const program = new Command('remediation-console')
    .description('Remediation Console: the Remediation Inventory v1 API and console on a local replica')
    .version(productVersion(), '-V, --version', 'print the version')
    .showHelpAfterError()
    .exitOverride();
  const named = argv[0] !== undefined && Object.hasOwn(commands, argv[0]) ? [argv[0]] : asksVersionOnly(argv) ? [] : Object.keys(commands);
  // A module may register several commands (agent-config and verify): each registers once.
  for (const register of new Set(await Promise.all(named.map((name) => commands[name]!())))) register(program);
  return program;
}

/** Runs the command line; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  // Before the command's modules load, whose allocations would grow the young generation first.
  if (argv[0] !== 'serve') keepHeapSmall();
  // Help asks for no store.
  if (readsStoreWhole(argv) && !argv.includes('--help') && !argv.includes('-h')) {
    readDatabaseFileAhead(dataDirectoryFiles(resolveDataDir(dataDirArgument(argv))).database);
  }
  try {
    await withLoopAlive(async () => (await buildProgram(argv)).parseAsync(argv, { from: 'user' }));
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
