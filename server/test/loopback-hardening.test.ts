import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './support/api-client.js';
import { smallInventory } from './support/fixtures.js';
import { type TestServer, startTestServer } from './support/test-server.js';

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer([{ slug: 'acme', inventory: smallInventory(3, 5) }]);
  key = server.orgs[0]!.apiKey;
});
afterAll(() => server.close());

/** Sends bytes as they are and returns what the server answered before closing. */
function sendRaw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
  });
}

describe('loopback hardening', () => {
  it('listens on 127.0.0.1 only', () => {
    expect(server.server.host).toBe('127.0.0.1');
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it.each([
    ['evil.example', 0],
    ['evil.example:', 0],
    ['attacker.test:80', -1],
    ['127.0.0.1:', 1],
    ['10.0.0.1', -1],
    ['localhost.evil.example:', 0],
  ] as const)(
    'refuses Host %s (DNS rebinding), even with a valid key and on /health',
    async (hostStart, portShift) => {
      const host = hostStart.endsWith(':') ? `${hostStart}${server.port + portShift}` : hostStart;
      for (const path of ['/health', '/v1/endpoints', '/']) {
        const response = await rawRequest(server.port, { path, headers: { host, authorization: `Bearer ${key}` } });
        expect(response.status, `${host} ${path}`).toBe(421);
        expect(JSON.parse(response.body).error).toMatch(/Host/);
      }
    },
  );

  it('accepts the loopback names with the right port', async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `LOCALHOST:${server.port}`]) {
      const response = await rawRequest(server.port, { path: '/health', headers: { host } });
      expect(response.status, host).toBe(200);
    }
  });

  it('answers on a keep-alive connection left idle longer than Node keeps one by default (5 s)', async () => {
    const socket = net.connect(server.port, '127.0.0.1');
    try {
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      const answers = async (count: number) => {
        while ((received.match(/HTTP\/1\.1 200 OK/g) ?? []).length < count) {
          if (socket.destroyed) throw new Error(`the connection was closed after ${count - 1} answers`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const ask = () => socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: keep-alive\r\n\r\n`);
      ask();
      await answers(1);
      expect(received).toMatch(/Keep-Alive: timeout=65/i);
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      ask();
      await answers(2);
    } finally {
      socket.destroy();
    }
  }, 15_000);

  it('refuses a request without a Host header', async () => {
    const answer = await sendRaw(server.port, 'GET /health HTTP/1.0\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.\d 4\d\d/);
  });

  it('grants no CORS access to other origins, for simple requests and preflights', async () => {
    const simple = await rawRequest(server.port, {
      path: '/v1/endpoints',
      headers: { origin: 'http://evil.example', authorization: `Bearer ${key}` },
    });
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await rawRequest(server.port, {
      path: '/v1/endpoints',
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('answers oversized headers with 431 and a JSON error, and keeps serving', async () => {
    const answer = await sendRaw(
      server.port,
      `GET /v1/endpoints HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431/);
    expect(answer).toContain('{"error":"Request headers or URL are too large"}');
    expect((await rawRequest(server.port, { path: '/health' })).status).toBe(200);
  });

  it('answers an oversized query string with 414 and a JSON error', async () => {
    const response = await rawRequest(server.port, {
      path: `/v1/endpoints?q=${'x'.repeat(3000)}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(414);
    expect(JSON.parse(response.body).error).toMatch(/query string/);
  });

  it('answers garbage on the socket with 400 and keeps serving', async () => {
    const answer = await sendRaw(server.port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect((await rawRequest(server.port, { path: '/health' })).status).toBe(200);
  });

  it('answers a malformed percent-encoding in the path with 400', async () => {
    const response = await rawRequest(server.port, { path: '/v1/endpoints/%E0%A4%A', headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: expect.any(String) });
  });
});
