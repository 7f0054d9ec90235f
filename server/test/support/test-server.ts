import { createHttpApp } from '../../http/create-http-app.js';
import { type RunningServer, startServer } from '../../http/start-server.js';
import type { Inventory } from '../../schemas/inventory.js';
import type { Organization } from '../../store/organizations.js';
import { Store } from '../../store/store.js';

/** An organization of a test server with its data and one API key. */
export interface TestOrganization {
  organization: Organization;
  inventory: Inventory;
  apiKey: string;
}

/** A server over a real loopback port, on an in-memory store. */
export interface TestServer {
  url: string;
  port: number;
  store: Store;
  server: RunningServer;
  orgs: TestOrganization[];
  close(): Promise<void>;
}

/** Starts the v1 API on a free loopback port with the given organizations and their data. */
export async function startTestServer(orgs: { slug: string; inventory: Inventory }[]): Promise<TestServer> {
  const store = await Store.open();
  const created = orgs.map(({ slug, inventory }) =>
    store.write((writes) => {
      const organization = store.organizations.insert({ slug, name: `Test ${slug}`, kind: 'local' });
      writes.replace(organization.rowId, inventory);
      return { organization, inventory, apiKey: store.apiKeys.create(organization.rowId, 'test').key };
    }),
  );
  const server = await startServer({
    port: 0,
    createApp: (acceptedHosts) => createHttpApp({ store, acceptedHosts, log: () => {} }),
  });
  return {
    url: server.url,
    port: server.port,
    store,
    server,
    orgs: created,
    async close() {
      await server.close();
      store.close();
    },
  };
}
