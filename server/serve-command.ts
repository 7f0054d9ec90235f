import type { Command } from 'commander';
import { isLoopbackAddress } from './secrets/loopback-address.js';
import { defaultPort } from './http/start-server.js';
import { consoleLinks, issueConsoleLink } from './secrets/console-links.js';
import { ConsoleSessions } from './secrets/console-sessions.js';
import { cliCommandText } from '../contracts/cli-command.js';
import { UsageError, headlessSealer, parseWholeNumber, resolveDataDir } from './cli/cli-context.js';

/** Why `serve --host` refuses an address other machines reach: what it would expose, and the two ways on. */
function remoteAccessRefusal(host: string): string {
  return (
    `--host ${host} is not a loopback address: the server speaks plain HTTP, and anyone who can reach ${host} would reach the API. ` +
    'Listen on 127.0.0.1 (the default), or give --allow-remote-access to accept that.'
  );
}

/** What `serve --host ADDRESS --allow-remote-access` says before it listens. */
function remoteAccessWarning(host: string): string {
  return (
    `Warning: listening on ${host} with --allow-remote-access. This is plain HTTP, without TLS: anyone who can reach this address reaches ` +
    'the API (with an API key) and the console (with a console link), and what they send and receive can be read on the way.'
  );
}

/** `serve`: the API and the console, headless, until interrupted. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the v1 API and the console on a loopback port, headless')
    .option('--host <address>', 'address to listen on: a loopback one (127.0.0.0/8, ::1, localhost) unless --allow-remote-access', '127.0.0.1')
    .option('--allow-remote-access', 'listen on an address other machines reach: plain HTTP, so anyone who reaches it reaches the API')
    .option('--port <port>', 'port to listen on; 0 picks a free one', parseWholeNumber('--port', 0, 65535), defaultPort)
    .option('--data-dir <dir>', 'data directory (default: the per-user folder, or REMEDIATION_CONSOLE_DATA_DIR)')
    .action(async (options: { host: string; allowRemoteAccess?: boolean; port: number; dataDir?: string }) => {
      if (!/^[\w.:-]+$/.test(options.host)) throw new UsageError(`--host "${options.host}" is not an address`);
      if (!isLoopbackAddress(options.host)) {
        if (!options.allowRemoteAccess) throw new UsageError(remoteAccessRefusal(options.host));
        // Said before anything listens, on stderr: the lines on stdout are for scripts.
        console.error(remoteAccessWarning(options.host));
      }
      const dataDir = resolveDataDir(options.dataDir);
      // The server runs in a worker thread, as in the desktop app; this thread seals for it.
      const { startConsoleServerWorker } = await import('./start-console-server-worker.js');
      const running = await startConsoleServerWorker({
        dataDir,
        host: options.host,
        port: options.port,
        sealer: headlessSealer,
        command: 'remediation-console serve',
      });
      const { server } = running;
      // A new link at each start; the server reads the links of its data directory (console-links.ts).
      const link = consoleLinks(server.url, ConsoleSessions.of(dataDir).hostName, issueConsoleLink(dataDir));
      const lines = [
        `Remediation Console is listening on ${server.url}`,
        `  API:     ${server.url}/v1   (OpenAPI document: ${server.url}/v1/openapi.json)`,
        `  Console: ${link.named}`,
        `           (opens a session in one browser, once; for another: ${cliCommandText(`console-url${options.dataDir ? ' --data-dir DIR' : ''}`)})`,
        ...link.fallback.map((line) => `           ${line}`),
        `  Data:    ${dataDir}`,
      ];
      if (options.port !== 0 && server.port !== options.port) lines.push(`  (port ${options.port} was taken; listening on ${server.port})`);
      if (server.demoApiKey) {
        lines.push('Created the demo organization "demo" (generated data). Its API key, shown only now:', `  ${server.demoApiKey}`);
      }
      await new Promise<void>((resolve, reject) => {
        const end = (outcome: Promise<void>) => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          running.off('failed', fail);
          outcome.then(resolve, reject);
        };
        const stop = () => end(running.stop());
        // A server whose thread failed is gone: the command ends with its error.
        const fail = (error: Error) => end(Promise.reject(error));
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
        running.on('failed', fail);
        // Printed once a signal stops it cleanly: whoever reads these lines may stop it at once.
        console.log(lines.join('\n'));
      });
    });
}
