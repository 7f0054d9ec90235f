import type { TestProject } from 'vitest/node';
import { startConsoleTestServer } from './console-test-server.js';
import { smallInventory } from './fixtures.js';

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

/**
 * The global setup of the renderer's component tests (vitest.config.ts): one console server, as
 * the product builds it, on a real loopback port, for every renderer test file; closed at the end.
 */
export default async function startComponentTestServer(project: TestProject): Promise<() => Promise<void>> {
  const server = await startConsoleTestServer(componentTestOrganizations.map((slug) => ({ slug, inventory: smallInventory(1) })));
  project.provide('consoleServer', { url: server.url, token: server.consoleToken });
  return () => server.close();
}
