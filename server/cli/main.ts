import { Command, CommanderError } from 'commander';
import { DataDirectoryLockedError } from '../store/data-directory.js';
import { OrganizationInputError } from '../organizations/manage-organizations.js';
import { UsageError } from './cli-context.js';
import { registerAgentConfigCommands } from './commands/agent-config.js';
import { registerKeysCommands } from './commands/keys.js';
import { registerOrgsCommands } from './commands/orgs.js';
import { registerSeedCommand } from './commands/seed.js';
import { registerServeCommand } from './commands/serve.js';
import { registerSyncCommand } from './commands/sync.js';

/** The `remediation-console` command line of DESIGN section 7. */
export function buildProgram(): Command {
  const program = new Command('remediation-console')
    .description('Remediation Console: the Remediation Inventory v1 API and console on a local replica')
    .showHelpAfterError()
    .exitOverride();
  registerServeCommand(program);
  registerOrgsCommands(program);
  registerKeysCommands(program);
  registerSeedCommand(program);
  registerAgentConfigCommands(program);
  registerSyncCommand(program);
  return program;
}

/** Runs the command line; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
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
  }
}
