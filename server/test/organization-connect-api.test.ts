import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRemoteTenant } from '../organizations/manage-organizations.js';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import { type FakeRemote, startFakeRemote } from './support/fake-remote.js';
import { sampleInventory } from './support/sample-inventory.js';
import { fastPolicy } from './support/sync-fixtures.js';
import { smallInventory } from './support/fixtures.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';

let server: ConsoleTestServer;
let remote: FakeRemote;
let slowRemote: FakeRemote;
let sealerDir: string;
const sealer = () => keyFileSealer(path.join(sealerDir, 'sealing.key'));

beforeAll(async () => {
  sealerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-connect-api-'));
  remote = await startFakeRemote({ inventory: sampleInventory() });
  // Holds every list page, so that its sync is still running when it is disconnected.
  slowRemote = await startFakeRemote({ inventory: sampleInventory(), fault: (request) => (request.limit === 1 ? undefined : { delayMs: 60_000 }) });
  server = await startConsoleTestServer([{ slug: 'home', inventory: smallInventory(3, 5) }], { sealer: sealer(), syncPolicy: fastPolicy });
});
afterAll(async () => {
  await server.close();
  await remote.close();
  await slowRemote.close();
  fs.rmSync(sealerDir, { recursive: true, force: true });
});

const slugs = async () => ((await server.app('/organizations')).body.data as { slug: string }[]).map((o) => o.slug);

async function untilIdle(slug: string): Promise<void> {
  while (server.sync!.isRunning(slug)) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A plain server on a free port answering every request with `status` and `body`. */
async function plainServer(status: number, body: string): Promise<{ url: string; close: () => Promise<void> }> {
  const plain = http.createServer((_req, res) => res.writeHead(status, { 'content-type': 'text/html' }).end(body));
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(plain.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => plain.close(() => resolve())),
  };
}

