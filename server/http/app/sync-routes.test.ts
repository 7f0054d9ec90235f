import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, expect, it } from 'vitest';
import { resolveOrganization } from './organization-param.js';
import { HttpError, sendError } from '../http-error.js';
import { keyFileSealer } from '../../secrets/key-file-sealer.js';
import { startFakeRemote } from '../../test/support/fake-remote.js';
import { sampleInventory } from '../../test/support/sample-inventory.js';
import { syncRoutes } from './sync-routes.js';
import { SyncScheduler } from '../../sync/sync-scheduler.js';
import { fastPolicy, storeWithReplica } from '../../test/support/sync-fixtures.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

it('starts a sync with POST /sync, joins a running one, and answers its status with GET /sync', async () => {
  const remote = await startFakeRemote({ inventory: sampleInventory(), fault: () => ({ delayMs: 20 }) });
  cleanups.push(() => remote.close());
  const { store, organization } = await storeWithReplica(remote.url);
  const sealerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-sync-routes-'));
  cleanups.push(() => fs.rmSync(sealerDir, { recursive: true, force: true }), () => store.close());
  const sealer = keyFileSealer(path.join(sealerDir, 'sealing.key'));
  store.write(() => {
    store.organizations.setSealedSecret(organization.rowId, 'remote_key', sealer.seal(Buffer.from(remote.apiKey)));
    store.organizations.insert({ slug: 'local', name: 'Local', kind: 'local' });
  });
  const scheduler = new SyncScheduler({ store, sealer, policy: fastPolicy });
  cleanups.push(() => scheduler.stop());

  // The organization router of /app, as app-router.ts builds it, with its error answers.
  const app = express();
  app.use('/app/orgs/:slug', resolveOrganization(store), syncRoutes(scheduler));
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    sendError(res, error instanceof HttpError ? error.status : 500, error instanceof Error ? error.message : 'error');
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/app/orgs`;

  const started = await fetch(`${base}/replica/sync`, { method: 'POST' });
  expect(started.status).toBe(202);
  expect(await started.json()).toMatchObject({ alreadyRunning: false, status: { org: 'replica', running: true } });
  const joined = await fetch(`${base}/replica/sync?full=true`, { method: 'POST' });
  expect(await joined.json()).toMatchObject({ alreadyRunning: true });
  const running = (await (await fetch(`${base}/replica/sync`)).json()) as { running: boolean; progress: unknown };
  expect(running.running).toBe(true);
  expect(running.progress).toMatchObject({ org: 'replica' });
  while (scheduler.isRunning('replica')) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await (await fetch(`${base}/replica/sync`)).json()).toMatchObject({
    running: false,
    progress: null,
    state: { lastSuccessMode: 'full', lastError: null, counts: { endpoints: 30, scopes: 5 } },
  });

  expect((await fetch(`${base}/local/sync`, { method: 'POST' })).status).toBe(409);
  expect((await fetch(`${base}/replica/sync?full=yes`, { method: 'POST' })).status).toBe(400);
  expect((await fetch(`${base}/nobody/sync`)).status).toBe(404);
});
