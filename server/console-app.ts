import type { RequestListener } from 'node:http';
import type express from 'express';
import { appRouter } from './http/app/app-router.js';
import { createHttpApp } from './http/create-http-app.js';
import { productVersion } from './package-root.js';
import { serveRenderer } from './http/serve-renderer.js';
import { dataDirectoryFiles } from './store/engine/data-directory.js';
import { agentConfigRoute } from './http/v1/agent-config-route.js';
import type { ConsoleSessions } from './secrets/console-sessions.js';
import type { Sealer } from './secrets/sealer.js';
import type { Store } from './store/store.js';
import type { SyncScheduler } from './sync/sync-scheduler.js';

/** What the product's HTTP app is wired from. */
export interface ConsoleAppParts {
  store: Store;
  /** The console's token for /app. */
  consoleToken: string;
  /** The data directory whose console links open sessions, and its sessions. */
  consoleLinks: { dataDir: string; sessions: ConsoleSessions };
  /** The server's own base URL, known once it listens: what local tools are told (never agents: their URL is a setting). */
  baseUrl: () => string;
  /** Unseals organizations' signing keys and enrollment secrets for agent configuration files. */
  signingSealer: Sealer;
  /** Seals the keys of the replicas the console connects and says how; absent, connecting answers 501. */
  sealer?: Sealer;
  /** The replicas' syncs; absent where nothing syncs. */
  sync?: SyncScheduler;
  /** The built console, served at `/`; absent, only the APIs are served. */
  rendererDir?: string;
  /** Where causes of 500 answers are written; never to the client. */
  log: (message: string, error: unknown) => void;
}

/** The console's control API under /app, with every part the product has. */
export function consoleAppRouter(parts: ConsoleAppParts): express.Router {
  return appRouter({
    store: parts.store,
    consoleToken: parts.consoleToken,
    consoleLinks: parts.consoleLinks,
    apiBaseUrl: parts.baseUrl,
    agentConfig: { sealer: parts.signingSealer, log: parts.log },
    reports: { sealer: parts.signingSealer, productVersion: productVersion(), appendixFolder: dataDirectoryFiles(parts.consoleLinks.dataDir).reportAppendices },
    sync: parts.sync,
    sealer: parts.sealer,
  });
}

/**
 * The product's request listener: the v1 API with the agent configuration download, /app and
 * the console. `startConsoleServer` serves it, and so do the tests of routes, so that a route's
 * test goes through the app as the product wires it.
 */
export function createConsoleApp(parts: ConsoleAppParts, acceptedHosts: () => Set<string>): RequestListener {
  return createHttpApp({
    store: parts.store,
    acceptedHosts,
    log: parts.log,
    v1Extensions: [agentConfigRoute({ store: parts.store, sealer: parts.signingSealer, log: parts.log })],
    console: {
      appRouter: consoleAppRouter(parts),
      ...(parts.rendererDir ? { staticRouter: serveRenderer(parts.rendererDir) } : {}),
    },
  });
}
