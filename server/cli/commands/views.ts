import fs from 'node:fs';
import type { Command } from 'commander';
import { savedViewLimits } from '../../../contracts/console/saved-view-basics.js';
import { savedViewsFileOf, savedViewsFileSchema } from '../../../contracts/saved-views.js';
import { requireOrganization } from '../../organizations/manage-organizations.js';
import { SavedViewConflictError } from '../../store/records/saved-view-records.js';
import { UsageError, fileProblem, printTable, readGivenFile, resolveDataDir, withStore } from '../cli-context.js';

/**
 * `views list`, `views export` and `views import`: an organization's saved views (a console
 * view's filters under a name), listed, written as the file /app's exportSavedViews writes, and
 * such a file imported as importSavedViews imports it (all of it or nothing).
 */
export function registerViewsCommands(program: Command): void {
  const views = program.command('views').description("an organization's saved views: list them, export them as a file, import one");
  views
    .command('list')
    .description('the saved views: name, view and filters, by name')
    .requiredOption('--org <slug>', 'the organization')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { org: string; dataDir?: string }) => {
      await withStore(resolveDataDir(options.dataDir), { readOnly: true, command: 'remediation-console views list' }, (store) => {
        const organization = requireOrganization(store, options.org);
        const listed = store.savedViews.list(organization.rowId);
        if (listed.length === 0) return console.log(`${organization.slug} has no saved views.`);
        printTable(
          ['NAME', 'VIEW', 'FILTERS', 'ID'],
          listed.map((view) => [view.name, view.view, view.query || '(none)', view.id]),
        );
      });
    });
  views
    .command('export')
    .description('write the saved views (or one, by --id) as a JSON file that `views import` and the console take')
    .requiredOption('--org <slug>', 'the organization')
    .option('--id <id>', 'only the view of this id')
    .option('--out <file>', 'write to this file rather than standard output')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { org: string; id?: string; out?: string; dataDir?: string }) => {
      await withStore(resolveDataDir(options.dataDir), { readOnly: true, command: 'remediation-console views export' }, (store) => {
        const organization = requireOrganization(store, options.org);
        const one = options.id === undefined ? undefined : store.savedViews.get(organization.rowId, options.id);
        if (options.id !== undefined && !one) throw new UsageError(`${organization.slug} has no saved view ${options.id}`);
        const chosen = one ? [one] : store.savedViews.list(organization.rowId);
        const text = `${JSON.stringify(savedViewsFileOf(organization, chosen, new Date(store.now()).toISOString()), null, 2)}\n`;
        if (options.out === undefined) return void process.stdout.write(text);
        try {
          fs.writeFileSync(options.out, text);
        } catch (error) {
          throw new UsageError(`Cannot write --out ${options.out}: ${fileProblem(error)}`);
        }
        console.error(`${options.out}: ${chosen.length} saved views`);
      });
    });
  views
    .command('import')
    .description('import a saved views file, all or nothing: a view refused, or a name the organization has, imports none')
    .argument('<file>', 'the saved views file')
    .requiredOption('--org <slug>', 'the organization')
    .option('--data-dir <dir>', 'data directory')
    .action(async (file: string, options: { org: string; dataDir?: string }) => {
      const bytes = readGivenFile(file, 'the file');
      if (bytes.length > savedViewLimits.fileBytes) throw new UsageError(`${file} is larger than ${savedViewLimits.fileBytes / 1024 / 1024} MB: nothing was imported.`);
      let json: unknown;
      try {
        json = JSON.parse(bytes.toString('utf8'));
      } catch {
        throw new UsageError(`${file} is not JSON: nothing was imported.`);
      }
      const parsed = savedViewsFileSchema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new UsageError(`${file}: ${issue.path.join('.') || 'the file'}: ${issue.message}. Nothing was imported.`);
      }
      await withStore(resolveDataDir(options.dataDir), { command: 'remediation-console views import' }, (store) => {
        const organization = requireOrganization(store, options.org);
        try {
          const made = store.savedViews.create(organization.rowId, parsed.data.views);
          console.log(`${file}: ${made.length} saved views imported into ${organization.slug}`);
        } catch (error) {
          if (error instanceof SavedViewConflictError) throw new UsageError(`${file}: ${error.message}. Nothing was imported.`);
          throw error;
        }
      });
    });
}
