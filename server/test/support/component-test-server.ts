import type { TestProject } from 'vitest/node';
import { startConsoleTestServer } from './console-test-server.js';
import { smallInventory } from './fixtures.js';
import { startFakeRemote } from './fake-remote.js';
import { identitySealer } from './identity-sealer.js';

/** Where the renderer's component tests find the console's server, and its console token. */
export interface ComponentTestServer {
  url: string;
  token: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    consoleServer: ComponentTestServer;
  }
}

/**
 * The organizations of the renderer's component tests: one per test file that saves something
 * (deadlines, agent settings, tag rules, exceptions, saved views), so that no file sees another's writes, and
 * one the read-only files share.
 */
export const componentTestOrganizations = ['lists', 'deadlines', 'agent', 'tags', 'exceptions', 'work-packages', 'views'];

/** The replica of the component tests (a fake remote's, synced twice, the second remediating findings): what views of a replica's syncs read. */
export const componentTestReplica = 'replica';

/**
 * The global setup of the renderer's component tests (vitest.config.ts): one console server, as
 * the product builds it, on a real loopback port, for every renderer test file; closed at the end.
 */
export default async function startComponentTestServer(project: TestProject): Promise<() => Promise<void>> {
  // Nothing is sealed for real: the replica's key is a test's.
  const server = await startConsoleTestServer(
    componentTestOrganizations.map((slug) => ({ slug, inventory: smallInventory(1) })),
    { sealer: identitySealer },
  );
  const remote = await startFakeRemote({ inventory: smallInventory(2) });
  const connected = await server.app('/organizations', { method: 'POST', body: { slug: componentTestReplica, remoteUrl: remote.url, apiKey: remote.apiKey } });
  if (connected.status !== 201) throw new Error(`The component tests' replica was not connected: ${JSON.stringify(connected.body)}`);
  await server.sync!.syncNow(componentTestReplica);
  const at = new Date().toISOString();
  const remediated = new Set(remote.options.inventory.findings.filter((finding) => finding.status === 'open').slice(0, 3).map((finding) => finding.id));
  remote.options.inventory.findings = remote.options.inventory.findings.map((finding) =>
    remediated.has(finding.id) ? { ...finding, status: 'remediated', remediated_at: at, updated_at: at } : finding,
  );
  await server.sync!.syncNow(componentTestReplica);
  project.provide('consoleServer', { url: server.url, token: server.consoleToken });
  return async () => {
    await server.close();
    await remote.close();
  };
}
