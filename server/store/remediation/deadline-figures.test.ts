import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallInventory } from '../../test/support/fixtures.js';
import type { Database } from '../engine/database.js';
import { DeadlineFigures } from './deadline-figures.js';
import { FindingTimelines } from '../basics/finding-timeline.js';
import type { ExceptedFindings } from '../basics/excepted-findings.js';
import { median } from '../derived/median.js';
import { Store } from '../store.js';

// The exceptions are another part's (the store gets their source at wiring): here a source of
// our own excepts findings by their place in the coverage columns, as the real one does.
let store: Store;
let orgRowId: number;
let excepted: ExceptedFindings;
let figures: DeadlineFigures;
const nowMs = Date.UTC(2026, 5, 15, 8, 30, 12);

beforeAll(async () => {
  store = await Store.open({ clock: () => nowMs });
  orgRowId = store.write((writes) => {
    const organization = store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' });
    writes.replace(organization.inventoryId, smallInventory(1, 60));
    return organization.rowId;
  }, { changes: ['organizations', 'inventory'] });
  excepted = { key: 'none', byColumn: new Uint8Array(0), count: 0 };
  const db = (store as unknown as { db: Database }).db;
  figures = new DeadlineFigures(
    db,
    store.changes,
    store.coverage,
    async () => excepted,
    () => store.now(),
    (org) => store.endpointContext.effective(org),
    (kinds, work) => store.write(() => work(), { changes: kinds }),
    new FindingTimelines(db, store.changes, store.coverage),
    store.fixBy,
  );
});
afterAll(() => store.close());

/** Excepts the findings of the columns at `indexes`, under a key of its own. */
function except(indexes: number[], key: string): void {
  const byColumn = new Uint8Array(Math.max(0, ...indexes) + 1);
  for (const index of indexes) byColumn[index] = 1;
  excepted = { key, byColumn, count: indexes.length };
}

describe('deadline figures with exceptions', () => {
  it('leave excepted findings out of what is overdue, count them apart, and count them again once the exception goes', async () => {
    except([], 'none');
    const asOf = figures.asOf();
    const shown = { orgRowId, inventoryId: store.organizations.byRowId(orgRowId)!.inventoryId };
    const rule = figures.rule(orgRowId);
    const overdue = await figures.overdueSeqs(shown, rule, asOf);
    const before = await figures.performance(orgRowId);
    expect(before.totals.open_overdue).toBe(overdue.length);
    expect(overdue.length).toBeGreaterThan(3);

    // Except two overdue findings and one that is not.
    const { columns } = await figures.timeline(orgRowId);
    const indexOf = (seq: number) => columns.seq.indexOf(seq);
    const notOverdue = [...columns.seq].find((seq) => !overdue.includes(seq))!;
    except([indexOf(overdue[0]!), indexOf(overdue[2]!), indexOf(notOverdue)], 'three');
    const after = await figures.performance(orgRowId);
    expect(after.totals).toMatchObject({ open_overdue: overdue.length - 2, open_overdue_excepted: 2, open: before.totals.open });
    expect([...(await figures.overdueSeqs(shown, rule, asOf))]).toEqual([...overdue].filter((_, i) => i !== 0 && i !== 2));
    const fields = await figures.findingFields(orgRowId, asOf);
    const db = (store as unknown as { db: Database }).db;
    const factsOf = (seq: number) => db.get('SELECT seq, severity, is_kev, status, first_detected_at, remediated_at FROM findings WHERE seq = ?', [seq]) as never;
    expect(fields(factsOf(overdue[0]!))).toMatch(/"overdue":false$/);
    expect(fields(factsOf(overdue[1]!))).toMatch(/"overdue":true$/);

    // The exception expires: its source's key changes, no write needed.
    except([], 'expired');
    expect((await figures.performance(orgRowId)).totals).toEqual(before.totals);
  });
});

describe('median', () => {
  it('is the middle value, or the mean of the two middle ones, as sorting finds them', () => {
    expect(median(new Float64Array())).toBeNull();
    expect(median(Float64Array.of(5))).toBe(5);
    expect(median(Float64Array.of(4, 1))).toBe(2.5);
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let n = 1; n < 300; n += 7) {
      const values = Array.from({ length: n }, () => Math.floor(random() * (n % 3 === 0 ? 5 : 1000)));
      const sorted = [...values].sort((a, b) => a - b);
      const expected = n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
      expect(median(Float64Array.from(values)), `${n}`).toBe(expected);
    }
  });
});
