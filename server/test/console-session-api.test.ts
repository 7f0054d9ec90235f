import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleCredentialListSchema, consoleSessionSchema } from '../../contracts/console/session.js';
import { issueConsoleLink } from '../secrets/console-links.js';
import { ConsoleSessions, consoleSessionIdleMs, consoleSessionLifetimeMs } from '../secrets/console-sessions.js';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import { secretStorages } from '../secrets/secret-storages.js';
import { rawRequest } from './support/api-client.js';
import { smallInventory } from './support/fixtures.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';

describe('GET /app/session', () => {
  let sealerDir: string;
  let withSealer: ConsoleTestServer;
  let withoutSealer: ConsoleTestServer;
  beforeAll(async () => {
    sealerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-session-api-'));
    withSealer = await startConsoleTestServer([{ slug: 'home', inventory: smallInventory(1, 1) }], {
      sealer: keyFileSealer(path.join(sealerDir, 'sealing.key')),
    });
    withoutSealer = await startConsoleTestServer([{ slug: 'home', inventory: smallInventory(1, 1) }]);
  });
  afterAll(async () => {
    await withSealer.close();
    await withoutSealer.close();
    fs.rmSync(sealerDir, { recursive: true, force: true });
  });

  it("says how the server's sealer protects secrets: headless, a key file, no keychain involved", async () => {
    const response = await withSealer.app('/session');
    expect(response.status).toBe(200);
    const session = consoleSessionSchema.parse(response.body);
    expect(session).toEqual({ apiBaseUrl: withSealer.url, secretStorage: secretStorages.headlessKeyFile });
    expect(session.secretStorage).toMatchObject({ protection: 'key-file', keychainAvailable: null });
    expect(session.secretStorage?.description).toMatch(/key file in the data folder, readable only by your user account/);
  });

  it('answers null where the server has no sealer and so stores no secret', async () => {
    const response = await withoutSealer.app('/session');
    expect(consoleSessionSchema.parse(response.body)).toEqual({ apiBaseUrl: withoutSealer.url, secretStorage: null });
  });

  it('needs the console token', async () => {
    expect((await withSealer.app('/session', { token: null })).status).toBe(401);
  });
});

/** Opens a console link of `server` as the console's page does: the token posted from the server's own origin. */
async function openLink(server: ConsoleTestServer, token: string, origin = server.url) {
  return server.app('/session', { method: 'POST', body: { token }, token: null, headers: { origin } });
}

/** The `name=value` of the session cookie an answer sets, and its attributes. */
function sessionCookie(response: { headers: Headers }): { pair: string; name: string; value: string; attributes: string[] } {
  const [cookie] = response.headers.getSetCookie();
  if (!cookie) throw new Error('no cookie was set');
  const [pair, ...attributes] = cookie.split(';').map((part) => part.trim());
  const [name, value] = pair!.split('=') as [string, string];
  return { pair: pair!, name, value, attributes };
}

