import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoAgentSettings } from '../../../contracts/console/agent-settings.js';
import { migrations } from '../engine/migrations.js';
import { Store } from '../store.js';
import { changeKinds } from '../derived/change-kinds.js';

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

type Internals = { db: { exec(sql: string): void; value(sql: string): unknown } };

describe('agent settings in the store', () => {
  it('are a record of the organization: saved, replaced, and removed with it', async () => {
    const store = await Store.open({ clock: () => Date.UTC(2026, 0, 2) });
    const organization = store.write(() => store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }), { changes: ['organizations', 'inventory'] });
    expect(store.agentSettings.get(organization.rowId)).toEqual({ serverUrl: null, teamId: null, bundleId: null, updatedAt: null });
    const saved = store.write(() => store.agentSettings.set(organization.rowId, { serverUrl: 'https://a.example', teamId: 'Q7M3K9D2XP', bundleId: null }), { changes: ['agent-settings'] });
    expect(saved).toEqual({ serverUrl: 'https://a.example', teamId: 'Q7M3K9D2XP', bundleId: null, updatedAt: '2026-01-02T00:00:00.000Z' });
    store.write(() => store.agentSettings.set(organization.rowId, { serverUrl: 'https://b.example', teamId: null, bundleId: 'com.example.agent' }), { changes: ['agent-settings'] });
    expect(store.agentSettings.get(organization.rowId)).toMatchObject({ serverUrl: 'https://b.example', teamId: null, bundleId: 'com.example.agent' });
    store.write(() => store.organizations.delete(organization.rowId), { changes: changeKinds });
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
    ], { changes: ['organizations', 'inventory'] });
    // Back to the schema before agent settings: the later migrations undone, then its own.
    const agentSettingsMigration = migrations.findIndex((migration) => migration.includes('CREATE TABLE agent_settings'));
    const undo = migrations.slice(agentSettingsMigration).reverse().map(undoMigration).join('\n');
    (store as unknown as Internals).db.exec(`${undo} PRAGMA user_version = ${agentSettingsMigration};`);
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

/** The statement of an earlier migration that created an index or a table. */
function created(what: 'INDEX' | 'TABLE', name: string): string {
  const statement = migrations
    .flatMap((migration) => migration.replace(/--[^\n]*/g, '').split(';'))
    .find((candidate) => new RegExp(`CREATE (?:UNIQUE )?${what} ${name} `).test(candidate));
  if (!statement) throw new Error(`No migration creates the ${what.toLowerCase()} ${name}`);
  return statement.trim();
}

/**
 * The statements that undo a migration made of added tables, indexes and columns, dropped
 * indexes, and tables rebuilt (created anew, filled from the old, which is dropped, and renamed:
 * what the migrations after the first do; the rows copied are not put back); any other statement
 * has no undo here and fails the test.
 */
function undoMigration(migration: string): string {
  const statements = migration
    .replace(/--[^\n]*/g, '')
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement && !statement.startsWith('INSERT INTO agent_settings'));
  return statements
    .map((statement) => {
      const table = /^CREATE TABLE (\w+)/.exec(statement);
      if (table) return `DROP TABLE ${table[1]};`;
      const index = /^CREATE (?:UNIQUE )?INDEX (\w+)/.exec(statement);
      if (index) return `DROP INDEX ${index[1]};`;
      const column = /^ALTER TABLE (\w+) ADD COLUMN (\w+)/.exec(statement);
      if (column) return `ALTER TABLE ${column[1]} DROP COLUMN ${column[2]};`;
      const dropped = /^DROP (INDEX|TABLE) (\w+)/.exec(statement);
      if (dropped) return `${created(dropped[1] as 'INDEX' | 'TABLE', dropped[2]!)};`;
      const renamed = /^ALTER TABLE (\w+) RENAME TO (\w+)/.exec(statement);
      if (renamed) return `ALTER TABLE ${renamed[2]} RENAME TO ${renamed[1]};`;
      if (/^INSERT INTO \w+ \([^)]*\)\s+SELECT /.test(statement)) return '';
      throw new Error(`No undo for: ${statement}`);
    })
    .filter((undo) => undo !== '')
    .reverse()
    .join(' ');
}
