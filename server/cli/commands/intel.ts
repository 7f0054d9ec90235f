import type { Command } from 'commander';
import { type ThreatIntelImport, type ThreatIntelImportAnswer, epssAttribution } from '../../../contracts/console/threat-intel.js';
import { IntelFileError } from '../../store/intel/intel-file-error.js';
import { cliCommandText } from '../../../contracts/cli-command.js';
import { printTable, readGivenFile, resolveDataDir, withStore } from '../cli-context.js';

/** What the version of an import is called in its kind's file. */
const versionName = { epss: 'model', 'cisa-kev': 'catalog', 'eu-kev': 'catalog', vulnrichment: 'SSVC' } as const;

/** A Vulnrichment import's counts and normalisations, in words; empty for other kinds. */
function reportText(answer: ThreatIntelImportAnswer): string {
  const report = answer.report;
  if (report === null) return '';
  const normalised = report.normalised.map((entry) => `${entry.field} "${entry.from}" as "${entry.to}" ×${entry.count}`);
  return ` (${report.files} records read, ${report.without_ssvc} without SSVC values left out${normalised.length ? `; normalised: ${normalised.join(', ')}` : ''})`;
}

/** What became of an import's figures, in words. */
function stateOf(record: ThreatIntelImport): string {
  if (!record.finished) return 'interrupted: import the file again';
  return record.current ? 'current' : 'history (older than the current file)';
}

function importedLine(file: string, answer: ThreatIntelImportAnswer): string {
  const what = `${answer.kind} of ${answer.source_date}${answer.version === null ? '' : `, ${versionName[answer.kind]} ${answer.version}`}, ${answer.rows} rows`;
  if (answer.already_imported) return `${file}: already imported on ${answer.imported_at} (${what}); nothing changed`;
  return `${file}: imported ${what}${reportText(answer)}: ${stateOf(answer)}`;
}

/**
 * `intel import FILE…` and `intel status`: exploit intelligence from files (FIRST's EPSS CSV,
 * CISA's and ENISA's KEV catalogs, gzip or plain, recognised by their content), as /app's
 * importThreatIntel and listThreatIntelImports do it. An import holds the data directory's lock,
 * as every command that writes; status only reads.
 */
export function registerIntelCommands(program: Command): void {
  const intel = program.command('intel').description("exploit intelligence from files: FIRST's EPSS scores, CISA's and ENISA's KEV catalogs, CISA's Vulnrichment records");
  intel
    .command('import')
    .description('import EPSS files, KEV catalogs and Vulnrichment records (one, a JSON list, or .zip/.tar.gz of the repository\'s folders; gzip or plain, each recognised by its content), in the order given; a refused file changes nothing')
    .argument('<files...>', 'the files')
    .option('--data-dir <dir>', 'data directory')
    .action(async (files: string[], options: { dataDir?: string }) => {
      const contents = files.map((file) => ({ file, bytes: readGivenFile(file, 'the file') }));
      const refused = await withStore(resolveDataDir(options.dataDir), { command: 'remediation-console intel import' }, async (store) => {
        let count = 0;
        for (const { file, bytes } of contents) {
          try {
            console.log(importedLine(file, await store.intel.importFile(bytes)));
          } catch (error) {
            if (!(error instanceof IntelFileError)) throw error;
            console.error(`error: ${file}: ${error.message} Nothing of it was imported.`);
            count++;
          }
        }
        return count;
      });
      if (refused === files.length) throw new Error(`${files.length === 1 ? 'The file was' : `All ${files.length} files were`} refused (see above): nothing was imported.`);
      if (refused > 0) throw new Error(`${refused} of ${files.length} files were refused (see above); the others were imported.`);
    });
  intel
    .command('status')
    .description('list the imports, the newest first, and which are current')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { dataDir?: string }) => {
      await withStore(resolveDataDir(options.dataDir), { readOnly: true, command: 'remediation-console intel status' }, (store) => {
        const imports = store.intel.list();
        if (imports.length === 0) console.log(`No intelligence imported yet: run ${cliCommandText('intel import FILE')} with an EPSS file or a KEV catalog.`);
        else {
          printTable(
            ['KIND', 'SOURCE DATE (UTC)', 'VERSION', 'ROWS', 'IMPORTED AT (UTC)', 'STATE', 'SHA-256'],
            imports.map((record) => [record.kind, record.source_date, record.version ?? '-', String(record.rows), record.imported_at, stateOf(record), record.sha256.slice(0, 16)]),
          );
        }
        console.log(epssAttribution);
      });
    });
}
