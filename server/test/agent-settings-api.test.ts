/**
 * An organization's agent settings and the preview of its files, through the product's /app:
 * read, updated, every bad value refused with nothing saved, kept across a replica's full sync.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentConfigPreviewSchema, agentSettingsSchema, defaultAgentBundleId } from '../../contracts/console/agent-settings.js';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { type FakeRemote, startFakeRemote } from './support/fake-remote.js';
import { smallInventory } from './support/fixtures.js';
import { sampleInventory } from './support/sample-inventory.js';
import { fastPolicy } from './support/sync-fixtures.js';

let server: ConsoleTestServer;
let remote: FakeRemote;
let sealerDir: string;

beforeAll(async () => {
  sealerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-agent-settings-'));
  remote = await startFakeRemote({ inventory: sampleInventory() });
  server = await startConsoleTestServer(
    [
      { slug: 'acme', inventory: smallInventory(5, 2) },
      { slug: 'fresh', inventory: smallInventory(3, 1) },
    ],
    { sealer: keyFileSealer(path.join(sealerDir, 'sealing.key')), syncPolicy: fastPolicy },
  );
  expect((await server.app('/organizations', { method: 'POST', body: { slug: 'replica', remoteUrl: remote.url, apiKey: remote.apiKey } })).status).toBe(201);
  await server.syncEnded('replica');
});
afterAll(async () => {
  await server.close();
  await remote.close();
  fs.rmSync(sealerDir, { recursive: true, force: true });
});

const settingsOf = async (slug: string) => {
  const { status, body } = await server.app(`/orgs/${slug}/agent-settings`);
  expect(status).toBe(200);
  // Exactly the contract's fields.
  expect(agentSettingsSchema.strict().parse(body)).toEqual(body);
  return body;
};
const put = (slug: string, body: unknown) => server.app(`/orgs/${slug}/agent-settings`, { method: 'PUT', body });
const preview = (slug: string, query: string) => server.app(`/orgs/${slug}/agent-config/preview?${query}`);

describe('GET and PUT /app/orgs/{slug}/agent-settings', () => {
  it('answers a new organization with nothing set, and what its files need', async () => {
    expect(await settingsOf('fresh')).toEqual({ serverUrl: null, teamId: null, bundleId: defaultAgentBundleId, isDemo: false, warnings: [], missing: ['serverUrl', 'teamId'] });
  });

  it('saves what is given, keeps what is not, and answers the settings', async () => {
    const saved = await put('acme', { serverUrl: 'https://agents.acme.example:8443/rc', teamId: 'Q7M3K9D2XP' });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ serverUrl: 'https://agents.acme.example:8443/rc', teamId: 'Q7M3K9D2XP', bundleId: defaultAgentBundleId, isDemo: false, warnings: [], missing: [] });
    expect((await put('acme', { bundleId: 'com.acme.remediation-agent' })).body).toMatchObject({ serverUrl: 'https://agents.acme.example:8443/rc', teamId: 'Q7M3K9D2XP', bundleId: 'com.acme.remediation-agent' });
    expect(await settingsOf('acme')).toMatchObject({ bundleId: 'com.acme.remediation-agent' });
    // A cleared bundle id is the default again.
    expect((await put('acme', { bundleId: null })).body.bundleId).toBe(defaultAgentBundleId);
    // The other organization's are its own.
    expect((await settingsOf('fresh')).serverUrl).toBeNull();
  });

  it('accepts plain http for a host that is not loopback, with a warning', async () => {
    const { status, body } = await put('fresh', { serverUrl: 'http://agents.lan.example' });
    expect(status).toBe(200);
    expect(body.serverUrl).toBe('http://agents.lan.example');
    expect(body.warnings).toEqual([expect.stringMatching(/plain http.*unencrypted/)]);
    expect(body.missing).toEqual(['teamId']);
    expect((await put('fresh', { serverUrl: null })).body.missing).toEqual(['serverUrl', 'teamId']);
  });

  it('accepts a loopback address only when told to, with a warning', async () => {
    expect((await put('fresh', { serverUrl: 'http://127.0.0.1:7300' })).status).toBe(400);
    const { status, body } = await put('fresh', { serverUrl: 'http://127.0.0.1:7300', allowLoopback: true });
    expect(status).toBe(200);
    expect(body.warnings).toEqual([expect.stringMatching(/loopback address \(127\.0\.0\.1\)/), expect.stringMatching(/plain http/)]);
    await put('fresh', { serverUrl: null });
  });

  it('warns of a Team ID that looks like a placeholder', async () => {
    for (const teamId of ['ABCDE12345', '0123456789', 'AAAAAAAAAA']) {
      expect((await put('fresh', { teamId })).body.warnings, teamId).toEqual([expect.stringMatching(/looks like a placeholder/)]);
    }
    expect((await put('fresh', { teamId: null })).body.warnings).toEqual([]);
  });

  it.each([
    [{ serverUrl: 'agents.acme.example' }, 'serverUrl', /absolute URL/],
    [{ serverUrl: 'ftp://agents.acme.example' }, 'serverUrl', /https URL/],
    [{ serverUrl: 'https://agents.acme .example' }, 'serverUrl', /without spaces/],
    [{ serverUrl: 'https://user:pw@agents.acme.example' }, 'serverUrl', /without user, password, query or fragment/],
    [{ serverUrl: 'https://agents.acme.example/?org=1' }, 'serverUrl', /query/],
    [{ serverUrl: 'https://127.0.0.1:7300' }, 'serverUrl', /loopback address \(127\.0\.0\.1\).*never enroll/],
    [{ serverUrl: 'http://127.8.9.10' }, 'serverUrl', /loopback/],
    [{ serverUrl: 'http://2130706433:7300' }, 'serverUrl', /loopback address \(127\.0\.0\.1\)/],
    [{ serverUrl: 'http://localhost:7300' }, 'serverUrl', /loopback/],
    [{ serverUrl: 'https://agents.localhost' }, 'serverUrl', /loopback/],
    [{ serverUrl: 'http://0.0.0.0:7300' }, 'serverUrl', /loopback/],
    [{ serverUrl: 'https://[::1]:7300' }, 'serverUrl', /loopback/],
    [{ serverUrl: 'https://[::ffff:127.0.0.1]' }, 'serverUrl', /loopback/],
    [{ serverUrl: 42 }, 'serverUrl', /string/],
    [{ teamId: 'q7m3k9d2xp' }, 'teamId', /10 characters.*A–Z.*0–9/],
    [{ teamId: 'Q7M3K9D2X' }, 'teamId', /10 characters/],
    [{ teamId: 'Q7M3K-D2XP' }, 'teamId', /10 characters/],
    [{ bundleId: 'agent' }, 'bundleId', /reverse-DNS/],
    [{ bundleId: 'com.acme agent' }, 'bundleId', /reverse-DNS/],
    [{ bundleId: 'com..acme' }, 'bundleId', /reverse-DNS/],
    [{ allowLoopback: 'yes' }, 'allowLoopback', /boolean/],
    [{ color: 'red' }, 'color', /not an agent setting/],
    [[], 'body', /JSON object/],
    ['{"serverUrl": ', 'body', /not JSON/],
  ])('answers 400 to %j naming the field, and saves nothing', async (body, field, message) => {
    await put('acme', { serverUrl: 'https://agents.acme.example', teamId: 'Q7M3K9D2XP', bundleId: null });
    const before = await settingsOf('acme');
    // A good value beside the bad one is not saved either.
    const sent = typeof body === 'object' && !Array.isArray(body) && !('serverUrl' in body) ? { ...body, serverUrl: 'https://other.acme.example' } : body;
    const { status, body: answer } = await put('acme', sent);
    expect(status).toBe(400);
    expect(answer.issues).toEqual([{ field, message: expect.stringMatching(message) }]);
    expect(answer.error).toMatch(new RegExp(`Invalid body field "${field}"`));
    expect(await settingsOf('acme')).toEqual(before);
  });

  it('names every bad field at once', async () => {
    const before = await settingsOf('acme');
    const { status, body } = await put('acme', { serverUrl: 'http://localhost', teamId: 'short', bundleId: 'x' });
    expect(status).toBe(400);
    expect(body.issues.map((issue: { field: string }) => issue.field)).toEqual(['serverUrl', 'teamId', 'bundleId']);
    expect(await settingsOf('acme')).toEqual(before);
  });

  it('answers 404 for an unknown organization', async () => {
    expect((await server.app('/orgs/nobody/agent-settings')).status).toBe(404);
    expect((await put('nobody', { teamId: 'Q7M3K9D2XP' })).status).toBe(404);
  });

  it("keeps a replica's settings across a full sync, and asks nothing of a replica", async () => {
    const saved = await put('replica', { serverUrl: 'https://agents.replica.example', teamId: 'K4P8R2M6TQ' });
    expect(saved.status).toBe(200);
    expect(saved.body.missing).toEqual([]);
    expect((await server.app('/orgs/replica/sync?full=true', { method: 'POST' })).status).toBe(202);
    expect((await server.syncEnded('replica')).state).toMatchObject({ lastSuccessMode: 'full', lastError: null });
    expect(await settingsOf('replica')).toEqual(saved.body);
  });
});

describe('GET /app/orgs/{slug}/agent-config/preview', () => {
  it('says what the file will hold, and what must be set first', async () => {
    await put('acme', { serverUrl: 'https://agents.acme.example', teamId: 'Q7M3K9D2XP', bundleId: 'com.acme.agent' });
    const acmeId = server.orgs[0]!.organization.id;
    const full = await preview('acme', 'platform=macos&profile=mdm-full');
    expect(full.status).toBe(200);
    expect(agentConfigPreviewSchema.strict().parse(full.body)).toEqual(full.body);
    expect(full.body).toMatchObject({
      platform: 'macos',
      profile: 'mdm-full',
      source: 'local',
      organizationId: acmeId,
      serverUrl: 'https://agents.acme.example',
      teamId: 'Q7M3K9D2XP',
      bundleId: 'com.acme.agent',
      holdsEnrollmentSecret: true,
      needsUserApprovedMdm: true,
      // Test organizations of this server have no enrollment secret.
      missing: ['enrollmentSecret'],
    });
    expect(full.body.contents.length).toBeGreaterThan(1);

    const permissions = (await preview('acme', 'platform=macos&profile=mdm-permissions')).body;
    expect(permissions).toMatchObject({ holdsEnrollmentSecret: false, needsUserApprovedMdm: true });
    expect(permissions.contents.length).toBe(full.body.contents.length - 1);
    // The config ZIP's plist is named for the configured bundle id; the profile defaults to config.
    const zip = (await preview('acme', 'platform=macos')).body;
    expect(zip).toMatchObject({ profile: 'config', holdsEnrollmentSecret: true, needsUserApprovedMdm: false });
    expect(zip.contents).toContain('com.acme.agent.plist');
  });

  it('lists the server URL always, and the Team ID for the profiles that pin it', async () => {
    await put('fresh', { serverUrl: null, teamId: null });
    expect((await preview('fresh', 'platform=linux')).body.missing).toEqual(['serverUrl', 'enrollmentSecret']);
    expect((await preview('fresh', 'platform=macos&profile=mdm-permissions')).body.missing).toEqual(['serverUrl', 'teamId', 'enrollmentSecret']);
    await put('fresh', { serverUrl: 'https://agents.fresh.example' });
    expect((await preview('fresh', 'platform=windows')).body).toMatchObject({ serverUrl: 'https://agents.fresh.example', teamId: null, missing: ['enrollmentSecret'] });
  });

  it("answers a replica's as its remote tenant's file", async () => {
    const { status, body } = await preview('replica', 'platform=macos&profile=mdm-full');
    expect(status).toBe(200);
    expect(body).toMatchObject({ source: 'remote', serverUrl: null, teamId: null, bundleId: null, missing: [], holdsEnrollmentSecret: true });
  });

  it.each([
    ['', /"platform": is required/],
    ['platform=solaris', /"platform"/],
    ['platform=windows&profile=mdm-full', /combination/],
    ['platform=macos&platform=linux', /more than once/],
  ])('answers 400 to ?%s', async (query, message) => {
    const { status, body } = await preview('acme', query);
    expect(status).toBe(400);
    expect(body.error).toMatch(message);
  });
});
