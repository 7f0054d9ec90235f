import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type EpssRow, epssCsv, generatedEpssRows, generatedScore } from '../../test/support/epss-files.js';
import { migrations } from '../engine/migrations.js';
import { Store } from '../store.js';

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

/** The bytes of a data directory's change logs (what its writes since the last checkpoint put on disk). */
const logBytes = (dataDir: string) =>
  fs
    .readdirSync(dataDir)
    .filter((name) => name.startsWith('inventory.sqlite.log.'))
    .reduce((sum, name) => sum + fs.statSync(path.join(dataDir, name)).size, 0);

/** The rows of `rows` with every `every`th score changed, the first `dropped` left out and `added` CVEs no row scored added. */
function nextDay(rows: readonly EpssRow[], { every, dropped, added, seed }: { every: number; dropped: number; added: number; seed: number }): EpssRow[] {
  const kept = rows.slice(dropped).map((row, index): EpssRow => (index % every === 0 ? [row[0], generatedScore(index, seed), row[2]] : row));
  return [...kept, ...Array.from({ length: added }, (_, index): EpssRow => [`CVE-${2030 + seed}-${String(100_000 + index)}`, '0.5', '0.5'])];
}

type Internals = { db: { exec(sql: string): void; column(sql: string): unknown[] } };

