import type { Command } from 'commander';
import { readRemoteTenant, requireOrganization } from '../../organizations/manage-organizations.js';
import { progressPrinter } from '../../sync/progress-printer.js';
import { SyncFailedError } from '../../sync/sync-errors.js';
import { syncOrganization } from '../../sync/sync-organization.js';
import { commandLineSyncPolicy, commandLineWriteMs } from '../../sync/sync-policy.js';
import { UsageError, headlessSealer, resolveDataDir, withStore } from '../cli-context.js';
import type { SyncCountDifference } from '../../../contracts/console/sync.js';
import { syncCountChecks } from '../../../contracts/console/sync-basics.js';
import { counted } from '../../../contracts/figure-text.js';
import type { SyncChanges } from '../../../contracts/console/sync-changes.js';

/** A count and its noun in plain digits, as scripts read the sync's summary line (bench/writes-bench.ts). */
const plainCount = (count: number, noun: string) => counted(count, noun, undefined, String);

/**
 * A failed sync's message with since when syncs have failed put after its first sentence (what
 * failed and what to do), before its detail line: the last success, as the console words it.
 */
function withFailingSince(message: string, lastSuccessAt: string | null): string {
  const [sentence, ...detail] = message.split('\n');
  const since = lastSuccessAt === null ? 'No sync has succeeded yet.' : `No sync has succeeded since ${lastSuccessAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}.`;
  return [sentence, since, ...detail].join('\n');
}

/** Totals that differed, in words: "open findings 16,080 on the remote, 16,433 here". */
function describeDifferences(differences: SyncCountDifference[]): string {
  return differences
    .map((difference) => `${syncCountChecks.find((check) => check.id === difference.check)!.label} ${difference.remote} on the remote, ${difference.replica} here`)
    .join('; ');
}

/** What a reconcile changed, in words; nothing when its record is absent (it found the replica equal). */
function describeReconcile(changes: SyncChanges | undefined): string {
  if (!changes) return 'The replica matched its remote: nothing written.';
  const parts = Object.entries(changes.counts).map(([collection, c]) => `${collection} ${c.created} added, ${c.updated} changed, ${c.removed} removed`);
  return `The reconcile wrote the differences: ${parts.join('; ')}.`;
}

/** A replica's recorded syncs, a line each: id, when it finished, its mode, and whether a report's delta can start before it. */
function recordedSyncs(syncs: readonly SyncChanges[]): string {
  if (syncs.length === 0) return 'No sync of this replica changed anything yet.';
  return syncs
    .map((sync) => `${sync.id}\t${sync.finishedAt}\t${sync.mode}${sync.firstSync ? ' (first)' : ''}${sync.findingsKept ? '' : '\tfindings not kept: no report delta across it'}`)
    .join('\n');
}

/** `sync`: syncs one replica or all of them from their remote tenants, with a progress bar. */
export function registerSyncCommand(program: Command): void {
  program
    .command('sync')
    .description('sync replica organizations from their remote tenants')
    .option('--org <slug>', 'only this replica, even if its syncs are paused (default: all replicas whose syncs are not paused)')
    .option('--full', 'a full sync even where an incremental one would do')
    .option('--reconcile', 'compare each replica with its whole remote item by item and write only the differences')
    .option('--list', "list the --org replica's recorded syncs instead of syncing, newest first: their ids are what report --since-sync and --until-sync take")
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { org?: string; full?: boolean; reconcile?: boolean; list?: boolean; dataDir?: string }) => {
      if (options.full && options.reconcile) throw new UsageError('--full and --reconcile cannot be given together');
      if (options.list && (options.org === undefined || options.full || options.reconcile)) throw new UsageError('--list needs --org, and neither --full nor --reconcile');
      const dataDir = resolveDataDir(options.dataDir);
      await withStore(dataDir, { command: 'remediation-console sync' }, async (store) => {
        if (options.list) {
          console.log(recordedSyncs(store.syncChanges.list(requireOrganization(store, options.org!).rowId)));
          return;
        }
        const sealer = headlessSealer(dataDir);
        let organizations = store.organizations.list().filter((organization) => organization.kind === 'replica');
        if (options.org !== undefined) {
          const organization = requireOrganization(store, options.org);
          if (organization.kind !== 'replica') throw new UsageError(`"${options.org}" is a local organization; only replicas sync`);
          organizations = [organization];
        } else {
          const paused = organizations.filter((organization) => store.sync.get(organization.rowId).paused);
          for (const organization of paused) console.log(`Skipped "${organization.slug}": its syncs are paused (resume them with "remediation-console orgs resume --slug ${organization.slug}").`);
          organizations = organizations.filter((organization) => !paused.includes(organization));
        }
        if (organizations.length === 0) {
          console.log('No replica organizations to sync: connect one with "orgs connect".');
          await store.inventories.collect(commandLineWriteMs);
          return;
        }
        const failures: string[] = [];
        for (const organization of organizations) {
          const remote = readRemoteTenant(store, sealer, organization);
          const printer = progressPrinter();
          try {
            if (!remote) throw new SyncFailedError(`"${organization.slug}" has no remote tenant connected`);
            const report = await syncOrganization(store, organization, remote, {
              full: options.full,
              reconcile: options.reconcile,
              policy: commandLineSyncPolicy,
              onProgress: printer.update,
            });
            printer.done();
            const { counts } = report;
            if (report.countDifferences) console.log(`The replica's totals differed from the remote's (${describeDifferences(report.countDifferences)}): reconciled.`);
            console.log(
              `Synced "${organization.slug}" (${report.mode}): ${plainCount(counts.endpoints, 'endpoint')}, ${plainCount(counts.remediationTargets, 'remediation target')}, ` +
                `${plainCount(counts.scopes, 'scope')}, ${plainCount(counts.findings, 'finding')}` +
                (report.skippedCount > 0 ? `; skipped ${plainCount(report.skippedCount, 'invalid record')} (${report.skippedIds.slice(0, 5).join(', ')})` : '') +
                '.',
            );
            if (report.changes) console.log(`Recorded as sync ${report.changes.id}.`);
            if (report.mode === 'reconcile') console.log(describeReconcile(report.changes ? store.syncChanges.get(organization.rowId, report.changes.id) : undefined));
          } catch (error) {
            printer.done();
            if (!(error instanceof SyncFailedError)) throw error;
            failures.push(`sync of "${organization.slug}" failed: ${withFailingSince(error.message, store.sync.get(organization.rowId).lastSuccessAt)}`);
          }
        }
        // The inventories the full syncs replaced, what failed ones staged, and what an earlier
        // process left: a chunk per write, before the store closes.
        await store.inventories.collect(commandLineWriteMs);
        if (failures.length > 0) throw new SyncFailedError(failures.join('\n'));
      });
    });
}
