/**
 * `PATCH /app/orgs/:slug` (updateOrganization) through the app the server builds: a replica
 * follows its remote to a new address and key, checked before anything is saved, keeping its
 * data, exceptions, deadlines and change history; sync errors are sentences for people.
 */
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
let sealerDir: string;
const sealer = () => keyFileSealer(path.join(sealerDir, 'sealing.key'));
const policy = { critical: 3, high: 5, medium: 7, low: 9, info: 11, kev: 2 };

beforeAll(async () => {
  sealerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-update-api-'));
  remote = await startFakeRemote({ inventory: sampleInventory(), apiKey: 'key-of-the-first-address' });
  server = await startConsoleTestServer([{ slug: 'home', inventory: smallInventory(3, 5) }], { sealer: sealer(), syncPolicy: fastPolicy });
});
afterAll(async () => {
  await server.close();
  await remote.close();
  fs.rmSync(sealerDir, { recursive: true, force: true });
});

/**
 * A listener at a new address that records the Authorization header of every request and
 * refuses each (401): what a stranger at the address typed would read.
 */
async function startRecordingListener(): Promise<{ url: string; authorizations: string[]; close(): Promise<void> }> {
  const authorizations: string[] = [];
  const listener = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization ?? '(none)');
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    authorizations,
    close: () => new Promise((resolve) => listener.close(() => resolve())),
  };
}

const tenantOf = (slug: string) => readRemoteTenant(server.store, sealer(), server.store.organizations.bySlug(slug)!);
const patch = (slug: string, body: unknown) => server.app(`/orgs/${slug}`, { method: 'PATCH', body });

describe('a remote URL typed with its /v1', () => {
  it('connects with the URL the console shows (`…/v1` or `…/v1/`), stored without it', async () => {
    const response = await server.app('/organizations', {
      method: 'POST',
      body: { slug: 'acme', name: 'Acme', remoteUrl: `${remote.url}/v1/`, apiKey: remote.apiKey },
    });
    expect(response.status).toBe(201);
    expect(response.body.remoteUrl).toBe(remote.url);
    const status = await server.syncEnded('acme');
    expect(status.state.lastError).toBeNull();
  });
});

