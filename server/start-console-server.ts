import path from 'node:path';
import { createConsoleApp } from './console-app.js';
import { generateConsoleToken } from './http/app/require-console-token.js';
import { type RunningServer, startServer } from './http/start-server.js';
import { ensureDemoOrganization } from './organizations/ensure-demo-organization.js';
import { packageRoot } from './package-root.js';
import { sweepUnkeptReports } from './reports/report-appendix.js';
import { ConsoleSessions } from './secrets/console-sessions.js';
import type { Sealer } from './secrets/sealer.js';
import { dataDirectoryFiles } from './store/engine/data-directory.js';
import { Store } from './store/store.js';
import { SyncScheduler } from './sync/sync-scheduler.js';
import { warmConsoleCaches } from './warm-console-caches.js';

const logError = (message: string, error: unknown) => console.error(message, error);

/** How the server is started in the thread that runs it. */
export interface ConsoleServerOptions {
  dataDir: string;
  sealer: (dataDir: string) => Sealer;
  host?: string;
  port?: number;
  /** What the process is, recorded in the data-directory lock. */
  command: string;
}

/** The running server with the store it serves. */
export interface ConsoleServer {
  server: RunningServer;
  store: Store;
  /** The console's token for /app. */
  consoleToken: string;
  /** The demo organization's API key when this start created it. */
  demoApiKey: string | undefined;
  /** The replicas' syncs. */
  sync: SyncScheduler;
  stop(): Promise<void>;
}

/**
 * Opens the data directory (taking its lock), creates the demo organization in an empty one,
 * and serves the v1 API, /app and the console on a loopback port, all in the calling thread:
 * the product calls it in the server's worker thread (console-server-worker.ts, started by
 * `startConsoleServerWorker` for `serve` and the desktop app).
 */
export async function startConsoleServer(options: ConsoleServerOptions): Promise<ConsoleServer> {
  const store = await Store.open({ dataDir: options.dataDir, command: options.command });
  try {
    const sealer = options.sealer(options.dataDir);
    const swept = sweepUnkeptReports(store, dataDirectoryFiles(options.dataDir).reportAppendices);
    if (swept.files.length > 0) console.error(`Removed ${swept.files.length} report appendix file(s) whose report is gone: ${swept.files.join(', ')}`);
    if (swept.findingParts > 0) console.error(`Removed the findings parts of ${swept.findingParts} report(s) not kept (a report interrupted while it was made)`);
    const demoApiKey = await ensureDemoOrganization(store, sealer);
    const consoleToken = generateConsoleToken();
    const sessions = ConsoleSessions.of(options.dataDir);
    const scheduler = new SyncScheduler({ store, sealer, log: (message) => console.error(message) });
    let baseUrl = '';
    const server = await startServer({
      host: options.host,
      port: options.port,
      dataDir: options.dataDir,
      consoleHostName: sessions.hostName,
      createApp: (acceptedHosts) =>
        createConsoleApp(
          {
            store,
            consoleToken,
            consoleLinks: { dataDir: options.dataDir, sessions },
            baseUrl: () => baseUrl,
            signingSealer: sealer,
            sealer,
            sync: scheduler,
            rendererDir: path.join(packageRoot(), 'dist', 'renderer'),
            log: logError,
          },
          acceptedHosts,
        ),
    });
    baseUrl = server.url;
    scheduler.start();
    const stopWarmUp = warmConsoleCaches(store, scheduler);
    return {
      server,
      store,
      consoleToken,
      demoApiKey,
      sync: scheduler,
      async stop() {
        stopWarmUp();
        await scheduler.stop();
        await server.close();
        store.close();
      },
    };
  } catch (error) {
    store.close();
    throw error;
  }
}
