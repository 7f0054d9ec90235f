import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleSessionSchema } from '../../contracts/console/session.js';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import { secretStorages } from '../secrets/secret-storages.js';
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