describe('PATCH /app/orgs/:slug', () => {
  it("changes a replica's name alone, asking the remote nothing", async () => {
    const before = remote.requests.length;
    const { id } = server.store.organizations.bySlug('acme')!;
    const response = await patch('acme', { name: ' Acme Corp ' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id, slug: 'acme', name: 'Acme Corp', kind: 'replica', remoteUrl: remote.url });
    expect(remote.requests.length).toBe(before);
    expect(server.sync!.isRunning('acme')).toBe(false);
  });

  it('saves nothing when the new address or key does not answer (502 saying what failed and what to check)', async () => {
    const tenant = tenantOf('acme');
    const wrongKey = await patch('acme', { apiKey: 'rc_wrong' });
    expect(wrongKey.status).toBe(502);
    expect(wrongKey.body.error).toBe(
      `The remote tenant at ${remote.url} refused the API key (401 Unauthorized). Check the key: it must be an API key of this remote tenant.`,
    );

    const nowhere = await startFakeRemote({ inventory: sampleInventory() });
    await nowhere.close();
    const unreachable = await patch('acme', { remoteUrl: `${nowhere.url}/v1`, apiKey: 'rc_for_the_new_address', name: 'Not saved' });
    expect(unreachable.status).toBe(502);
    expect(unreachable.body.error).toBe(
      `The remote tenant could not be reached at ${nowhere.url} (connection refused: nothing listens there). ` +
        "Check the address: the remote tenant's base URL, with or without /v1, and that the remote is running there.",
    );
    expect(tenantOf('acme')).toEqual(tenant);
    expect(server.store.organizations.bySlug('acme')!.name).toBe('Acme Corp');
  });

  it('never sends the stored key to a new address: a new URL needs its key in the same request (400 naming apiKey)', async () => {
    const tenant = tenantOf('acme')!;
    const listener = await startRecordingListener();
    try {
      const reason = 'a new address needs its key: the stored key is never sent to another address';
      for (const body of [{ remoteUrl: listener.url }, { remoteUrl: `${listener.url}/v1/`, name: 'Not saved' }]) {
        const refused = await patch('acme', body);
        expect(refused.status).toBe(400);
        expect(refused.body).toEqual({ error: `Invalid body field "apiKey": ${reason}`, issues: [{ field: 'apiKey', message: reason }] });
      }
      expect(listener.authorizations).toEqual([]);
      expect(tenantOf('acme')).toEqual(tenant);
      expect(server.store.organizations.bySlug('acme')!.name).toBe('Acme Corp');

      // With its own key, the new address is asked with that key only; it refuses it, and nothing is saved.
      const withKey = await patch('acme', { remoteUrl: listener.url, apiKey: 'rc_key_for_the_listener' });
      expect(withKey.status).toBe(502);
      expect(listener.authorizations).toEqual(['Bearer rc_key_for_the_listener']);
      expect(listener.authorizations.join()).not.toContain(tenant.apiKey);
      expect(tenantOf('acme')).toEqual(tenant);
    } finally {
      await listener.close();
    }

    // The same address as typed differently (a trailing slash, /v1, /v1/) is no new address: the stored key stays and is checked there.
    for (const same of [`${remote.url}/`, `${remote.url}/v1`, `${remote.url}/v1/`]) {
      const kept = await patch('acme', { remoteUrl: same });
      expect(kept.status, same).toBe(200);
      expect(kept.body.remoteUrl).toBe(remote.url);
    }
    expect(tenantOf('acme')).toEqual(tenant);
    // The sync that the change started ends before the next test moves the remote.
    expect((await server.syncEnded('acme')).state.lastError).toBeNull();
  });

  it("answers each field's issue (422), a body that is not an object (400), an unknown slug (404)", async () => {
    const invalid = await patch('acme', { name: ' ', remoteUrl: 'ftp://example.com', apiKey: 'two words', slug: 'renamed' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.issues.map((issue: { field: string }) => issue.field)).toEqual(['name', 'remoteUrl', 'apiKey', 'body']);
    expect((await server.app('/orgs/acme', { method: 'PATCH', body: '[]' })).status).toBe(400);
    expect((await patch('nobody', { name: 'x' })).status).toBe(404);
    expect((await patch('acme', {})).body.name).toBe('Acme Corp');
  });

  it("changes a local organization's name, and refuses it a remote URL or key (400)", async () => {
    expect((await patch('home', { name: 'Home office' })).body).toMatchObject({ slug: 'home', name: 'Home office', kind: 'local', remoteUrl: null });
    for (const body of [{ remoteUrl: remote.url }, { apiKey: 'k' }]) {
      const refused = await patch('home', body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('"home" is a local organization: it has no remote URL or key, only its name can change');
    }
    expect(server.store.organizations.bySlug('home')!.remoteUrl).toBeNull();
  });

  it('follows the remote to a new address and key: the sync error says so first, then the data, exceptions, deadlines and history stay', async () => {
    const organization = server.store.organizations.bySlug('acme')!;
    const finding = remote.options.inventory.findings[0]!;
    const exception = await server.app('/orgs/acme/exceptions', {
      method: 'POST',
      body: { scope: { kind: 'finding', finding_id: finding.id }, reason: 'false_positive', note: 'kept', expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString() },
    });
    expect(exception.status).toBe(201);
    expect((await server.app('/orgs/acme/sla-policy', { method: 'PUT', body: policy })).status).toBe(200);
    const history = (await server.app('/orgs/acme/sync-changes')).body;
    expect(history.data.length).toBeGreaterThan(0);

    // The remote moves to a new port with a new key; the old address answers nothing.
    const inventory = remote.options.inventory;
    await remote.close();
    const moved = await startFakeRemote({ inventory, apiKey: 'key-of-the-new-address' });
    try {
      await server.app('/orgs/acme/sync', { method: 'POST' });
      const failed = await server.syncEnded('acme');
      expect(failed.state.lastError).toBe(
        `The remote tenant could not be reached at ${remote.url} (connection refused: nothing listens there). ` +
          `Check that the remote runs at this address; if it has moved, change the replica's URL: Edit in the Organizations view, ` +
          `or "remediation-console orgs update --slug acme --remote URL".\nDetail: GET /v1/scopes, 2 attempts.`,
      );

      const renamed = { ...inventory.endpoints[0]!, hostname: 'moved-host', updated_at: new Date().toISOString() };
      inventory.endpoints = [renamed, ...inventory.endpoints.slice(1)];
      const response = await patch('acme', { remoteUrl: `${moved.url}/v1`, apiKey: moved.apiKey });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: organization.id, remoteUrl: moved.url });
      expect(JSON.stringify(response.body)).not.toContain(moved.apiKey);
      expect(tenantOf('acme')).toEqual({ baseUrl: moved.url, apiKey: moved.apiKey, replica: 'acme' });

      // The update started the sync, which reads the new address and key.
      const synced = await server.syncEnded('acme');
      expect(synced.state.lastError).toBeNull();
      expect(moved.requests.length).toBeGreaterThan(0);
      expect((await server.app(`/orgs/acme/endpoints/${renamed.id}`)).body.hostname).toBe('moved-host');
      expect(await server.appAll('/orgs/acme/endpoints')).toHaveLength(inventory.endpoints.length);

      expect(server.store.organizations.bySlug('acme')!.rowId).toBe(organization.rowId);
      const exceptions = (await server.app('/orgs/acme/exceptions')).body.data as { id: string; note: string }[];
      expect(exceptions.map((e) => [e.id, e.note])).toEqual([[exception.body.id, 'kept']]);
      expect((await server.app('/orgs/acme/sla-policy')).body).toMatchObject(policy);
      const after = (await server.app('/orgs/acme/sync-changes')).body.data as { id: string }[];
      expect(after.map((entry) => entry.id)).toEqual(expect.arrayContaining(history.data.map((entry: { id: string }) => entry.id)));

      // A key the remote no longer takes: the sentence says to give the replica a new one.
      moved.options.fault = () => ({ status: 401 });
      await server.app('/orgs/acme/sync', { method: 'POST' });
      expect((await server.syncEnded('acme')).state.lastError).toBe(
        `The remote tenant at ${moved.url} refused the API key (401 Unauthorized). If its key was rotated or revoked, give the replica a new one: ` +
          `Edit in the Organizations view, or "remediation-console orgs update --slug acme --api-key-file FILE".\nDetail: GET /v1/scopes.`,
      );
    } finally {
      await moved.close();
    }
  });
});
