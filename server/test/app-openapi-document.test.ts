import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleSessions } from '../secrets/console-sessions.js';
import { Store } from '../store/store.js';
import { SyncScheduler } from '../sync/sync-scheduler.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { identitySealer } from './support/identity-sealer.js';
import { consoleAppRouter } from '../console-app.js';
import { buildAppOpenApiDocument } from '../http/openapi/app-document.js';
import { openApiPath } from '../http/openapi/app-operations.js';

const document = buildAppOpenApiDocument();
const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  (['get', 'post', 'put', 'patch', 'delete'] as const).flatMap((method) => (item[method] ? [{ method, path, ...item[method] }] : [])),
);
const operationIds = operations.map((operation) => operation.operationId ?? '');

/** What the test reads of express's router: its layers, each a route or a mounted router. */
interface RouterLayer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle: { stack?: RouterLayer[] };
}

/** Every method and path an express router answers, with the paths it is mounted under, as OpenAPI writes them. */
function expressOperations(stack: RouterLayer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const methods = Object.keys(layer.route.methods).filter((method) => method !== '_all');
      return methods.map((method) => `${method.toUpperCase()} ${openApiPath(prefix + String(layer.route!.path))}`);
    }
    if (!layer.handle.stack) return [];
    const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
    return expressOperations(layer.handle.stack, prefix + mount);
  });
}

describe('the /app OpenAPI document', () => {
  let store: Store;
  let sync: SyncScheduler;
  let router: express.Router;
  let sessionDir: string;
  beforeAll(async () => {
    store = await Store.open();
    sync = new SyncScheduler({ store, sealer: identitySealer });
    sessionDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-openapi-'));
    // The /app router as the product wires it, every optional part present.
    router = consoleAppRouter({
      store,
      consoleToken: 'token',
      consoleLinks: { dataDir: sessionDir, sessions: ConsoleSessions.of(sessionDir) },
      baseUrl: () => '',
      signingSealer: identitySealer,
      sealer: identitySealer,
      sync,
      log: () => {},
    });
  });
  afterAll(async () => {
    await sync.stop();
    store.close();
    fs.rmSync(sessionDir, { recursive: true, force: true });
  });

  it('documents every route the app answers under /app, and nothing else', () => {
    const routes = expressOperations((router as unknown as { stack: RouterLayer[] }).stack, '/app');
    const documented = operations.map((operation) => `${operation.method.toUpperCase()} ${operation.path}`);
    expect(routes.length).toBeGreaterThan(20);
    expect(documented.sort()).toEqual(routes.sort());
  });

  it('passes an OpenAPI 3.1 validator', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('names every operation once, in camelCase, behind the console token or a script token, with the answers of the guards', () => {
    expect(new Set(operationIds).size).toBe(operationIds.length);
    for (const operation of operations) {
      const name = `${operation.method} ${operation.path}`;
      expect(operation.operationId, name).toMatch(/^[a-z][a-zA-Z]+$/);
      // Opening a session is the one operation whose credential is in its body: a console link's token.
      expect(operation.security, name).toEqual(operation.operationId === 'openSession' ? [] : [{ consoleToken: [] }, { scriptToken: [] }]);
      expect(Object.keys(operation.responses ?? {}), name).toEqual(expect.arrayContaining(['401', '421', '500']));
      if (operation.path.startsWith('/app/orgs/{slug}')) expect(Object.keys(operation.responses ?? {}), name).toEqual(expect.arrayContaining(['400', '404']));
    }
    expect(document.components?.securitySchemes).toEqual({
      consoleToken: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-console-token' }),
      scriptToken: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-console-script-token' }),
    });
  });

  it('names the operations after what they do', () => {
    expect(operationIds).toEqual(
      expect.arrayContaining([
        'getSession',
        'openSession',
        'endSession',
        'listSessions',
        'revokeSession',
        'signOutOtherSessions',
        'getConsoleOpenApiDocument',
        'listOrganizations',
        'connectOrganization',
        'disconnectOrganization',
        'getSyncOverview',
        'getSyncStatus',
        'startSync',
        'listSyncChanges',
        'getSyncChanges',
        'listConsoleEndpoints',
        'getConsoleVulnerabilityFinding',
        'getDashboard',
        'getScopeCoverage',
        'listCoverageGaps',
        'listApiKeys',
        'createApiKey',
        'revokeApiKey',
        'listExceptions',
        'createException',
        'updateException',
        'revokeException',
        'exportExceptions',
        'importExceptions',
        'exportEndpointsCsv',
        'exportVulnerabilityFindingsCsv',
        'downloadConsoleAgentConfig',
        'getSlaPolicy',
        'updateSlaPolicy',
        'getRemediationPerformance',
      ]),
    );
  });
});

describe('/app/openapi.json', () => {
  let server: ConsoleTestServer;
  beforeAll(async () => {
    server = await startConsoleTestServer([]);
  });
  afterAll(() => server.close());

  it('is served behind the console token', async () => {
    expect((await server.app('/openapi.json', { token: null })).status).toBe(401);
    const response = await server.app('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(JSON.parse(JSON.stringify(document)));
  });
});
