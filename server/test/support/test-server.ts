import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHttpApp } from '../../http/create-http-app.js';
import { type RunningServer, startServer } from '../../http/start-server.js';
import { agentConfigRoute } from '../../http/v1/agent-config-route.js';
import { createLocalOrganization } from '../../organizations/manage-organizations.js';
import type { Inventory } from '../../../contracts/inventory.js';
import { keyFileSealer } from '../../secrets/key-file-sealer.js';
import type { Sealer } from '../../secrets/sealer.js';
import type { Organization } from '../../store/records/organization-records.js';
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
  sealer: Sealer;
  server: RunningServer;
  orgs: TestOrganization[];
  /** What the server logged as causes of 500 answers. */
  logged: string[];
  close(): Promise<void>;
}

/** An organization to create: its data, and whether it gets an enrollment secret (default yes). */
export interface TestOrganizationSpec {
  slug: string;
  inventory: Inventory;
  enrollmentSecret?: boolean;
  /**
   * Its agent settings; by default {@link testAgentSettings} of its slug, so that its agent
   * configuration files can be made; null for none.
   */
  agentSettings?: { serverUrl: string | null; teamId: string | null; bundleId?: string | null } | null;
}

/** The agent settings a test organization gets unless told otherwise. */
export function testAgentSettings(slug: string): { serverUrl: string; teamId: string } {
  return { serverUrl: `https://agents.${slug}.example`, teamId: 'Q7M3K9D2XP' };
}

/**
 * Starts the v1 API, agent configuration download included, on a free loopback port with the
 * given organizations (each with its signing identity, data and one API key).
 */
export async function startTestServer(specs: TestOrganizationSpec[]): Promise<TestServer> {
  const store = await Store.open();
  const sealerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-sealer-'));
  const sealer = keyFileSealer(path.join(sealerDir, 'sealing.key'));
  const orgs: TestOrganization[] = [];
  for (const { slug, inventory, enrollmentSecret = true, agentSettings = testAgentSettings(slug) } of specs) {
    const organization = await createLocalOrganization(store, sealer, { slug, name: `Test ${slug}`, enrollmentSecret });
    const apiKey = store.write((writes) => {
      writes.replace(organization.inventoryId, inventory);
      if (agentSettings) store.agentSettings.set(organization.rowId, { bundleId: null, ...agentSettings });
      return store.apiKeys.create(organization.rowId, 'test').key;
    }, { changes: ['inventory', 'api-keys', 'agent-settings'] });
    orgs.push({ organization, inventory, apiKey });
  }
  const logged: string[] = [];
  const log = (message: string, error: unknown) => logged.push(`${message} ${String(error)}`);
  const server = await startServer({
    port: 0,
    createApp: (acceptedHosts) =>
      createHttpApp({
        store,
        acceptedHosts,
        log,
        v1Extensions: [agentConfigRoute({ store, sealer, log })],
      }),
  });
  return {
    url: server.url,
    port: server.port,
    store,
    sealer,
    server,
    orgs,
    logged,
    async close() {
      await server.close();
      store.close();
      fs.rmSync(sealerDir, { recursive: true, force: true });
    },
  };
}
