import { type ChildProcessWithoutNullStreams, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAgentSettings } from '../../contracts/console/agent-settings.js';
import { ensureDemoOrganization } from '../organizations/ensure-demo-organization.js';
import { connectReplicaOrganization } from '../organizations/manage-organizations.js';
import { apiGet } from './support/api-client.js';
import { cliBinary } from './support/cli-binary.js';
import { smallInventory } from './support/fixtures.js';
import { type TestServer, startTestServer, testAgentSettings } from './support/test-server.js';

let server: TestServer;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-agent-api-'));
const inventory = smallInventory(21, 3);

beforeAll(async () => {
  server = await startTestServer([
    { slug: 'acme', inventory },
    { slug: 'nosecret', inventory, enrollmentSecret: false },
    { slug: 'nourl', inventory, agentSettings: null },
    { slug: 'noteam', inventory, agentSettings: { serverUrl: 'https://agents.noteam.example', teamId: null } },
  ]);
});
afterAll(async () => {
  await server.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const acme = () => server.orgs[0]!;

async function download(query: string, key = acme().apiKey) {
  const response = await fetch(`${server.url}/v1/agent/config${query}`, { headers: { Authorization: `Bearer ${key}` } });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Runs the real `openssl cms -verify` against a certificate; returns its exit status. */
function opensslVerify(signature: Buffer, certificatePem: string, detachedContent?: Buffer): number {
  const dir = fs.mkdtempSync(path.join(work, 'v-'));
  fs.writeFileSync(path.join(dir, 'sig'), signature);
  fs.writeFileSync(path.join(dir, 'cert.pem'), certificatePem);
  const args = ['cms', '-verify', '-binary', '-inform', 'DER', '-in', path.join(dir, 'sig'), '-CAfile', path.join(dir, 'cert.pem'), '-purpose', 'any', '-out', path.join(dir, 'out')];
  if (detachedContent) {
    fs.writeFileSync(path.join(dir, 'content'), detachedContent);
    args.push('-content', path.join(dir, 'content'));
  }
  return spawnSync('openssl', args).status ?? -1;
}

/** The entries of a ZIP, read by Python's zipfile (independent of the product's zip library). */
function unzip(bytes: Buffer): Record<string, Buffer> {
  const file = path.join(work, `z-${Math.random()}.zip`);
  fs.writeFileSync(file, bytes);
  const json = execFileSync('python3', ['-c', 'import zipfile,sys,json,base64; z=zipfile.ZipFile(sys.argv[1]); print(json.dumps({n: base64.b64encode(z.read(n)).decode() for n in z.namelist()}))', file]);
  return Object.fromEntries(Object.entries(JSON.parse(json.toString()) as Record<string, string>).map(([name, data]) => [name, Buffer.from(data, 'base64')]));
}

describe('GET /v1/agent/config', () => {
  it('answers 401 before anything else', async () => {
    for (const query of ['', '?platform=windows&profile=mdm-full', '?platform=macos']) {
      const response = await apiGet(server.url, `/v1/agent/config${query}`);
      expect(response.status).toBe(401);
    }
  });

  it.each([
    ['', /"platform": is required/],
    ['?profile=config', /"platform": is required/],
    ['?platform=solaris', /"platform": must be one of linux, macos, windows/],
    ['?platform=MACOS', /"platform"/],
    ['?platform=macos&profile=full', /"profile": must be one of config, mdm-full, mdm-permissions/],
    ['?platform=macos&platform=linux', /"platform" is given more than once/],
    ['?platform=windows&profile=mdm-full', /combination.*"mdm-full".*"macos".*"windows"/],
    ['?platform=linux&profile=mdm-permissions', /combination.*"mdm-permissions".*"linux"/],
  ])('answers 400 to %s with a message naming the problem', async (query, message) => {
    const response = await apiGet(server.url, `/v1/agent/config${query}`, { key: acme().apiKey });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(message);
  });

  it('answers 409 with what to do when the organization has no enrollment secret', async () => {
    const response = await apiGet(server.url, '/v1/agent/config?platform=linux', { key: server.orgs[1]!.apiKey });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatch(/no enrollment secret.*orgs enrollment-secret --org nosecret --rotate/);
  });

  it('answers 409 naming the server URL and the command that sets it when the organization has none', async () => {
    for (const query of ['?platform=linux', '?platform=windows', '?platform=macos&profile=mdm-permissions']) {
      const response = await apiGet(server.url, `/v1/agent/config${query}`, { key: server.orgs[2]!.apiKey });
      expect(response.status, query).toBe(409);
      expect(response.body.error).toMatch(/"nourl" has no server URL/);
      expect(response.body.error).toContain('remediation-console orgs agent-settings --org nourl --server-url URL');
    }
  });

  it('answers 409 naming the Team ID for the MDM profiles, which pin it, and makes the other files without it', async () => {
    for (const profile of ['mdm-full', 'mdm-permissions']) {
      const response = await apiGet(server.url, `/v1/agent/config?platform=macos&profile=${profile}`, { key: server.orgs[3]!.apiKey });
      expect(response.status, profile).toBe(409);
      expect(response.body.error).toMatch(/"noteam" has no Team ID/);
      expect(response.body.error).toContain('remediation-console orgs agent-settings --org noteam --team-id ID');
    }
    const zip = await download('?platform=macos&profile=config', server.orgs[3]!.apiKey);
    expect(zip.response.status).toBe(200);
  });

  it('answers 405 to other methods', async () => {
    const response = await apiGet(server.url, '/v1/agent/config?platform=linux', { key: acme().apiKey, method: 'POST' });
    expect(response.status).toBe(405);
  });

  it.each([
    ['macos', 'mdm-full', '.mobileconfig'],
    ['macos', 'mdm-permissions', '.mobileconfig'],
  ])('signs %s %s as a profile openssl verifies with the organization certificate', async (platform, profile, extension) => {
    const { response, bytes } = await download(`?platform=${platform}&profile=${profile}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="remediation-agent-acme-${platform}-${profile}${extension}"`);
    expect(opensslVerify(bytes, acme().organization.certificatePem!)).toBe(0);
    expect(opensslVerify(bytes, server.orgs[1]!.organization.certificatePem!)).not.toBe(0);
    // The organization's settings, never the server's own loopback address.
    expect(bytes.includes(testAgentSettings('acme').teamId)).toBe(true);
    if (profile === 'mdm-full') expect(bytes.includes(testAgentSettings('acme').serverUrl)).toBe(true);
    expect(bytes.includes('127.0.0.1')).toBe(false);
    const tampered = Buffer.from(bytes);
    const at = tampered.indexOf('PayloadIdentifier');
    tampered[at] = tampered[at]! ^ 1;
    expect(opensslVerify(tampered, acme().organization.certificatePem!)).not.toBe(0);
  });

  it.each(['macos', 'windows', 'linux'])('signs the %s config ZIP: every file with a detached signature openssl verifies', async (platform) => {
    const { response, bytes } = await download(`?platform=${platform}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="remediation-agent-acme-${platform}-config.zip"`);
    const entries = unzip(bytes);
    expect(entries['signer.pem']?.toString()).toBe(acme().organization.certificatePem);
    const signed = Object.keys(entries).filter((name) => !name.endsWith('.p7s') && name !== 'signer.pem');
    expect(signed.length).toBeGreaterThan(0);
    for (const name of signed) {
      const signature = entries[`${name}.p7s`]!;
      expect(opensslVerify(signature, acme().organization.certificatePem!, entries[name])).toBe(0);
      const text = entries[name]!.toString(name.endsWith('.reg') ? 'utf16le' : 'utf8');
      expect(text).toContain(acme().organization.id);
      expect(text).toContain(testAgentSettings('acme').serverUrl);
      expect(text).not.toContain('127.0.0.1');
    }
  });

  it('records a new config id in every file', async () => {
    const first = await download('?platform=macos&profile=mdm-permissions');
    const second = await download('?platform=macos&profile=mdm-permissions');
    expect(first.bytes.equals(second.bytes)).toBe(false);
  });
});

describe('GET /v1/agent/config of a replica organization', () => {
  let remote: ChildProcessWithoutNullStreams;
  const remoteDir = path.join(work, 'remote');
  let remoteUrl = '';
  let remoteKey = '';

  beforeAll(async () => {
    remote = spawn(process.execPath, [cliBinary, 'serve', '--port', '0', '--data-dir', remoteDir]);
    let output = '';
    await new Promise<void>((resolve, reject) => {
      remote.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/\n {2}rc_\S+\n/.test(output)) resolve();
      });
      remote.once('exit', () => reject(new Error(`the remote exited:\n${output}`)));
    });
    remoteUrl = /listening on (\S+)/.exec(output)![1]!;
    remoteKey = /\n {2}(rc_\S+)\n/.exec(output)![1]!;
  });
  afterAll(() => {
    remote.kill('SIGKILL');
  });

  it('passes the remote tenant\'s file through, signed by the remote organization', async () => {
    const replica = await connectReplicaOrganization(server.store, server.sealer, { slug: 'replica', remoteUrl, apiKey: remoteKey });
    const key = server.store.write(() => server.store.apiKeys.create(replica.rowId, null).key, { changes: ['api-keys'] });
    const { response, bytes } = await download('?platform=macos&profile=mdm-full', key);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="remediation-agent-demo-macos-mdm-full.mobileconfig"');
    const remoteCert = spawnSync(process.execPath, [cliBinary, 'orgs', 'cert', '--org', 'demo', '--data-dir', remoteDir], { encoding: 'utf8' }).stdout;
    expect(opensslVerify(bytes, remoteCert)).toBe(0);
    expect(opensslVerify(bytes, acme().organization.certificatePem!)).not.toBe(0);
  });

  it('refuses to connect with a key the remote refuses, saving nothing', async () => {
    await expect(connectReplicaOrganization(server.store, server.sealer, { slug: 'bad', remoteUrl, apiKey: 'rc_wrong' })).rejects.toThrow(/refused the API key/);
    expect(server.store.organizations.bySlug('bad')).toBeUndefined();
  });

  it('answers 502 when the remote tenant cannot be reached', async () => {
    const replica = server.store.organizations.bySlug('replica')!;
    const key = server.store.write(() => server.store.apiKeys.create(replica.rowId, null).key, { changes: ['api-keys'] });
    remote.kill('SIGKILL');
    await new Promise((resolve) => remote.once('exit', resolve));
    const response = await apiGet(server.url, '/v1/agent/config?platform=linux', { key });
    expect(response.status).toBe(502);
    expect(response.body.error).toMatch(/could not be reached/);
  });
});

describe('the demo organization', () => {
  let demoServer: TestServer;
  beforeAll(async () => {
    demoServer = await startTestServer([]);
  });
  afterAll(async () => {
    await demoServer.close();
  });

  it("makes its files at once, with the demo's fictitious settings", async () => {
    const key = (await ensureDemoOrganization(demoServer.store, demoServer.sealer))!;
    for (const query of ['?platform=macos&profile=mdm-full', '?platform=linux']) {
      const response = await fetch(`${demoServer.url}/v1/agent/config${query}`, { headers: { Authorization: `Bearer ${key}` } });
      expect(response.status, query).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      const text = query.includes('mdm') ? bytes.toString('latin1') : Object.values(unzip(bytes)).map((entry) => entry.toString()).join('\n');
      expect(text).toContain(demoAgentSettings.serverUrl);
      expect(text).not.toContain('127.0.0.1');
      if (query.includes('mdm')) expect(text).toContain(demoAgentSettings.teamId);
    }
  });
});