describe('POST /app/organizations', () => {
  it('connects a replica (201, key sealed and never answered) and starts its first sync at once', async () => {
    const response = await server.app('/organizations', {
      method: 'POST',
      body: { slug: 'acme', name: 'Acme Corp', remoteUrl: `${remote.url}/`, apiKey: ` ${remote.apiKey} ` },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ slug: 'acme', name: 'Acme Corp', kind: 'replica', isDemo: false, remoteUrl: remote.url });
    expect(JSON.stringify(response.body)).not.toContain(remote.apiKey);
    expect(Object.keys(response.body)).not.toContain('rowId');
    expect(Object.keys(response.body)).not.toContain('inventoryId');

    const organization = server.store.organizations.bySlug('acme')!;
    expect(server.store.organizations.sealedSecret(organization.rowId, 'remote_key')?.toString()).not.toContain(remote.apiKey);
    expect(readRemoteTenant(server.store, sealer(), organization)).toEqual({ baseUrl: remote.url, apiKey: remote.apiKey, replica: 'acme' });

    expect(server.sync!.isRunning('acme')).toBe(true);
    await untilIdle('acme');
    const overview = await server.app('/sync');
    expect(overview.body.data).toEqual([
      expect.objectContaining({ org: 'acme', running: false, state: expect.objectContaining({ lastError: null, lastSuccessMode: 'full' }) }),
    ]);
    const endpoints = await server.app('/orgs/acme/endpoints?limit=1');
    expect(endpoints.body.total).toBe(sampleInventory().endpoints.length);
  });

  it('names the slug when it is taken (409), before asking the remote', async () => {
    const before = remote.requests.length;
    const response = await server.app('/organizations', { method: 'POST', body: { slug: 'home', remoteUrl: remote.url, apiKey: remote.apiKey } });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ error: 'An organization "home" exists already' });
    expect(remote.requests.length).toBe(before);
  });

  it("answers 422 with every field's issue, the name being optional", async () => {
    const response = await server.app('/organizations', {
      method: 'POST',
      body: { slug: 'Bad Slug', name: 'x'.repeat(201), remoteUrl: 'ftp://example.com', apiKey: 'two words' },
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatch(/^Invalid body: slug: /);
    expect(response.body.issues.map((issue: { field: string }) => issue.field)).toEqual(['slug', 'name', 'remoteUrl', 'apiKey']);
    expect(response.body.issues[2].message).toBe('must be an http or https URL without credentials, query or fragment');

    const missing = await server.app('/organizations', { method: 'POST', body: { slug: 'ok', extra: 1 } });
    expect(missing.status).toBe(422);
    expect(missing.body.issues).toEqual(
      expect.arrayContaining([
        { field: 'remoteUrl', message: 'is required' },
        { field: 'apiKey', message: 'is required' },
        expect.objectContaining({ field: 'body' }),
      ]),
    );
  });

  it('answers 400 to a body that is not a JSON object', async () => {
    for (const body of ['[]', '"acme"', '{"slug":']) {
      const response = await server.app('/organizations', { method: 'POST', body });
      expect(response.status).toBe(400);
      expect(typeof response.body.error).toBe('string');
    }
  });

  it('answers 502 saying why when the remote refuses the key, is not the API or cannot be reached; nothing is saved', async () => {
    const before = await slugs();
    const refused = await server.app('/organizations', { method: 'POST', body: { slug: 'wrong-key', remoteUrl: remote.url, apiKey: 'rc_wrong' } });
    expect(refused).toMatchObject({ status: 502, body: { error: `The remote tenant at ${remote.url} refused the API key (401 Unauthorized). Check the key: it must be an API key of this remote tenant.` } });

    const page = await plainServer(200, '<html>hello</html>');
    const notApi = await server.app('/organizations', { method: 'POST', body: { slug: 'not-api', remoteUrl: page.url, apiKey: 'k' } });
    expect(notApi).toMatchObject({ status: 502, body: { error: expect.stringMatching(`^${page.url} answered, but not as the Remediation Inventory v1 API. Check the address`) } });
    const failing = await plainServer(503, 'down');
    const down = await server.app('/organizations', { method: 'POST', body: { slug: 'down', remoteUrl: failing.url, apiKey: 'k' } });
    expect(down).toMatchObject({ status: 502, body: { error: `The remote tenant at ${failing.url} answered 503 Service Unavailable. The remote has a problem of its own: try again in a moment.` } });
    await page.close();
    await failing.close();
    const unreachable = await server.app('/organizations', { method: 'POST', body: { slug: 'gone', remoteUrl: page.url, apiKey: 'k' } });
    expect(unreachable).toMatchObject({ status: 502, body: { error: expect.stringMatching(`^The remote tenant could not be reached at ${page.url} \\(connection refused`) } });

    expect(await slugs()).toEqual(before);
    expect(server.sync!.isRunning('wrong-key')).toBe(false);
  });
});

describe('DELETE /app/orgs/:slug', () => {
  it('disconnects a replica: its sync interrupted, its data and key gone (204)', async () => {
    const connected = await server.app('/organizations', { method: 'POST', body: { slug: 'slow', remoteUrl: slowRemote.url, apiKey: slowRemote.apiKey } });
    expect(connected.status).toBe(201);
    while (!slowRemote.requests.some((request) => request.limit > 1)) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.sync!.isRunning('slow')).toBe(true);

    const response = await server.app('/orgs/slow', { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(server.sync!.isRunning('slow')).toBe(false);
    expect(await slugs()).not.toContain('slow');
    expect((await server.app('/orgs/slow/endpoints')).status).toBe(404);
    expect((await server.app('/orgs/slow', { method: 'DELETE' })).status).toBe(404);

    expect((await server.app('/orgs/acme', { method: 'DELETE' })).status).toBe(204);
    expect(await slugs()).toEqual(['home']);
  });

  it('refuses a local organization (409) and needs the console token', async () => {
    const local = await server.app('/orgs/home', { method: 'DELETE' });
    expect(local.status).toBe(409);
    expect(local.body.error).toMatch(/local organization/);
    expect((await server.app('/orgs/home', { method: 'DELETE', token: null })).status).toBe(401);
    expect(await slugs()).toEqual(['home']);
  });
});
