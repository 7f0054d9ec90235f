import fs from 'node:fs';
import os from 'node:os';
import nodePath from 'node:path';
import { createConsoleApp } from '../../console-app.js';
import { consoleTokenHeader, generateConsoleToken } from '../../http/app/require-console-token.js';
import { type RunningServer, startServer } from '../../http/start-server.js';
import type { SyncStatus } from '../../../contracts/console/sync.js';
import type { Inventory } from '../../../contracts/inventory.js';
import { ConsoleSessions } from '../../secrets/console-sessions.js';
import type { Sealer } from '../../secrets/sealer.js';
import type { Organization } from '../../store/records/organization-records.js';
import { Store } from '../../store/store.js';
import type { SyncPolicy } from '../../sync/sync-policy.js';
import { SyncScheduler } from '../../sync/sync-scheduler.js';
import { identitySealer } from './identity-sealer.js';

/** A server with the v1 API and /app over a real loopback port, on an in-memory store. */
export interface ConsoleTestServer {
  url: string;
  store: Store;
  server: RunningServer;
  consoleToken: string;
  /** Where console links and the session key are: `dataDir` when given, else a temporary folder removed at close. */
  sessionDataDir: string;
  /** The browser sessions and script tokens the server accepts (on the server's clock). */
  sessions: ConsoleSessions;
  orgs: { organization: Organization; inventory: Inventory; apiKey: string }[];
  /** The replicas' scheduler, when the server was started with a sealer. */
  sync: SyncScheduler | undefined;
  /** Calls /app with the console token (unless `token` says otherwise) and `headers`; JSON bodies parsed. */
  app(
    path: string,
    options?: { method?: string; body?: unknown; token?: string | null; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; body: any }>;
  /** Every item of a console list (`path` under /app, with its query if any), a page of 100 at a time. */
  appAll(path: string): Promise<any[]>;
  /** Every item of a /v1 list of an organization (`path` under /v1), read with its key, a page of 100 at a time. */
  v1All(slug: string, path: string): Promise<any[]>;
  /** Polls a replica's sync status until no sync runs; answers the last status. */
  syncEnded(slug: string): Promise<SyncStatus>;
  close(): Promise<void>;
}

/** How a console test server's store is opened, beside what it serves. */
export interface ConsoleTestServerOptions {
  sealer?: Sealer;
  syncPolicy?: Partial<SyncPolicy>;
  /** The store's clock (StoreOptions.clock) and the console sessions'; the wall clock by default. */
  clock?: () => number;
  /** A data directory for the store; in memory by default. */
  dataDir?: string;
}

/**
 * Starts the server as the product does, /app included, with the given organizations; with a
 * sealer, also connecting replicas and syncing them (never in the background); with a clock,
 * the store's (deadlines, ages) is that one.
 */
export async function startConsoleTestServer(orgs: { slug: string; inventory: Inventory }[], options: ConsoleTestServerOptions = {}): Promise<ConsoleTestServer> {
  const store = await Store.open({ clock: options.clock, dataDir: options.dataDir });
  const created = orgs.map(({ slug, inventory }) =>
    store.write((writes) => {
      const organization = store.organizations.insert({ slug, name: `Test ${slug}`, kind: 'local' });
      writes.replace(organization.inventoryId, inventory);
      return { organization, inventory, apiKey: store.apiKeys.create(organization.rowId, 'test').key };
    }, { changes: ['organizations', 'inventory', 'api-keys'] }),
  );
  const consoleToken = generateConsoleToken();
  const sessionDataDir = options.dataDir ?? fs.mkdtempSync(nodePath.join(os.tmpdir(), 'rc-console-session-'));
  const sessions = ConsoleSessions.of(sessionDataDir, options.clock);
  const sync = options.sealer ? new SyncScheduler({ store, sealer: options.sealer, policy: options.syncPolicy }) : undefined;
  let baseUrl = '';
  const server = await startServer({
    port: 0,
    consoleHostName: sessions.hostName,
    createApp: (acceptedHosts) =>
      createConsoleApp(
        {
          store,
          consoleToken,
          consoleLinks: { dataDir: sessionDataDir, sessions },
          baseUrl: () => baseUrl,
          // Test organizations have no enrollment secret or signing key: nothing is ever unsealed.
          signingSealer: identitySealer,
          sealer: options.sealer,
          sync,
          log: () => {},
        },
        acceptedHosts,
      ),
  });
  baseUrl = server.url;
  const pages = async (read: (offset: number) => Promise<{ status: number; body: any }>) => {
    const items: any[] = [];
    for (;;) {
      const { status, body } = await read(items.length);
      if (status !== 200) throw new Error(`${status} ${JSON.stringify(body)}`);
      items.push(...body.data);
      if (items.length >= body.total || body.data.length === 0) return items;
    }
  };
  const testServer: ConsoleTestServer = {
    url: server.url,
    store,
    server,
    consoleToken,
    sessionDataDir,
    sessions,
    orgs: created,
    sync,
    appAll(path) {
      return pages((offset) => this.app(`${path}${path.includes('?') ? '&' : '?'}limit=100&offset=${offset}`));
    },
    v1All(slug, path) {
      const key = created.find((org) => org.organization.slug === slug)!.apiKey;
      return pages(async (offset) => {
        const response = await fetch(`${server.url}/v1/${path}?limit=100&offset=${offset}`, { headers: { Authorization: `Bearer ${key}` } });
        return { status: response.status, body: await response.json() };
      });
    },
    async syncEnded(slug) {
      for (;;) {
        const { status, body } = await this.app(`/orgs/${slug}/sync`);
        if (status !== 200) throw new Error(`${status} ${JSON.stringify(body)}`);
        if (!(body as SyncStatus).running) return body as SyncStatus;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async app(path, options = {}) {
      const token = options.token === undefined ? consoleToken : options.token;
      const response = await fetch(`${server.url}/app${path}`, {
        method: options.method ?? 'GET',
        headers: {
          ...(token === null ? {} : { [consoleTokenHeader]: token }),
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
      });
      const text = await response.text();
      const isJson = response.headers.get('content-type')?.startsWith('application/json');
      return { status: response.status, headers: response.headers, body: isJson && text ? JSON.parse(text) : text };
    },
    async close() {
      await sync?.stop();
      await server.close();
      store.close();
      if (!options.dataDir) fs.rmSync(sessionDataDir, { recursive: true, force: true });
    },
  };
  return testServer;
}
