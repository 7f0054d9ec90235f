import type { Command } from 'commander';
import type { AgentSettingsView } from '../../../contracts/console/agent-settings.js';
import {
  AgentSettingsFieldsError,
  type AgentSettingName,
  agentSettingOptions,
  agentSettingsCommand,
  readAgentSettings,
  updateAgentSettings,
} from '../../organizations/manage-agent-settings.js';
import {
  OrganizationFieldsError,
  RemoteKeyRequiredError,
  changeEnrollmentSecret,
  connectReplicaOrganization,
  createLocalOrganization,
  removeOrganization,
  requireOrganization,
  updateOrganization,
} from '../../organizations/manage-organizations.js';
import { commandLineWriteMs } from '../../sync/sync-policy.js';
import { pauseSyncs } from '../../sync/sync-settings.js';
import { dataDirectoryFiles } from '../../store/engine/data-directory.js';
import { UsageError, confirmAtTerminal, headlessSealer, printTable, readGivenFile, resolveDataDir, withStore } from '../cli-context.js';

function readSecretFile(file: string, what: string): string {
  return readGivenFile(file, what).toString('utf8').trim();
}

/** The lines `orgs agent-settings` prints: each setting, what is missing and the warnings. */
function agentSettingsLines(slug: string, settings: AgentSettingsView): string[] {
  const lines = [
    `Agent settings of "${slug}"${settings.isDemo ? " (the demo's fictitious settings)" : ''}:`,
    `  Server URL: ${settings.serverUrl ?? '(not set)'}`,
    `  Team ID:    ${settings.teamId ?? '(not set)'}`,
    `  Bundle id:  ${settings.bundleId}`,
  ];
  if (settings.missing.length > 0) lines.push(`Not set yet, needed by its files: set with "${agentSettingsCommand(slug, settings.missing)}"`);
  return [...lines, ...settings.warnings.map((warning) => `Warning: ${warning}`)];
}

/** The options of `orgs connect` and `orgs update` by the body fields they fill. */
const optionOfField: Record<string, string> = { slug: '--slug', name: '--name', remoteUrl: '--remote', apiKey: 'the key in --api-key-file' };

