import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectionSchemas } from '../../contracts/collections.js';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import { type ConsoleServer, startConsoleServer } from '../start-console-server.js';
import { rawRequest } from './support/api-client.js';
import { smallInventory } from './support/fixtures.js';
import { type TestServer, startTestServer } from './support/test-server.js';

/** The answer of the server with what node:http adds to every answer left out. */
async function answer(port: number, target: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  const { status, headers, body } = await rawRequest(port, { path: target, method: options.method, headers: options.headers });
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...own } = headers;
  return { status, headers: own, body };
}

describe('the v1 API of the product', () => {
  let product: ConsoleServer;
  let port: number;
  let key: string;
  let endpointId: string;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-v1-pipeline-'));
  const get = (target: string, headers: Record<string, string> = {}, method = 'GET') =>
    answer(port, target, { method, headers: { authorization: `Bearer ${key}`, ...headers } });

  beforeAll(async () => {
    product = await startConsoleServer({ dataDir, port: 0, command: 'test', sealer: (dir) => keyFileSealer(path.join(dir, 'sealing.key')) });
    port = product.server.port;
    key = product.demoApiKey!;
    endpointId = JSON.parse((await get('/v1/endpoints?limit=1&offset=3')).body).data[0].id;
  });
  afterAll(async () => {
    await product.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every path under /v1 itself, as JSON: an unknown one is a 404, never the console page', async () => {
    for (const target of ['/v1', '/v1/', '/V1', '/v1?limit=1', '/V1/nothing', '/v1/nothing/', '/v1/endpoints/a/b', '/v1/Endpoints', '/v1/endpoints//']) {
      const { status, headers, body } = await get(target);
      expect(status, target).toBe(404);
      expect(headers, target).toEqual({
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
      });
      expect(JSON.parse(body), target).toEqual({ error: `No such path: ${target.replace(/\?.*/, '')}` });
    }
  });

  it('matches paths as the API always did: /v1 in any case, one trailing slash, escapes in an id', async () => {
    const list = await get('/v1/endpoints?limit=2');
    expect((await get('/V1/endpoints?limit=2')).body).toBe(list.body);
    expect((await get('/v1/endpoints/?limit=2')).body).toBe(list.body);
    const item = await get(`/v1/endpoints/${endpointId}`);
    expect(item.status).toBe(200);
    expect((await get(`/v1/endpoints/${endpointId}/`)).body).toBe(item.body);
    expect((await get(`/v1/endpoints/%${endpointId.charCodeAt(0).toString(16)}${endpointId.slice(1)}`)).body).toBe(item.body);
    expect((await get(`http://127.0.0.1:${port}/v1/endpoints/${endpointId}`)).body).toBe(item.body);
    expect((await get('/V1/openapi.json/')).status).toBe(200);
  });

  it('answers a malformed escape in an id with 400, once the key is known', async () => {
    expect(await get('/v1/endpoints/%E0%A4%A')).toMatchObject({ status: 400, body: '{"error":"Malformed request"}' });
    expect((await get('/v1/endpoints/%E0%A4%A', { authorization: '' })).status).toBe(401);
  });

  it('answers HEAD with the headers of GET and no body, errors included', async () => {
    for (const target of ['/v1/endpoints?limit=3', `/v1/endpoints/${endpointId}`, '/v1/endpoints?limit=0', '/v1/endpoints/not-a-uuid', '/v1/nothing', '/v1/openapi.json']) {
      const [full, head] = [await get(target), await get(target, {}, 'HEAD')];
      expect(head, target).toEqual({ ...full, body: '' });
    }
  });

  it('answers If-None-Match: * with 304, and ignores the validators no answer carries', async () => {
    expect(await get('/v1/endpoints?limit=2', { 'if-none-match': '*' })).toEqual({
      status: 304,
      headers: { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
      body: '',
    });
    expect((await get(`/v1/endpoints/${endpointId}`, { 'if-none-match': '*' })).status).toBe(304);
    expect((await get('/v1/endpoints?limit=2', { 'if-none-match': '*', 'cache-control': 'no-cache' })).status).toBe(200);
    expect((await get('/v1/endpoints?limit=2', { 'if-none-match': '"a-tag"' })).status).toBe(200);
    expect((await get('/v1/endpoints?limit=2', { 'if-modified-since': 'Wed, 21 Oct 2099 07:28:00 GMT' })).status).toBe(200);
    expect((await get('/v1/endpoints?limit=0', { 'if-none-match': '*' })).status).toBe(400);
  });

  it('refuses a list query over 2,048 characters with 414, and ignores the query of a get', async () => {
    const long = `?osFamily=${'x'.repeat(2100)}`;
    expect((await get(`/v1/endpoints${long}`)).status).toBe(414);
    expect((await get(`/v1/endpoints/${endpointId}${long}`)).status).toBe(200);
  });
});

describe('one way through the v1 API', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer([{ slug: 'acme', inventory: smallInventory(5, 4) }]);
    key = server.orgs[0]!.apiKey;
  });
  afterAll(() => server.close());

  it('reads a page that fails once, answering 500 without detail and logging the cause once', async () => {
    const list = vi.spyOn(server.store.inventory, 'list').mockImplementation(() => {
      throw new Error('the statement failed');
    });
    try {
      const response = await answer(server.port, '/v1/scopes?limit=7', { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(500);
      expect(JSON.parse(response.body)).toEqual({ error: 'Internal server error' });
      expect(list).toHaveBeenCalledTimes(1);
      expect(server.logged).toEqual(['Internal error answering GET /v1/scopes: Error: the statement failed']);
    } finally {
      list.mockRestore();
    }
    expect((await answer(server.port, '/v1/scopes?limit=7', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });

  it('parses a refused query once, reading nothing', async () => {
    const parse = vi.spyOn(collectionSchemas.endpoints.v1, 'safeParse');
    const list = vi.spyOn(server.store.inventory, 'list');
    try {
      const response = await answer(server.port, '/v1/endpoints?limit=500&offset=1', { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(400);
      expect(parse).toHaveBeenCalledTimes(1);
      expect(list).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
      list.mockRestore();
    }
  });
});
