import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { maxReportOrganizations, reportTemplates } from '../../../contracts/console/reports.js';
import { requireOrganization } from '../../organizations/manage-organizations.js';
import { makeReport } from '../../reports/make-report.js';
import { ReportFilterError } from '../../reports/report-filter.js';
import { SyncDeltaError } from '../../reports/sync-delta.js';
import { type AppendixFormat, ReportMovedError, appendixPaths, appendixSuffixes } from '../../reports/report-appendix.js';
import { dataDirectoryFiles, writeFileAtomically } from '../../store/engine/data-directory.js';
import { UsageError, fileProblem, headlessSealer, resolveDataDir, withStore } from '../cli-context.js';

/** Copies a kept report's appendix beside `out` (FILE.findings.csv, FILE.findings.json), a file's bytes at a time: answers the files written. */
function copyAppendix(files: Record<AppendixFormat, string>, out: string): string[] {
  return (Object.keys(files) as AppendixFormat[]).map((format) => {
    const target = out + appendixSuffixes[format];
    fs.copyFileSync(files[format], target);
    fs.chmodSync(target, 0o644);
    return target;
  });
}

/** The two syncs of `--since-sync` and `--until-sync`, both or neither, each a record's id. */
function syncsOption(options: { sinceSync?: string; untilSync?: string }): [number, number] | undefined {
  if (options.sinceSync === undefined && options.untilSync === undefined) return undefined;
  if (options.sinceSync === undefined || options.untilSync === undefined) throw new UsageError('Give --since-sync and --until-sync together');
  const id = (name: string, value: string) => {
    if (!/^[1-9]\d{0,14}$/.test(value)) throw new UsageError(`${name} must be a sync's id, a positive whole number`);
    return Number(value);
  };
  return [id('--since-sync', options.sinceSync), id('--until-sync', options.untilSync)];
}

/** `report` makes a signed report of a findings-list filter, keeps it, and writes it with its signature. */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description(
      'make a signed report of a filter of the findings list: FILE (HTML, print it for a PDF) and FILE.p7s (its signature); a technical report also FILE.findings.csv and FILE.findings.json (its appendix)',
    )
    .option('--filter <query>', "the findings list's filters as its URL's query string, e.g. tag=internet-facing&criticality=critical", '')
    .option('--view <name>', "a saved view of the first organization, by name, instead of --filter: its filters, without its sort and status")
    .option('--template <template>', reportTemplates.join(' or '), 'executive')
    .option('--org <slug...>', "the organizations, one section each, the report signed by each one's identity (default: every organization)")
    .option('--since-sync <id>', "compare from this recorded sync of the organization (its id in `sync-changes`), rather than from the previous report; with --until-sync")
    .option('--until-sync <id>', 'compare up to this recorded sync, newer than --since-sync')
    .requiredOption('--out <file>', 'where to write the report; its signature goes to FILE.p7s')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { filter: string; view?: string; template: string; org?: string[]; sinceSync?: string; untilSync?: string; out: string; dataDir?: string }, command: Command) => {
      if (options.view !== undefined && options.filter !== '') throw new UsageError('Give --filter or --view, not both');
      const compareSyncs = syncsOption(options);
      const template = reportTemplates.find((name) => name === options.template);
      if (!template) throw new UsageError(`--template must be one of ${reportTemplates.join(', ')}`);
      const dataDir = resolveDataDir(options.dataDir);
      await withStore(dataDir, { command: 'remediation-console report' }, async (store) => {
        const organizations = options.org ? options.org.map((slug) => requireOrganization(store, slug)) : store.organizations.list();
        if (organizations.length === 0) throw new UsageError('There is no organization to report on');
        if (organizations.length > maxReportOrganizations) {
          throw new UsageError(`A report has at most ${maxReportOrganizations} organizations, a section and a signer each: name them with --org`);
        }
        let report;
        try {
          const source = options.view === undefined ? { filter: options.filter } : { view: options.view };
          report = await makeReport(store, headlessSealer(dataDir), organizations, source, {
            template,
            productVersion: command.parent!.version()!,
            appendixFolder: dataDirectoryFiles(dataDir).reportAppendices,
            compareSyncs,
          });
        } catch (error) {
          if (error instanceof ReportFilterError) throw new UsageError(`${options.view === undefined ? '--filter' : '--view'}: ${error.message}`);
          if (error instanceof SyncDeltaError) throw new UsageError(`--since-sync/--until-sync: ${error.message}`);
          if (error instanceof ReportMovedError) throw new Error(error.message, { cause: error });
          throw error;
        }
        const written = [options.out, `${options.out}.p7s`];
        try {
          writeFileAtomically(options.out, report.html, 0o644);
          writeFileAtomically(`${options.out}.p7s`, report.signature, 0o644);
          if (report.summary.template === 'technical') written.push(...copyAppendix(appendixPaths(dataDirectoryFiles(dataDir).reportAppendices, report.summary.id), options.out));
        } catch (error) {
          throw new Error(`Cannot write --out ${options.out}: ${fileProblem(error)}; the report is kept (${report.summary.id})`, { cause: error });
        }
        console.log(
          [
            `Wrote ${written.map((file) => path.resolve(file)).join(', ')}`,
            `Report ${report.summary.id} of ${report.summary.organizations.join(', ')}, made ${report.summary.created_at}`,
            `Signed by ${report.summary.signer}`,
            `Verify it with: remediation-console verify ${options.out}`,
          ].join('\n'),
        );
      });
    });
}