/** Runs a change whose field errors are said with the options the user typed, not the body's field names. */
async function withOptionNames<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof RemoteKeyRequiredError) throw new UsageError(`--api-key-file: ${RemoteKeyRequiredError.reason}`);
    if (!(error instanceof OrganizationFieldsError)) throw error;
    throw new UsageError(error.issues.map((issue) => `${optionOfField[issue.field] ?? issue.field}: ${issue.message}`).join('; '));
  }
}

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
        const kind = (o: (typeof rows)[number]) => o.kind + (o.isDemo ? ' (demo)' : '') + (o.kind === 'replica' && store.sync.get(o.rowId).paused ? ' (syncs paused)' : '');
        printTable(
          ['SLUG', 'KIND', 'NAME', 'REMOTE', 'ID'],
          rows.map((o) => [o.slug, kind(o), o.name, o.remoteUrl ?? '', o.id]),
        );
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
    .description('remove an organization with all its data and keys, after asking at the terminal')
    .requiredOption('--slug <slug>', 'the organization')
    .option('--yes', 'remove without asking (for scripts: without a terminal, nothing is removed unless given)')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { slug: string; yes?: boolean; dataDir?: string }) => {
      const dataDir = resolveDataDir(options.dataDir);
      await withStore(dataDir, { command: 'remediation-console orgs remove' }, async (store) => {
        const organization = requireOrganization(store, options.slug);
        const what =
          organization.kind === 'replica'
            ? `the replica "${organization.slug}" (${organization.name}) with all its data here and its stored key (its remote tenant keeps its own)`
            : `the local organization "${organization.slug}" (${organization.name}) with all its data, its signing key, enrollment secret and API keys`;
        if (options.yes !== true) {
          const confirmed = await confirmAtTerminal(`Remove ${what}? This cannot be undone. [y/N] `);
          if (confirmed === undefined) throw new UsageError(`orgs remove would delete ${what}, which cannot be undone: give --yes to confirm (there is no terminal here to ask at)`);
          if (!confirmed) throw new Error(`Nothing was removed: "${organization.slug}" stays as it was`);
        }
        removeOrganization(store, organization.slug, dataDirectoryFiles(dataDir).reportAppendices);
        // Its rows go now, a chunk per write; interrupted, the next serve or sync finishes it.
        await store.inventories.collect(commandLineWriteMs);
        console.log(`Removed organization "${organization.slug}".`);
      });
    });

  for (const [command, paused] of [['pause', true], ['resume', false]] as const) {
    orgs
      .command(command)
      .description(
        paused
          ? "pause a replica's syncs: none runs at serve's start or on its interval until resumed (its data stays; sync --org still runs one)"
          : "resume a replica's paused syncs",
      )
      .requiredOption('--slug <slug>', 'the replica')
      .option('--data-dir <dir>', 'data directory')
      .action(async (options: { slug: string; dataDir?: string }) => {
        await withStore(resolveDataDir(options.dataDir), { command: `remediation-console orgs ${command}` }, (store) => {
          const organization = requireOrganization(store, options.slug);
          if (organization.kind !== 'replica') throw new UsageError(`"${organization.slug}" is a local organization; only replicas sync`);
          pauseSyncs(store, organization, paused);
          console.log(paused ? `Paused the syncs of "${organization.slug}": its data stays as it is.` : `Resumed the syncs of "${organization.slug}".`);
        });
      });
  }

  orgs
    .command('connect')
    .description('add a replica of a remote tenant; checks the remote answers with the key before saving it')
    .requiredOption('--slug <slug>', 'short name of the replica')
    .requiredOption('--remote <url>', "the remote tenant's base URL")
    .requiredOption('--api-key-file <file>', "a file holding the remote tenant's API key")
    .option('--name <name>', 'display name (default: the slug)')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { slug: string; remote: string; apiKeyFile: string; name?: string; dataDir?: string }) => {
      const apiKey = readSecretFile(options.apiKeyFile, 'the API key file');
      const dataDir = resolveDataDir(options.dataDir);
      await withStore(dataDir, { command: 'remediation-console orgs connect' }, async (store) => {
        const organization = await withOptionNames(() =>
          connectReplicaOrganization(store, headlessSealer(dataDir), { slug: options.slug, name: options.name, remoteUrl: options.remote, apiKey }),
        );
        console.log(`Connected "${organization.slug}" to ${organization.remoteUrl}.`);
      });
    });

  orgs
    .command('update')
    .description("change a replica's remote URL, key or name (a local organization's name); a new URL or key is checked against the remote before it is saved")
    .requiredOption('--slug <slug>', 'the organization')
    .option('--remote <url>', "the remote tenant's new base URL (a replica only); a new address needs --api-key-file too")
    .option('--api-key-file <file>', "a file holding the remote tenant's new API key (a replica only)")
    .option('--name <name>', 'its new display name')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { slug: string; remote?: string; apiKeyFile?: string; name?: string; dataDir?: string }) => {
      if (options.remote === undefined && options.apiKeyFile === undefined && options.name === undefined) {
        throw new UsageError('Give at least one of --remote URL, --api-key-file FILE or --name NAME');
      }
      const apiKey = options.apiKeyFile === undefined ? undefined : readSecretFile(options.apiKeyFile, 'the API key file');
      const dataDir = resolveDataDir(options.dataDir);
      await withStore(dataDir, { command: 'remediation-console orgs update' }, async (store) => {
        const organization = await withOptionNames(() =>
          updateOrganization(store, headlessSealer(dataDir), requireOrganization(store, options.slug), { name: options.name, remoteUrl: options.remote, apiKey }),
        );
        const changed = [options.name !== undefined && `name "${organization.name}"`, options.remote !== undefined && `remote ${organization.remoteUrl}`, apiKey !== undefined && 'API key']
          .filter(Boolean)
          .join(', ');
        console.log(`Updated "${organization.slug}": ${changed}. Its data and local settings stay${organization.kind === 'replica' ? '; the next sync uses the new settings' : ''}.`);
      });
    });

  orgs
    .command('enrollment-secret')
    .description("set, rotate or clear an organization's enrollment secret (never printed)")
    .requiredOption('--org <slug>', 'the organization')
    .option('--set-file <file>', 'set the secret to the content of this file')
    .option('--rotate', 'replace it with a new random secret')
    .option('--clear', 'remove it: agent configuration files can then not be generated')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { org: string; setFile?: string; rotate?: boolean; clear?: boolean; dataDir?: string }) => {
      const chosen = [options.setFile !== undefined, options.rotate === true, options.clear === true].filter(Boolean).length;
      if (chosen !== 1) throw new UsageError('Give exactly one of --set-file FILE, --rotate or --clear');
      const change = options.setFile !== undefined ? { set: readSecretFile(options.setFile, 'the secret file') } : options.rotate ? { rotate: true as const } : { clear: true as const };
      const dataDir = resolveDataDir(options.dataDir);
      await withStore(dataDir, { command: 'remediation-console orgs enrollment-secret' }, (store) => {
        const organization = requireOrganization(store, options.org);
        if (organization.kind !== 'local') throw new UsageError(`"${organization.slug}" is a replica: its enrollment secret lives on its remote tenant`);
        changeEnrollmentSecret(store, headlessSealer(dataDir), organization, change);
        console.log(`The enrollment secret of "${organization.slug}" was ${'set' in change ? 'set' : 'rotate' in change ? 'rotated' : 'cleared'}.`);
      });
    });

  orgs
    .command('agent-settings')
    .description("show an organization's agent settings (what its agent configuration files tell agents), changing those given")
    .requiredOption('--org <slug>', 'the organization')
    .option('--server-url <url>', 'the URL agents reach this server at: https, or http for a host that is not loopback ("" clears it)')
    .option('--team-id <id>', 'the Apple Developer Team ID the macOS agent is signed with, 10 characters A-Z 0-9 ("" clears it)')
    .option('--bundle-id <id>', 'the macOS agent\'s bundle identifier, reverse-DNS ("" restores the default)')
    .option('--allow-loopback', 'accept a loopback server URL (tests only: agents on other machines cannot reach it)')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { org: string; serverUrl?: string; teamId?: string; bundleId?: string; allowLoopback?: boolean; dataDir?: string }) => {
      const { serverUrl, teamId, bundleId } = options;
      const writes = serverUrl !== undefined || teamId !== undefined || bundleId !== undefined;
      // Only shown, the settings are read alongside a running serve.
      await withStore(resolveDataDir(options.dataDir), { readOnly: !writes, command: 'remediation-console orgs agent-settings' }, (store) => {
        const organization = requireOrganization(store, options.org);
        let settings: AgentSettingsView;
        try {
          settings = writes
            ? updateAgentSettings(store, organization, { serverUrl, teamId, bundleId, allowLoopback: options.allowLoopback })
            : readAgentSettings(store, organization);
        } catch (error) {
          if (!(error instanceof AgentSettingsFieldsError)) throw error;
          // Nothing was saved: each refused value is named by its option.
          throw new UsageError(error.issues.map((issue) => `${agentSettingOptions[issue.field as AgentSettingName] ?? issue.field} ${issue.message}`).join('\n'));
        }
        console.log(agentSettingsLines(organization.slug, settings).join('\n'));
      });
    });

  orgs
    .command('cert')
    .description("print an organization's signing certificate (PEM)")
    .requiredOption('--org <slug>', 'the organization')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { org: string; dataDir?: string }) => {
      await withStore(resolveDataDir(options.dataDir), { readOnly: true, command: 'orgs cert' }, (store) => {
        const organization = requireOrganization(store, options.org);
        if (!organization.certificatePem) throw new UsageError(`"${organization.slug}" has no signing certificate here (a replica's files are signed by its remote tenant)`);
        process.stdout.write(organization.certificatePem.endsWith('\n') ? organization.certificatePem : `${organization.certificatePem}\n`);
      });
    });
}
