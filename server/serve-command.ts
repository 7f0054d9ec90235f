import type { Command } from 'commander';
import { defaultPort } from './http/start-server.js';
import { readDatabaseFileAhead } from './store/database-file.js';
import { dataDirectoryFiles } from './store/data-directory.js';
import { loadSqlJs } from './store/sql-js.js';
import { UsageError, headlessSealer, parseWholeNumber, resolveDataDir } from './cli/cli-context.js';

/** `serve`: the API and the console, headless, until interrupted. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the v1 API and the console on a loopback port, headless')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', parseWholeNumber('--port', 0, 65535), defaultPort)
    .option('--data-dir <dir>', 'data directory (default: the per-user folder, or REMEDIATION_CONSOLE_DATA_DIR)')
    .action(async (options: { host: string; port: number; dataDir?: string }) => {
      if (!/^[\w.:-]+$/.test(options.host)) throw new UsageError(`--host "${options.host}" is not an address`);
      const dataDir = resolveDataDir(options.dataDir);
      // The database file and sql.js load while the server's modules do: a cold start waits for
      // the longer of the two, not for both.
      readDatabaseFileAhead(dataDirectoryFiles(dataDir).database);
      void loadSqlJs();
      const { startConsoleServer } = await import('./start-console-server.js');
      const running = await startConsoleServer({
        dataDir,
        host: options.host,
        port: options.port,
        sealer: headlessSealer,
        command: 'remediation-console serve',
      });
      const { server } = running;
      const lines = [
        `Remediation Console is listening on ${server.url}`,
        `  API:     ${server.url}/v1   (OpenAPI document: ${server.url}/v1/openapi.json)`,
        `  Console: ${running.consoleUrl}`,
        `  Data:    ${dataDir}`,
      ];
      if (options.port !== 0 && server.port !== options.port) lines.push(`  (port ${options.port} was taken; listening on ${server.port})`);
      if (running.demoApiKey) {
        lines.push('Created the demo organization "demo" (generated data). Its API key, shown only now:', `  ${running.demoApiKey}`);
      }
      console.log(lines.join('\n'));
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void running.stop().then(resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
}
