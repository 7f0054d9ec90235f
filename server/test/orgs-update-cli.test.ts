/**
 * `orgs update` through the real binary (needs `npm run build:server`): a replica follows its
 * remote to a new port and key, checked before anything is saved, and its next sync is an
 * incremental one of the same organization; the failed sync before it says what to do.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from './support/cli-binary.js';
import { type FakeRemote, startFakeRemote } from './support/fake-remote.js';
import { sampleInventory } from './support/sample-inventory.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-orgs-update-'));
const remotes: FakeRemote[] = [];
afterAll(async () => {
  await Promise.all(remotes.map((remote) => remote.close()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the built command line on this test's data directory. */
const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);

function keyFile(name: string, key: string): string {
  const file = path.join(dataDir, name);
  fs.writeFileSync(file, `${key}\n`);
  return file;
}

/** The replica's row of `orgs list`: slug, kind, name, remote, id. */
async function listed(slug: string): Promise<string[]> {
  const { stdout } = await cli('orgs', 'list');
  return stdout
    .split('\n')
    .find((line) => line.startsWith(`${slug} `))!
    .split(/ {2,}/);
}

it('changes a replica’s URL, key and name after the new remote answers; the next sync is incremental, on the same organization', async () => {
  const inventory = sampleInventory();
  const first = await startFakeRemote({ inventory, apiKey: 'key-one' });
  remotes.push(first);
  const connected = await cli('orgs', 'connect', '--slug', 'r', '--remote', `${first.url}/v1`, '--api-key-file', keyFile('one.key', 'key-one'));
  expect(connected).toMatchObject({ status: 0, stdout: `Connected "r" to ${first.url}.\n` });
  const before = new Date();
  expect((await cli('sync')).status).toBe(0);
  const [, , , remoteBefore, id] = await listed('r');
  expect(remoteBefore).toBe(first.url);

  // The remote moves to another port with a new key.
  await first.close();
  const moved = await startFakeRemote({ inventory, apiKey: 'key-two' });
  remotes.push(moved);
  const failedAt = Date.now();
  const failed = await cli('sync');
  expect(failed.status).toBe(1);
  // What failed and what to do, since when (the first sync's end), then the request.
  expect(failed.stderr).toContain(
    `sync of "r" failed: The remote tenant could not be reached at ${first.url} (connection refused: nothing listens there). ` +
      `Check that the remote runs at this address; if it has moved, change the replica's URL: Edit in the Organizations view, ` +
      `or "remediation-console orgs update --slug r --remote URL".\nNo sync has succeeded since `,
  );
  const since = /No sync has succeeded since (\S+ \S+) UTC\.\nDetail: GET \/v1\/scopes, 2 attempts\./.exec(failed.stderr)?.[1];
  expect(Date.parse(`${since?.replace(' ', 'T')}Z`)).toBeGreaterThanOrEqual(Math.floor(before.getTime() / 1000) * 1000);
  expect(Date.parse(`${since?.replace(' ', 'T')}Z`)).toBeLessThan(failedAt);
  expect(failed.stderr).not.toContain('updatedSince');

  const invalid = await cli('orgs', 'update', '--slug', 'r', '--remote', 'ftp://example.com', '--name', ' ');
  expect(invalid).toMatchObject({
    status: 2,
    stderr: 'error: --name: must not be blank; --remote: must be an http or https URL without credentials, query or fragment\n',
  });
  const nothing = await cli('orgs', 'update', '--slug', 'r');
  expect(nothing).toMatchObject({ status: 2, stderr: 'error: Give at least one of --remote URL, --api-key-file FILE or --name NAME\n' });
  // A new address without its key: refused before the remote is asked anything, so the stored key never goes there.
  const asked = moved.requests.length;
  const keyless = await cli('orgs', 'update', '--slug', 'r', '--remote', moved.url, '--name', 'Moved');
  expect(keyless).toMatchObject({ status: 2, stdout: '', stderr: 'error: --api-key-file: a new address needs its key: the stored key is never sent to another address\n' });
  expect(moved.requests.length).toBe(asked);
  const wrongKey = await cli('orgs', 'update', '--slug', 'r', '--remote', moved.url, '--api-key-file', keyFile('old.key', 'key-one'), '--name', 'Moved');
  expect(wrongKey.status).toBe(2);
  expect(wrongKey.stderr).toBe(
    `error: The remote tenant at ${moved.url} refused the API key (401 Unauthorized). Check the key: it must be an API key of this remote tenant.\n`,
  );
  expect(await listed('r')).toEqual(['r', 'replica', 'r', first.url, id]);

  const updated = await cli('orgs', 'update', '--slug', 'r', '--remote', `${moved.url}/v1/`, '--api-key-file', keyFile('two.key', 'key-two'), '--name', 'Moved');
  expect(updated).toMatchObject({
    status: 0,
    stdout: `Updated "r": name "Moved", remote ${moved.url}, API key. Its data and local settings stay; the next sync uses the new settings.\n`,
  });
  expect(await listed('r')).toEqual(['r', 'replica', 'Moved', moved.url, id]);
  // The same address typed with /v1/ is no new address: the stored key stays, checked there.
  const same = await cli('orgs', 'update', '--slug', 'r', '--remote', `${moved.url}/v1/`);
  expect(same).toMatchObject({ status: 0, stdout: `Updated "r": remote ${moved.url}. Its data and local settings stay; the next sync uses the new settings.\n` });

  const synced = await cli('sync');
  expect(synced.status).toBe(0);
  expect(synced.stdout).toContain('Synced "r" (incremental)');
  expect(moved.requests.length).toBeGreaterThan(0);
}, 180_000);

it('changes a local organization’s name, and refuses it a remote URL', async () => {
  expect((await cli('orgs', 'create', '--slug', 'loc', '--name', 'Local')).status).toBe(0);
  const refused = await cli('orgs', 'update', '--slug', 'loc', '--remote', 'http://127.0.0.1:9');
  expect(refused).toMatchObject({ status: 2, stderr: 'error: "loc" is a local organization: it has no remote URL or key, only its name can change\n' });
  expect((await cli('orgs', 'update', '--slug', 'loc', '--name', 'Local office')).status).toBe(0);
  expect((await listed('loc')).slice(0, 3)).toEqual(['loc', 'local', 'Local office']);
  expect((await cli('orgs', 'update', '--slug', 'nobody', '--name', 'x')).stderr).toBe('error: No organization with slug "nobody"\n');
}, 120_000);
