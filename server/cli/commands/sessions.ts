import type { Command } from 'commander';
import { type ConsoleCredentialKind, ConsoleSessions, scriptTokenDays } from '../../secrets/console-sessions.js';
import { UsageError, parseWholeNumber, printTable, resolveDataDir } from '../cli-context.js';

const kinds: readonly ConsoleCredentialKind[] = ['browser', 'script'];
const nameLength = 100;

const shownTime = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/**
 * `sessions list`, `sessions revoke`, `sessions create-script-token`: the console's browser
 * sessions and script tokens. Like `console-url`, they take no lock and open no store (the
 * credentials are files in the data directory: secrets/console-sessions.ts), so they work
 * while `serve` or the desktop app runs, and a revocation holds at the server's next request.
 */
export function registerSessionsCommands(program: Command): void {
  const sessions = program.command('sessions').description("the console's browser sessions and script tokens: list, revoke, create a script token");
  sessions
    .command('list')
    .description('list the browser sessions and script tokens that have not ended (never their secrets)')
    .option('--data-dir <dir>', 'data directory')
    .action((options: { dataDir?: string }) => {
      const records = ConsoleSessions.of(resolveDataDir(options.dataDir)).list();
      if (records.length === 0) {
        console.log('No console sessions or script tokens.');
        return;
      }
      printTable(
        ['ID', 'KIND', 'NAME OR BROWSER', 'CREATED (UTC)', 'LAST USED', 'ENDS UNLESS USED'],
        records.map((r) => [r.id, r.kind, (r.name ?? r.userAgent ?? '').slice(0, 60), shownTime(r.createdAt), shownTime(r.lastUsedAt), shownTime(r.expiresAt)]),
      );
    });
  sessions
    .command('revoke')
    .description('revoke one session or script token (--id), or all of them (--all, of one --kind if given)')
    .option('--id <id>', 'the id "sessions list" shows')
    .option('--all', 'every browser session and script token (with --kind, every one of that kind)')
    .option('--kind <kind>', `with --all: ${kinds.join(' or ')}`)
    .option('--data-dir <dir>', 'data directory')
    .action((options: { id?: string; all?: boolean; kind?: string; dataDir?: string }) => {
      if ((options.id === undefined) === !options.all) throw new UsageError('give either --id ID or --all');
      if (options.kind !== undefined && !options.all) throw new UsageError('--kind goes with --all');
      if (options.kind !== undefined && !kinds.includes(options.kind as ConsoleCredentialKind)) throw new UsageError(`--kind must be ${kinds.join(' or ')}`);
      const credentials = ConsoleSessions.of(resolveDataDir(options.dataDir));
      if (options.id !== undefined) {
        if (!credentials.revoke(options.id)) throw new UsageError(`no session or script token has the id "${options.id.slice(0, 40)}" (see "remediation-console sessions list")`);
        console.log(`Revoked ${options.id}.`);
        return;
      }
      const revoked = credentials.revokeAll({ kind: options.kind as ConsoleCredentialKind | undefined });
      console.log(`Revoked ${revoked} ${options.kind === 'script' ? 'script token' : options.kind === 'browser' ? 'browser session' : 'session or script token'}${revoked === 1 ? '' : 's'}.`);
    });
  sessions
    .command('create-script-token')
    .description('create a token for a script to call /app with, in the x-console-script-token header; printed alone on one line, once')
    .requiredOption('--name <name>', 'what the token is for, shown in the list')
    .option('--days <days>', `how long it lasts (default ${scriptTokenDays.default})`, parseWholeNumber('--days', 1, scriptTokenDays.max), scriptTokenDays.default)
    .option('--data-dir <dir>', 'data directory')
    .action((options: { name: string; days: number; dataDir?: string }) => {
      const name = options.name.trim();
      if (name === '' || name.length > nameLength || /\p{Cc}/u.test(name)) {
        throw new UsageError(`--name must be 1 to ${nameLength} characters without control characters`);
      }
      const { credential, record } = ConsoleSessions.of(resolveDataDir(options.dataDir)).create('script', { name, days: options.days });
      console.log(credential);
      console.error(`Script token "${name}" (${record.id}), good until ${shownTime(record.expiresAt)} UTC: send it in the x-console-script-token header. It is not shown again.`);
    });
}
