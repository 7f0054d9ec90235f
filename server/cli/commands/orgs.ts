import type { Command } from 'commander';
import { createLocalOrganization, removeOrganization } from '../../organizations/manage-organizations.js';
import { headlessSealer, resolveDataDir, withStore } from '../cli-context.js';

/** `orgs ...`: the organizations of the data directory. */
export function registerOrgsCommands(program: Command): void {
  const orgs = program.command('orgs').description('organizations of the data directory');

  orgs
    .command('list')
    .description('list the organizations')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { dataDir?: string }) => {
      await withStore(resolveDataDir(options.dataDir), { readOnly: true, command: 'orgs list' }, (store) => {
        const rows = store.organizations.list();
        if (rows.length === 0) {
          console.log('No organizations yet.');
          return;
        }
        const table = rows.map((o) => [o.slug, o.kind + (o.isDemo ? ' (demo)' : ''), o.name, o.remoteUrl ?? '', o.id]);
        const header = ['SLUG', 'KIND', 'NAME', 'REMOTE', 'ID'];
        const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
        for (const row of [header, ...table]) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
      });
    });

  orgs
    .command('create')
    .description('create a local organization (with a generated enrollment secret unless told otherwise)')
    .requiredOption('--slug <slug>', 'short name, e.g. acme')
    .requiredOption('--name <name>', 'display name')
    .option('--no-enrollment-secret', 'create it without an enrollment secret')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { slug: string; name: string; enrollmentSecret: boolean; dataDir?: string }) => {
      const dataDir = resolveDataDir(options.dataDir);
      await withStore(dataDir, { command: 'remediation-console orgs create' }, async (store) => {
        const organization = await createLocalOrganization(store, headlessSealer(dataDir), options);
        console.log(`Created organization "${organization.slug}" (${organization.id}).`);
      });
    });

  orgs
    .command('remove')
    .description('remove an organization with all its data and keys')
    .requiredOption('--slug <slug>', 'the organization')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { slug: string; dataDir?: string }) => {
      await withStore(resolveDataDir(options.dataDir), { command: 'remediation-console orgs remove' }, (store) => {
        removeOrganization(store, options.slug);
        console.log(`Removed organization "${options.slug}".`);
      });
    });
}