describe('exploit intelligence in the store', () => {
  it('adds its tables to a data directory of the schema before it, empty, leaving the rest as it was', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-intel-migration-'));
    folders.push(dataDir);
    const store = await Store.open({ dataDir, command: 'test' });
    store.write(() => store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }), { changes: ['organizations'] });
    const intelMigration = migrations.findIndex((migration) => migration.includes('CREATE TABLE intel_imports'));
    // The tables of that migration and those after it (import changes and settings, fix-by, …), dropped as before it ran.
    const laterTables = new Set(migrations.slice(intelMigration).flatMap((migration) => [...migration.matchAll(/CREATE TABLE (\w+)/g)].map((match) => (match[1] ?? '').replace(/_new$/, ''))));
    expect([...laterTables]).toEqual(expect.arrayContaining(['intel_imports', 'epss_current', 'epss_history', 'kev_entries', 'intel_changes', 'intel_settings']));
    // Columns those migrations added to older tables, dropped too (sync_changes' findings_kept).
    const laterColumns = migrations
      .slice(intelMigration)
      .flatMap((migration) => [...migration.matchAll(/ALTER TABLE (\w+) ADD COLUMN (\w+)/g)])
      .filter((match) => !laterTables.has(match[1]!))
      .map((match) => `ALTER TABLE ${match[1]} DROP COLUMN ${match[2]};`);
    (store as unknown as Internals).db.exec(`${[...laterTables].map((table) => `DROP TABLE ${table};`).join(' ')} ${laterColumns.join(' ')} PRAGMA user_version = ${intelMigration};`);
    store.close();
    const reopened = await Store.open({ dataDir, command: 'test' });
    try {
      expect(reopened.organizations.bySlug('acme')?.name).toBe('Acme');
      expect(reopened.intel.list()).toEqual([]);
      const tables = (reopened as unknown as Internals).db.column("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('intel_imports', 'epss_current', 'epss_history', 'kev_entries') ORDER BY name");
      expect(tables).toEqual(['epss_current', 'epss_history', 'intel_imports', 'kev_entries']);
    } finally {
      reopened.close();
    }
  });

  it('reads and writes a large EPSS file in pieces, giving the event loop turns meanwhile, and runs imports one at a time', async () => {
    const store = await Store.open();
    const file = (date: string, seed: number) => new TextEncoder().encode(epssCsv('v1', date, generatedEpssRows([], 100_000, seed)));
    let turns = 0;
    const counting = setInterval(() => turns++, 1);
    const [first, second] = await Promise.all([store.intel.importFile(file('2026-09-01', 1)), store.intel.importFile(file('2026-09-02', 2))]);
    clearInterval(counting);
    expect(turns).toBeGreaterThan(5);
    expect([first.id, first.current, second.id, second.current]).toEqual([1, true, 2, true]);
    expect(store.intel.list().map((record) => [record.id, record.current, record.finished])).toEqual([
      [2, true, true],
      [1, false, true],
    ]);
    expect(store.intel.epss.currentCount()).toBe(100_000);
    store.close();
  });

  it('takes the place of an interrupted import of the same file, which the list shows as unfinished until then', async () => {
    const store = await Store.open();
    const bytes = new TextEncoder().encode(epssCsv('v1', '2026-09-01', generatedEpssRows([], 10, 1)));
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    // As a process stopped in the middle of an import leaves it: the record written, the last write not.
    store.write(
      () => store.intel.imports.start({ kind: 'epss', sourceDate: '2026-09-01T00:00:00.000Z', version: 'v1', rows: 10, sha256, importedAt: '2026-09-01T08:00:00.000Z' }),
      { changes: ['threat-intel'] },
    );
    expect(store.intel.list().map((record) => [record.id, record.finished, record.current])).toEqual([[1, false, false]]);
    const answer = await store.intel.importFile(bytes);
    expect(answer).toMatchObject({ id: 2, finished: true, current: true, already_imported: false });
    expect(store.intel.list().map((record) => record.id)).toEqual([2]);
    store.close();
  });

  it('writes as many bytes as the rows an import changes, and leaves the current figures equal to the file, before and after a reopen', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-intel-bytes-'));
    folders.push(dataDir);
    const store = await Store.open({ dataDir, command: 'test' });
    const file = (date: string, rows: readonly EpssRow[]) => new TextEncoder().encode(epssCsv('v1', date, rows));
    const first = generatedEpssRows([], 20_000, 1);
    // 1 %: every hundredth score changed, 50 CVEs no longer scored, 30 new ones; then 10 % likewise.
    const second = nextDay(first, { every: 100, dropped: 50, added: 30, seed: 2 });
    const third = nextDay(second, { every: 10, dropped: 50, added: 30, seed: 3 });
    const changedRows = (before: readonly EpssRow[], after: readonly EpssRow[]) => {
      const scored = new Map(before.map((row) => [row[0], row.join()]));
      const afterCves = new Set(after.map((row) => row[0]));
      return after.filter((row) => scored.get(row[0]) !== row.join()).length + before.filter((row) => !afterCves.has(row[0])).length;
    };
    const written: number[] = [];
    for (const [date, rows] of [['2026-09-01', first], ['2026-09-02', second], ['2026-09-03', third]] as const) {
      const before = logBytes(dataDir);
      await store.intel.importFile(file(date, rows));
      written.push(logBytes(dataDir) - before);
    }
    const [firstBytes, onePercentBytes, tenPercentBytes] = written as [number, number, number];
    const [onePercentRows, tenPercentRows] = [changedRows(first, second), changedRows(second, third)];
    expect(tenPercentRows).toBeGreaterThan(onePercentRows * 5);
    // Every row new: the table's pages. A row changed: its statement's values and its share of the statement's text,
    // about 35 bytes, and an import's own records a few KiB, whatever the rows of the file.
    expect(firstBytes).toBeGreaterThan(20_000 * 20);
    for (const [bytes, rows] of [[onePercentBytes, onePercentRows], [tenPercentBytes, tenPercentRows]] as const) expect(bytes).toBeLessThan(rows * 60 + 8_192);
    expect(tenPercentBytes - onePercentBytes).toBeGreaterThan((tenPercentRows - onePercentRows) * 25);
    const expectFiguresOf = (current: Store, rows: readonly EpssRow[]) => {
      const everyCve = [...new Set([...first, ...second, ...rows].map((row) => row[0]))];
      const stored = current.intel.epss.current(everyCve);
      expect(current.intel.epss.currentCount()).toBe(rows.length);
      expect(Object.fromEntries(stored)).toEqual(Object.fromEntries(rows.map(([cve, epss, percentile]) => [cve, { epss: Number(epss), percentile: Number(percentile) }])));
    };
    expectFiguresOf(store, third);
    store.close();
    // The statements logged replay to the same figures.
    const reopened = await Store.open({ dataDir, command: 'test' });
    try {
      expectFiguresOf(reopened, third);
    } finally {
      reopened.close();
    }
  });
});
