import type { Command } from 'commander';
import { requireOrganization } from '../../organizations/manage-organizations.js';
import { resolveDataDir, withStore } from '../cli-context.js';

/** `keys create`: a new local API key of an organization, printed alone on one line. */
export function registerKeysCommands(program: Command): void {
  const keys = program.command('keys').description("local API keys of an organization's loopback API");
  keys
    .command('create')
    .description('create a local API key and print it alone on one line (it is not shown again)')
    .requiredOption('--org <slug>', 'the organization')
    .option('--label <label>', 'what the key is for')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { org: string; label?: string; dataDir?: string }) => {
      await withStore(resolveDataDir(options.dataDir), { command: 'remediation-console keys create' }, (store) => {
        const organization = requireOrganization(store, options.org);
        const { key } = store.apiKeys.create(organization.rowId, options.label ?? null);
        console.log(key);
      });
    });
}
