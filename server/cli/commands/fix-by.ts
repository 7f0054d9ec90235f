import type { Command } from 'commander';
import { type FixBySettings, type FixBySummary, fixBySettingsBodySchema } from '../../../contracts/console/fix-by.js';
import { requireOrganization } from '../../organizations/manage-organizations.js';
import { fixBySummary } from '../../store/console/fix-by-summary.js';
import { settingsChangeCause } from '../../store/ssvc/fix-by-changes.js';
import { fixBySettingsAnswer } from '../../store/ssvc/fix-by-settings.js';
import { UsageError, resolveDataDir, withStore } from '../cli-context.js';

interface SetOptions {
  org: string;
  policy?: string;
  exposureTags?: string;
  unknownAs?: string;
  dataDir?: string;
}

/** The option that sets each field of the settings, for a refusal that names it. */
const optionOfField: Record<string, string> = { deadline_policy: '--policy', exposure_tags: '--exposure-tags', unknown_as: '--unknown-as' };

/** The settings as lines of text. */
function settingsText(settings: FixBySettings): string {
  return [
    `deadline policy: ${settings.deadline_policy}`,
    `exposure tags: ${settings.exposure_tags.join(', ') || 'none'}`,
    `unknown counts as: ${settings.unknown_as}`,
    `updated: ${settings.updated_at ?? 'never (the defaults)'}`,
  ].join('\n');
}

/** The due counts as lines of text. */
function summaryText(summary: FixBySummary): string {
  return [
    `as of ${summary.as_of} (deadline policy ${summary.deadline_policy}), excepted findings left out`,
    `open: ${summary.open}`,
    `overdue: ${summary.overdue}`,
    `due within 3 days: ${summary.due_within.days_3}`,
    `due within 14 days: ${summary.due_within.days_14}`,
    `due within 60 days: ${summary.due_within.days_60}`,
    `can wait for the next upgrade: ${summary.on_upgrade}`,
  ].join('\n');
}

/**
 * `fix-by show`, `fix-by set` and `fix-by summary`: an organization's deadline policy, exposure
 * tags and what an unknown input counts as (read, changed as /app's updateFixBySettings changes
 * them, the change recorded in the fix-by feed), and the due counts of /app's getFixBySummary.
 */
export function registerFixByCommands(program: Command): void {
  const fixBy = program.command('fix-by').description("fix-by dates (BOD 26-04): an organization's deadline policy and its findings due soon");
  fixBy
    .command('show')
    .description('print the deadline policy, the exposure tags and what an unknown input counts as')
    .requiredOption('--org <slug>', 'the organization')
    .option('--json', 'print them as /app answers them')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { org: string; json?: boolean; dataDir?: string }) => {
      await withStore(resolveDataDir(options.dataDir), { readOnly: true, command: 'remediation-console fix-by show' }, (store) => {
        const settings = fixBySettingsAnswer(store.fixBy.settings.get(requireOrganization(store, options.org).rowId));
        console.log(options.json ? JSON.stringify(settings, null, 2) : settingsText(settings));
      });
    });
  fixBy
    .command('set')
    .description('change the deadline policy, the exposure tags or what an unknown input counts as; what is not given is kept')
    .requiredOption('--org <slug>', 'the organization')
    .option('--policy <policy>', 'severity-days, bod-26-04 or kev-due-date')
    .option('--exposure-tags <tags>', 'the tags that mean "publicly exposed", separated by commas ("" for none)')
    .option('--unknown-as <value>', 'shorter-timeline or longer-timeline')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: SetOptions) => {
      await withStore(resolveDataDir(options.dataDir), { command: 'remediation-console fix-by set' }, async (store) => {
        const org = requireOrganization(store, options.org).rowId;
        const held = store.fixBy.settings.get(org).settings;
        const parsed = fixBySettingsBodySchema.safeParse({
          deadline_policy: options.policy ?? held.deadline_policy,
          exposure_tags: options.exposureTags === undefined ? held.exposure_tags : options.exposureTags.split(',').filter((tag) => tag.trim() !== ''),
          unknown_as: options.unknownAs ?? held.unknown_as,
        });
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          throw new UsageError(`${optionOfField[String(issue.path[0])] ?? String(issue.path[0])} ${issue.message}. Nothing was changed.`);
        }
        const saved = await store.fixBy.recording(org, settingsChangeCause(parsed.data), () => store.fixBy.settings.set(org, parsed.data));
        // What the change did to the outcomes goes into the feed before the store closes.
        await store.fixBy.recorded(org);
        console.log(settingsText(fixBySettingsAnswer(saved)));
      });
    });
  fixBy
    .command('summary')
    .description('print the open findings overdue, due within 3, 14 and 60 days, and those that can wait for the next upgrade')
    .requiredOption('--org <slug>', 'the organization')
    .option('--json', 'print them as /app answers them')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { org: string; json?: boolean; dataDir?: string }) => {
      await withStore(resolveDataDir(options.dataDir), { readOnly: true, command: 'remediation-console fix-by summary' }, async (store) => {
        const summary = await fixBySummary(store, requireOrganization(store, options.org).rowId);
        console.log(options.json ? JSON.stringify(summary, null, 2) : summaryText(summary));
      });
    });
}
