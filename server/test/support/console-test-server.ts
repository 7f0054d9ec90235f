import { createConsoleApp } from '../../console-app.js';
import { consoleTokenHeader, generateConsoleToken } from '../../http/app/require-console-token.js';
import { type RunningServer, startServer } from '../../http/start-server.js';
import type { Inventory } from '../../../contracts/inventory.js';
import type { Sealer } from '../../secrets/sealer.js';
import type { Organization } from '../../store/organizations.js';
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
  orgs: { organization: Organization; inventory: Inventory; apiKey: string }[];
  /** The replicas' scheduler, when the server was started with a sealer. */
  sync: SyncScheduler | undefined;
  /** Calls /app with the console token (unless `token` says otherwise); JSON bodies parsed. */
  app(path: string, options?: { method?: string; body?: unknown; token?: string | null }): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

/**
 * Starts the server as the product does, /app included, with the given organizations; with a
 * sealer, also connecting replicas and syncing them (never in the background); with a clock,
 * the store's (deadlines, ages) is that one.
 */
export async function startConsoleTestServer(
  orgs: { slug: string; inventory: Inventory }[],
  options: { sealer?: Sealer; syncPolicy?: Partial<SyncPolicy>; clock?: () => number } = {},
): Promise<ConsoleTestServer> {
  const store = await Store.open({ clock: options.clock });
  const created = orgs.map(({ slug, inventory }) =>
    store.write((writes) => {
      const organization = store.organizations.insert({ slug, name: `Test ${slug}`, kind: 'local' });
      writes.replace(organization.inventoryId, inventory);
      return { organization, inventory, apiKey: store.apiKeys.create(organization.rowId, 'test').key };
    }),
  );
  const consoleToken = generateConsoleToken();
  const sync = options.sealer ? new SyncScheduler({ store, sealer: options.sealer, policy: options.syncPolicy }) : undefined;
  let baseUrl = '';
  const server = await startServer({
    port: 0,
    createApp: (acceptedHosts) =>
      createConsoleApp(
        {
          store,
          consoleToken,
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
  return {
    url: server.url,
    store,
    server,
    consoleToken,
    orgs: created,
    sync,
    async app(path, options = {}) {
      const token = options.token === undefined ? consoleToken : options.token;
      const response = await fetch(`${server.url}/app${path}`, {
        method: options.method ?? 'GET',
        headers: {
          ...(token === null ? {} : { [consoleTokenHeader]: token }),
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
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
    },
  };
}
