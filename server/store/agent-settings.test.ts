import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoAgentSettings } from '../../contracts/console/agent-settings.js';
import { migrations } from './migrations.js';
import { Store } from './store.js';

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

type Internals = { db: { exec(sql: string): void; value(sql: string): unknown } };

describe('agent settings in the store', () => {
  it('are a record of the organization: saved, replaced, and removed with it', async () => {
    const store = await Store.open({ clock: () => Date.UTC(2026, 0, 2) });
    const organization = store.write(() => store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }));
    expect(store.agentSettings.get(organization.rowId)).toEqual({ serverUrl: null, teamId: null, bundleId: null, updatedAt: null });
    const saved = store.write(() => store.agentSettings.set(organization.rowId, { serverUrl: 'https://a.example', teamId: 'Q7M3K9D2XP', bundleId: null }), { recordsOnly: true });
    expect(saved).toEqual({ serverUrl: 'https://a.example', teamId: 'Q7M3K9D2XP', bundleId: null, updatedAt: '2026-01-02T00:00:00.000Z' });
    store.write(() => store.agentSettings.set(organization.rowId, { serverUrl: 'https://b.example', teamId: null, bundleId: 'com.example.agent' }), { recordsOnly: true });
    expect(store.agentSettings.get(organization.rowId)).toMatchObject({ serverUrl: 'https://b.example', teamId: null, bundleId: 'com.example.agent' });
    store.write(() => store.organizations.delete(organization.rowId));
    expect((store as unknown as Internals).db.value('SELECT count(*) FROM agent_settings')).toBe(0);
    store.close();
  });

  it("give an existing data directory's demo organization the demo's settings when the schema is upgraded", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-agent-settings-'));
    folders.push(dataDir);
    const store = await Store.open({ dataDir, command: 'test' });
    const [demo, other] = store.write(() => [
      store.organizations.insert({ slug: 'demo', name: 'Demo', kind: 'local', isDemo: true }),
      store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }),
    ]);
    // Back to the schema before agent settings.
    (store as unknown as Internals).db.exec(`DROP TABLE agent_settings; PRAGMA user_version = ${migrations.length - 1};`);
    store.close();

    const reopened = await Store.open({ dataDir, command: 'test' });
    try {
      expect(reopened.agentSettings.get(demo!.rowId)).toMatchObject({ ...demoAgentSettings, bundleId: null });
      expect(reopened.agentSettings.get(demo!.rowId).updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(reopened.agentSettings.get(other!.rowId)).toEqual({ serverUrl: null, teamId: null, bundleId: null, updatedAt: null });
    } finally {
      reopened.close();
    }
  });
});
