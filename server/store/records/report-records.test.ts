import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Store } from '../store.js';
import type { NewReport } from './report-records.js';

type Internals = { db: { value(sql: string, params?: unknown[]): unknown; run(sql: string, params?: unknown[]): number } };

/** A report of `orgRowId` whose HTML and figures repeat themselves, as a report's tables do. */
function reportOf(orgRowId: number, filter: string): NewReport {
  const id = randomUUID();
  const rows = Array.from({ length: 5_000 }, (_, n) => `<tr><td>finding ${n}</td><td>critical</td><td>é</td></tr>`).join('\n');
  return {
    orgRowId,
    summary: { id, template: 'executive', filter, created_at: '2026-11-29T12:00:00.000Z', organizations: ['acme'], signer: 'CN=acme', sha256: '0'.repeat(64) },
    html: Buffer.from(`<!doctype html><table>${rows}</table>`),
    figures: JSON.stringify({ id, rows: Array.from({ length: 5_000 }, (_, n) => ({ finding: n, severity: 'critical', note: 'é' })) }),
    signature: Buffer.from([0x30, 0x82, 0x01, 0x02]),
  };
}

/** A store in memory with one organization, `acme`, and the store's database for looking at what it keeps. */
async function storeWithAcme() {
  const store = await Store.open();
  const organization = store.write(() => store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }), { changes: ['organizations', 'inventory'] });
  return { store, db: (store as unknown as Internals).db, organization };
}

describe('kept reports', () => {
  it('keep their HTML and figures compressed, and give back the bytes they were made with', async () => {
    const { store, db, organization } = await storeWithAcme();
    const report = reportOf(organization.rowId, 'tag=internet-facing');
    await store.reports.insert(report);

    expect(db.value('SELECT encoding FROM reports WHERE uuid = ?', [report.summary.id])).toBe('gzip');
    const keptBytes = db.value('SELECT length(html) + length(figures) FROM reports WHERE uuid = ?', [report.summary.id]) as number;
    expect(keptBytes).toBeLessThan((report.html.length + Buffer.byteLength(report.figures)) / 10);

    const read = await store.reports.get(organization.rowId, report.summary.id);
    expect(read?.html.equals(report.html)).toBe(true);
    expect(read?.figures).toBe(report.figures);
    expect(read?.signature.equals(report.signature)).toBe(true);
    expect(read?.summary).toEqual(report.summary);
    expect(await store.reports.previousFigures(organization.rowId, { template: 'executive', filter: 'tag=internet-facing', organizations: ['acme'] })).toBe(report.figures);
    store.close();
  });

  it('made before they were compressed, read as they were kept', async () => {
    const { store, db, organization } = await storeWithAcme();
    const report = reportOf(organization.rowId, '');
    await store.reports.insert(report);
    // As the version before kept it: the HTML's bytes and the figures' text, and the column's default.
    store.write(() => db.run("UPDATE reports SET html = ?, figures = ?, encoding = 'identity' WHERE uuid = ?", [report.html, report.figures, report.summary.id]), { changes: ['reports'] });

    const read = await store.reports.get(organization.rowId, report.summary.id);
    expect(read?.html.equals(report.html)).toBe(true);
    expect(read?.figures).toBe(report.figures);
    expect(await store.reports.previousFigures(organization.rowId, { template: 'executive', filter: '', organizations: ['acme'] })).toBe(report.figures);
    store.close();
  });
});
