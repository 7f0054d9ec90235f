import fs from 'node:fs';
import { once } from 'node:events';
import type { Command } from 'commander';
import { type TicketStatusImportResult, workPackageExportQuerySchema } from '../../../contracts/console/work-packages.js';
import { statusMappedByWords, ticketStatusImportBounds } from '../../../contracts/console/work-package-basics.js';
import { requireOrganization } from '../../organizations/manage-organizations.js';
import { exportChunks } from '../../work-packages/export-stream.js';
import { importTicketStatus } from '../../work-packages/import-ticket-status.js';
import { TicketStatusFileError } from '../../work-packages/ticket-status-file.js';
import { UsageError, fileProblem, readGivenFile, resolveDataDir, withStore } from '../cli-context.js';

interface ExportOptions {
  org: string;
  format: string;
  tag?: string;
  criticality?: string;
  osFamily?: string;
  status?: string;
  step?: string;
  out?: string;
  dataDir?: string;
}

/** How a status import mapped a status of the file: `"Deployed" (category Done): done, by Jira's status category, 3 rows`. */
function describeMappedStatus(status: TicketStatusImportResult['statuses'][number]): string {
  const category = status.status_category ? ` (category ${status.status_category})` : '';
  const rows = `${status.rows} row${status.rows === 1 ? '' : 's'}`;
  return `"${status.system_status}"${category}: ${status.status === null ? 'maps to nothing' : `${status.status}, ${statusMappedByWords[status.mapped_by]}`}, ${rows}`;
}

/** The option of a query parameter whose name is not its own (commander's camel case of `--os-family`). */
const optionNames: Record<string, string> = { osFamily: 'os-family' };

/** The export's query from the options, checked by the same schema as /app's exportWorkPackages. */
function exportQuery(options: ExportOptions) {
  const { format, tag, criticality, osFamily, status, step } = options;
  const parsed = workPackageExportQuerySchema.safeParse(Object.fromEntries(Object.entries({ format, tag, criticality, osFamily, status, step }).filter(([, value]) => value !== undefined)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--${optionNames[String(issue.path[0])] ?? String(issue.path[0])} ${issue.message}`);
  }
  return parsed.data;
}

/**
 * `plan export` and `plan import-status`: the remediation plan's steps as work packages for a
 * ticket system, as /app's exportWorkPackages writes them (streamed to a file or standard
 * output), and the tickets' status read back from a Jira or ServiceNow CSV export, as
 * importWorkPackageStatus reads it (all of the file or nothing).
 */
export function registerPlanCommands(program: Command): void {
  const plan = program.command('plan').description("the remediation plan's steps as work packages for IT: export them as tickets, read their status back");
  plan
    .command('export')
    .description('export the plan as tickets: Jira CSV, a ServiceNow import-set CSV or JSON, every step the filters keep')
    .requiredOption('--org <slug>', 'the organization')
    .requiredOption('--format <format>', 'jira, servicenow or json')
    .option('--tag <tag>', "only the findings of the endpoints with this tag, as the plan's filter")
    .option('--criticality <criticality>', 'only the findings of the endpoints of this criticality')
    .option('--os-family <family>', 'only the findings of the endpoints of this OS family: macos, windows or linux')
    .option('--status <status>', 'only the steps of this status: not-ticketed, ticketed, in-progress, done, wont-do, still-vulnerable')
    .option('--step <external-id>', 'only the step of this external id')
    .option('--out <file>', 'write to this file rather than standard output')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: ExportOptions) => {
      const { format, step, ...query } = exportQuery(options);
      await withStore(resolveDataDir(options.dataDir), { readOnly: true, command: 'remediation-console plan export' }, async (store) => {
        const organization = requireOrganization(store, options.org);
        let packages = await store.workPackages.list(organization.rowId, query);
        if (step !== undefined) {
          packages = packages.filter((work) => work.external_id === step);
          if (packages.length === 0) throw new UsageError(`No step of the plan of ${organization.slug} has the external id ${step}`);
        }
        let out: NodeJS.WritableStream = process.stdout;
        if (options.out !== undefined) {
          const file = fs.createWriteStream(options.out);
          await Promise.race([once(file, 'open'), once(file, 'error').then(([error]) => Promise.reject(new UsageError(`Cannot write --out ${options.out}: ${fileProblem(error)}`)))]);
          out = file;
        }
        for await (const chunk of exportChunks(packages, format, { organization: organization.slug, generatedAt: new Date(store.now()).toISOString() })) {
          if (!out.write(chunk)) await once(out, 'drain');
        }
        if (out !== process.stdout) {
          (out as fs.WriteStream).end();
          await once(out, 'finish');
          console.error(`${options.out}: ${packages.length} work packages (${format})`);
        }
      });
    });
  plan
    .command('import-status')
    .description("read the tickets' status back from a Jira or ServiceNow CSV export; a bad file changes nothing")
    .argument('<file>', 'the CSV export')
    .requiredOption('--org <slug>', 'the organization')
    .option('--data-dir <dir>', 'data directory')
    .action(async (file: string, options: { org: string; dataDir?: string }) => {
      const bytes = readGivenFile(file, 'the file');
      if (bytes.length > ticketStatusImportBounds.bytes) throw new UsageError(`${file} is larger than ${ticketStatusImportBounds.bytes / 1024 / 1024} MB: nothing was imported.`);
      await withStore(resolveDataDir(options.dataDir), { command: 'remediation-console plan import-status' }, async (store) => {
        const organization = requireOrganization(store, options.org);
        let result;
        try {
          result = await importTicketStatus(store, organization.rowId, bytes.toString('utf8'));
        } catch (error) {
          if (error instanceof TicketStatusFileError) throw new UsageError(`${file}: ${error.message}. Nothing was imported.`);
          throw error;
        }
        console.log(`${file}: ${result.system} export of ${result.rows} rows: ${result.matched} matched a step, ${result.changed} changed, ${result.unmatched.length} unmatched, ${result.unmapped.length} of a status that maps to nothing`);
        for (const status of result.statuses) console.log(`  status ${describeMappedStatus(status)}`);
        for (const row of result.unmatched) console.log(`  line ${row.line}: ${row.key}${row.external_id ? ` (${row.external_id})` : ''}: ${row.why}`);
        for (const row of result.unmapped) console.log(`  line ${row.line}: ${row.key}: the status "${row.system_status}" maps to nothing: not imported`);
      });
    });
}
