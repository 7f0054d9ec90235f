import type { Command } from 'commander';
import { readRemoteTenant, requireOrganization } from '../../organizations/manage-organizations.js';
import { progressPrinter } from '../../sync/progress-printer.js';
import { SyncFailedError } from '../../sync/sync-errors.js';
import { syncOrganization } from '../../sync/sync-organization.js';
import { UsageError, headlessSealer, resolveDataDir, withStore } from '../cli-context.js';

/** `sync`: syncs one replica or all of them from their remote tenants, with a progress bar. */
export function registerSyncCommand(program: Command): void {
  program
    .command('sync')
    .description('sync replica organizations from their remote tenants')
    .option('--org <slug>', 'only this replica (default: all replicas)')
    .option('--full', 'a full sync even where an incremental one would do')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { org?: string; full?: boolean; dataDir?: string }) => {
      const dataDir = resolveDataDir(options.dataDir);
      await withStore(dataDir, { command: 'remediation-console sync' }, async (store) => {
        const sealer = headlessSealer(dataDir);
        let organizations = store.organizations.list().filter((organization) => organization.kind === 'replica');
        if (options.org !== undefined) {
          const organization = requireOrganization(store, options.org);
          if (organization.kind !== 'replica') throw new UsageError(`"${options.org}" is a local organization; only replicas sync`);
          organizations = [organization];
        }
        if (organizations.length === 0) {
          console.log('No replica organizations to sync: connect one with "orgs connect".');
          await store.inventories.collect();
          return;
        }
        const failures: string[] = [];
        for (const organization of organizations) {
          const remote = readRemoteTenant(store, sealer, organization);
          const printer = progressPrinter();
          try {
            if (!remote) throw new SyncFailedError(`"${organization.slug}" has no remote tenant connected`);
            const report = await syncOrganization(store, organization, remote, { full: options.full, onProgress: printer.update });
            printer.done();
            const { counts } = report;
            console.log(
              `Synced "${organization.slug}" (${report.mode}): ${counts.endpoints} endpoints, ${counts.remediationTargets} remediation targets, ` +
                `${counts.scopes} scopes, ${counts.findings} findings` +
                (report.skippedCount > 0 ? `; skipped ${report.skippedCount} invalid records (${report.skippedIds.slice(0, 5).join(', ')})` : '') +
                '.',
            );
          } catch (error) {
            printer.done();
            if (!(error instanceof SyncFailedError)) throw error;
            failures.push(`sync of "${organization.slug}" failed: ${error.message}`);
          }
        }
        // The inventories the full syncs replaced, what failed ones staged, and what an earlier
        // process left: a chunk per write, before the store closes.
        await store.inventories.collect();
        if (failures.length > 0) throw new SyncFailedError(failures.join('\n'));
      });
    });
}
