import fs from 'node:fs';
import type { Command } from 'commander';
import { consoleLinkLifetimeMs, consoleLinks, issueConsoleLink } from '../../secrets/console-links.js';
import { ConsoleSessions, consoleSessionIdleMs, consoleSessionLifetimeMs } from '../../secrets/console-sessions.js';
import { dataDirectoryFiles } from '../../store/engine/data-directory.js';
import { resolveDataDir } from '../cli-context.js';

/** How long the running server has to answer before the link is printed with a warning instead. */
const healthTimeoutMs = 3_000;
/** Where `serve` listens by default (http/start-server.ts, which the command line's layer does not import). */
const defaultServerUrl = 'http://127.0.0.1:7300';
const hourMs = 3_600_000;

/**
 * The address of the server that runs on the data directory now: the one its `api.json` names
 * (written while a server runs), when it answers there; otherwise undefined.
 */
async function runningServerUrl(dataDir: string): Promise<string | undefined> {
  let url: unknown;
  try {
    url = (JSON.parse(fs.readFileSync(dataDirectoryFiles(dataDir).apiAddress, 'utf8')) as { url?: unknown }).url;
  } catch {
    return undefined;
  }
  if (typeof url !== 'string' || !/^http:\/\/[\w.:[\]-]+$/.test(url)) return undefined;
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(healthTimeoutMs) });
    await response.body?.cancel();
    return response.ok ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `console-url`: a new one-time console link, for another browser or after a session ended.
 * It takes no lock and opens no store: the link's token is a file in the data directory
 * (secrets/console-links.ts) that the running server reads when the link is opened, so it works
 * while `serve` (or the desktop app) holds the data directory.
 */
export function registerConsoleUrlCommand(program: Command): void {
  program
    .command('console-url')
    .description('print a new one-time link that opens the console in a browser, while serve runs')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { dataDir?: string }) => {
      const dataDir = resolveDataDir(options.dataDir);
      const serverUrl = await runningServerUrl(dataDir);
      // The link first: it makes the data directory's folder when there is none yet.
      const token = issueConsoleLink(dataDir);
      const link = consoleLinks(serverUrl ?? defaultServerUrl, ConsoleSessions.of(dataDir).hostName, token);
      const hours = consoleLinkLifetimeMs / hourMs;
      console.log(link.named);
      if (serverUrl) {
        console.error(
          `Opens the console in one browser, once, within ${hours} hours; that browser then keeps its session for ${consoleSessionLifetimeMs / hourMs / 24} days at most, ` +
            `${consoleSessionIdleMs / hourMs / 24} days unused.`,
        );
      } else {
        console.error(
          `No server answers on ${dataDir} now. The link opens once "remediation-console serve${options.dataDir ? ` --data-dir ${dataDir}` : ''}" ` +
            `runs at that address (the port may differ: serve prints its own), within ${hours} hours.`,
        );
      }
      console.error(link.fallback.join('\n'));
    });
}