describe('the console session: a one-time link, then a cookie', () => {
  let dataDir: string;
  let server: ConsoleTestServer;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-console-session-'));
    server = await startConsoleTestServer([{ slug: 'home', inventory: smallInventory(1, 1) }], { dataDir });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exchanges a link once for an HttpOnly, SameSite=Strict cookie of path /, lasting 30 days; a second use is refused', async () => {
    const token = issueConsoleLink(dataDir);
    const opened = await openLink(server, token);
    expect(opened.status).toBe(200);
    expect(consoleSessionSchema.parse(opened.body).apiBaseUrl).toBe(server.url);
    const cookie = sessionCookie(opened);
    expect(cookie.name).toMatch(/^rc_session_[0-9a-f]{12}$/);
    expect(cookie.attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/', `Max-Age=${30 * 24 * 3600}`]));
    expect(cookie.attributes.some((attribute) => attribute.startsWith('Domain'))).toBe(false);
    // The token is not kept on disk, only its hash.
    expect(fs.readdirSync(path.join(dataDir, 'console-links')).join()).not.toContain(token);

    const again = await openLink(server, token);
    expect(again.status).toBe(401);
    // Both forms of the command: installed, and from a checkout, which has no remediation-console command.
    expect(again.body.error).toMatch(/already used.*"remediation-console console-url" \(from a checkout, in its folder: "npm run cli -- console-url"\)/);
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it('refuses a link it never issued, one past its 24 hours, a body without a token, and a page of another origin', async () => {
    expect((await openLink(server, 'A'.repeat(43))).body.error).toMatch(/not one of this server's/);
    const expired = issueConsoleLink(dataDir, Date.now() - 25 * 3600 * 1000);
    expect(await openLink(server, expired)).toMatchObject({ status: 401, body: { error: expect.stringMatching(/expired/) } });

    const missing = await server.app('/session', { method: 'POST', body: {}, token: null, headers: { origin: server.url } });
    expect(missing).toMatchObject({ status: 400, body: { issues: [{ field: 'token', message: 'is required' }] } });
    const notJson = await server.app('/session', { method: 'POST', body: 'token', token: null, headers: { origin: server.url } });
    expect(notJson).toMatchObject({ status: 400, body: { issues: [{ field: 'body' }] } });

    const token = issueConsoleLink(dataDir);
    expect((await openLink(server, token, 'http://127.0.0.1:9')).status).toBe(403);
    expect((await server.app('/session', { method: 'POST', body: { token }, token: null })).status).toBe(403);
    // A refused page did not use the link up.
    expect((await openLink(server, token)).status).toBe(200);
  });

  it('accepts the cookie on /app and says how to get a link without one', async () => {
    const { pair } = sessionCookie(await openLink(server, issueConsoleLink(dataDir)));
    const listed = await server.app('/organizations', { token: null, headers: { cookie: `other=1; ${pair}` } });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((organization: { slug: string }) => organization.slug)).toEqual(['home']);

    const without = await server.app('/organizations', { token: null });
    expect(without.status).toBe(401);
    expect(without.body.error).toMatch(/"remediation-console console-url" \(from a checkout, in its folder: "npm run cli -- console-url"\)/);
    const forged = await server.app('/organizations', { token: null, headers: { cookie: `${pair.split('=')[0]}=${Date.now()}.${'a'.repeat(22)}.${'b'.repeat(43)}` } });
    expect(forged.status).toBe(401);
  });

  it("refuses a change with the cookie from another origin or without Origin, and a read sent by another site's page", async () => {
    const { pair } = sessionCookie(await openLink(server, issueConsoleLink(dataDir)));
    const createKey = (headers: Record<string, string>) => server.app('/orgs/home/api-keys', { method: 'POST', body: { label: 'from a page' }, token: null, headers: { cookie: pair, ...headers } });
    const elsewhere = await createKey({ origin: 'http://127.0.0.1:8080' });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.error).toMatch(/http:\/\/127\.0\.0\.1:8080 cannot change anything/);
    expect((await createKey({ origin: 'null' })).status).toBe(403);
    expect((await createKey({})).status).toBe(403);
    expect((await server.app('/orgs/home/api-keys', { token: null, headers: { cookie: pair } })).body.data).toHaveLength(1); // the test key alone: nothing refused was created
    expect((await createKey({ origin: server.url })).status).toBe(201);

    expect((await server.app('/organizations', { token: null, headers: { cookie: pair, 'sec-fetch-site': 'same-site' } })).status).toBe(403);
    expect((await server.app('/organizations', { token: null, headers: { cookie: pair, 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    // The header path (the desktop app) needs no Origin: no other page can send the header.
    expect((await server.app('/orgs/home/api-keys', { method: 'POST', body: { label: 'desktop' } })).status).toBe(201);
  });

  it('takes in x-console-token only the desktop token of this run: a session\'s cookie value there is refused', async () => {
    const { pair, value } = sessionCookie(await openLink(server, issueConsoleLink(dataDir)));
    const asHeader = await server.app('/orgs/home/api-keys', { method: 'POST', body: { label: 'stolen' }, token: value });
    expect(asHeader.status).toBe(401);
    expect(asHeader.body.error).toMatch(/x-console-token takes only the desktop app's token.*x-console-script-token/);
    expect((await server.app('/organizations', { token: value })).status).toBe(401);
    // Nor in the script header: a browser's session is no script token.
    expect((await server.app('/organizations', { token: null, headers: { 'x-console-script-token': value } })).status).toBe(401);
    const labels = (await server.app('/orgs/home/api-keys', { token: null, headers: { cookie: pair } })).body.data.map((key: { label: string }) => key.label);
    expect(labels).not.toContain('stolen');
  });

  it('signs out with DELETE /app/session: the cookie is dropped and a copy of it is refused everywhere', async () => {
    const { pair } = sessionCookie(await openLink(server, issueConsoleLink(dataDir)));
    expect((await server.app('/organizations', { token: null, headers: { cookie: pair } })).status).toBe(200);
    const ended = await server.app('/session', { method: 'DELETE', token: null, headers: { cookie: pair, origin: server.url } });
    expect(ended.status).toBe(204);
    const dropped = sessionCookie(ended);
    expect(dropped.value).toBe('');
    expect(dropped.attributes).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
    const copied = await server.app('/organizations', { token: null, headers: { cookie: pair } });
    expect(copied.status).toBe(401);
    expect(copied.body.error).toMatch(/has ended \(signed out, revoked or expired\)/);
  });

  it('lists the sessions with when each was made and last used, the current one marked; revokes one; signs out all others', async () => {
    for (const id of server.sessions.list().map((record) => record.id)) server.sessions.revoke(id);
    const mine = sessionCookie(await openLink(server, issueConsoleLink(dataDir)));
    const other = sessionCookie(await openLink(server, issueConsoleLink(dataDir)));
    const third = sessionCookie(await openLink(server, issueConsoleLink(dataDir)));
    const script = server.sessions.create('script', { name: 'nightly report' });
    const asMine = (path: string, method = 'GET') => server.app(path, { method, token: null, headers: { cookie: mine.pair, origin: server.url, 'user-agent': 'ignored' } });

    const listed = await asMine('/sessions');
    expect(listed.status).toBe(200);
    const data = consoleCredentialListSchema.parse(listed.body).data;
    expect(data.map((session) => [session.kind, session.current])).toEqual([
      ['browser', true],
      ['browser', false],
      ['browser', false],
      ['script', false],
    ]);
    expect(data[3]).toMatchObject({ id: script.record.id, name: 'nightly report', userAgent: null });
    expect(data[0]!.userAgent).toBe('node');
    for (const session of data) {
      expect(Date.parse(session.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(session.createdAt));
      expect(Date.now() - Date.parse(session.createdAt)).toBeLessThan(60_000);
    }
    expect(JSON.stringify(listed.body)).not.toContain(mine.value.split('.')[1]);

    const otherId = data[1]!.id;
    expect((await asMine(`/sessions/${otherId}`, 'DELETE')).status).toBe(204);
    expect((await server.app('/organizations', { token: null, headers: { cookie: other.pair } })).status).toBe(401);
    expect((await asMine(`/sessions/${otherId}`, 'DELETE')).status).toBe(404);
    expect((await asMine('/sessions/not-an-id', 'DELETE')).body.error).toMatch(/sessionId/);

    const signedOut = await asMine('/sessions/sign-out-others', 'POST');
    expect(signedOut).toMatchObject({ status: 200, body: { revoked: 1 } });
    expect((await server.app('/organizations', { token: null, headers: { cookie: third.pair } })).status).toBe(401);
    expect((await server.app('/organizations', { token: null, headers: { cookie: mine.pair } })).status).toBe(200);
    // Script tokens are not browser sessions: they stay.
    expect((await server.app('/organizations', { token: null, headers: { 'x-console-script-token': script.credential } })).status).toBe(200);
    // A page of another origin cannot sign others out with the cookie.
    expect((await server.app('/sessions/sign-out-others', { method: 'POST', token: null, headers: { cookie: mine.pair, origin: 'http://127.0.0.1:9' } })).status).toBe(403);
  });

  it('accepts a script token in x-console-script-token until it is revoked, and never as a cookie or in x-console-token', async () => {
    const { credential, record } = server.sessions.create('script', { name: 'export job' });
    expect(credential).toMatch(/^rcs_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    const withScript = (path: string, options: { method?: string; body?: unknown } = {}) =>
      server.app(path, { ...options, token: null, headers: { 'x-console-script-token': credential } });
    expect((await withScript('/orgs/home/api-keys', { method: 'POST', body: { label: 'from a script' } })).status).toBe(201);
    expect((await server.app('/organizations', { token: credential })).status).toBe(401);
    expect((await server.app('/organizations', { token: null, headers: { cookie: `${server.sessions.cookieName}=${credential}` } })).status).toBe(401);
    const listed = consoleCredentialListSchema.parse((await withScript('/sessions')).body).data;
    expect(listed.find((session) => session.id === record.id)).toMatchObject({ kind: 'script', current: true });

    expect((await server.app(`/sessions/${record.id}`, { method: 'DELETE' })).status).toBe(204);
    const revoked = await withScript('/organizations');
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toMatch(/script token .* not valid: revoked, expired or never issued/);
  });
});

describe('a console session ends: idle timeout and absolute lifetime', () => {
  const day = 24 * 3600 * 1000;
  let now = Date.now();
  let dataDir: string;
  let server: ConsoleTestServer;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-console-session-clock-'));
    server = await startConsoleTestServer([], { dataDir, clock: () => now });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const organizations = async (pair: string) => (await server.app('/organizations', { token: null, headers: { cookie: pair } })).status;

  it(`ends a session unused for ${consoleSessionIdleMs / day} days; each use starts its idle time again`, async () => {
    expect(consoleSessionIdleMs).toBe(7 * day);
    const idle = sessionCookie(await openLink(server, issueConsoleLink(dataDir)));
    now += 6 * day;
    expect(await organizations(idle.pair)).toBe(200);
    now += 7 * day - 60_000;
    expect(await organizations(idle.pair)).toBe(200);
    now += 7 * day;
    const ended = await server.app('/organizations', { token: null, headers: { cookie: idle.pair } });
    expect(ended.status).toBe(401);
    expect(sessionCookie(ended).attributes).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
    expect(server.sessions.list()).toEqual([]);
  });

  it(`ends a session used every day ${consoleSessionLifetimeMs / day} days after it opened, whose cookie lasts as long`, async () => {
    expect(consoleSessionLifetimeMs).toBe(30 * day);
    const opened = now;
    const daily = sessionCookie(await openLink(server, issueConsoleLink(dataDir)));
    expect(daily.attributes).toContain(`Max-Age=${30 * 24 * 3600}`);
    for (let days = 1; days < 30; days++) {
      now = opened + days * day;
      expect(await organizations(daily.pair), `day ${days}`).toBe(200);
    }
    now = opened + 30 * day;
    expect(await organizations(daily.pair)).toBe(401);
  });
});

describe('a console session and its data directory', () => {
  const dirs: string[] = [];
  const newDataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-console-session-dir-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers under the data directory's own name under .localhost, and refuses another data directory's name", async () => {
    const first = await startConsoleTestServer([], { dataDir: newDataDir() });
    const second = await startConsoleTestServer([], { dataDir: newDataDir() });
    try {
      const name = first.sessions.hostName;
      expect(name).toMatch(/^rc-[0-9a-f]{12}\.localhost$/);
      expect(second.sessions.hostName).not.toBe(name);
      const port = first.server.port;
      expect((await rawRequest(port, { path: '/health', headers: { host: `${name}:${port}` } })).status).toBe(200);
      expect((await rawRequest(port, { path: '/health', headers: { host: `${name.toUpperCase()}:${port}` } })).status).toBe(200);
      for (const host of [`${second.sessions.hostName}:${port}`, `${name}:${port + 1}`, name, `x.${name}:${port}`]) {
        expect((await rawRequest(port, { path: '/health', headers: { host } })).status, host).toBe(421);
      }
      // The console's own origin under that name may change things with the cookie.
      const opened = await rawRequest(port, {
        path: '/app/session',
        method: 'POST',
        headers: { host: `${name}:${port}`, origin: `http://${name}:${port}`, 'content-type': 'application/json' },
        body: JSON.stringify({ token: issueConsoleLink(first.sessionDataDir) }),
      });
      expect(opened.status).toBe(200);
      expect(String(opened.headers['set-cookie'])).not.toMatch(/Domain=/i);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('survives a new server on the same data directory and means nothing to another', async () => {
    const dataDir = newDataDir();
    const first = await startConsoleTestServer([], { dataDir });
    const cookie = sessionCookie(await openLink(first, issueConsoleLink(dataDir)));
    await first.close();

    const restarted = await startConsoleTestServer([], { dataDir });
    try {
      expect((await restarted.app('/session', { token: null, headers: { cookie: cookie.pair } })).status).toBe(200);
    } finally {
      await restarted.close();
    }

    const other = await startConsoleTestServer([], { dataDir: newDataDir() });
    try {
      expect((await other.app('/session', { token: null, headers: { cookie: cookie.pair } })).status).toBe(401);
      expect((await other.app('/session', { token: cookie.value })).status).toBe(401);
      const otherName = ConsoleSessions.of(other.sessionDataDir).cookieName;
      expect(otherName).not.toBe(cookie.name);
      const renamed = await other.app('/session', { token: null, headers: { cookie: `${otherName}=${cookie.value}` } });
      expect(renamed.status).toBe(401);
      // A link of one data directory does not open a session on another.
      expect((await openLink(other, issueConsoleLink(dataDir))).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});
