import { describe, expect, it } from 'vitest';
import type { VulnerabilityFinding } from '../../../contracts/vulnerability-finding.js';
import { inDefaultOrder, smallInventory } from '../../test/support/fixtures.js';
import { Store } from '../store.js';

/** Two organizations, so that a seek must stay within one; the first has several thousand findings. */
async function twoOrganizations() {
  const store = await Store.open();
  const inventory = smallInventory(3, 200);
  const [acme] = store.write((writes) => {
    const created = [store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }), store.organizations.insert({ slug: 'beta', name: 'Beta', kind: 'local' })];
    writes.replace(created[0]!.inventoryId, inventory);
    writes.replace(created[1]!.inventoryId, smallInventory(4, 40));
    return created;
  }, { changes: ['organizations', 'inventory'] });
  return { store, orgRowId: acme!.rowId, inventoryId: acme!.inventoryId, inventory };
}

const idsOf = (items: string[]) => items.map((json) => (JSON.parse(json) as { id: string }).id);
/** Offsets around every stride boundary of the skip positions, and past the end. */
const offsets = [0, 1, 99, 100, 101, 199, 999, 1000, 1001, 1999, 2000, 2050, 3999, 4000, 5555, 7000, 7699, 7700, 7710, 7711, 8000, 20_000];

describe('InventoryReads', () => {
  it('answers deep offsets with the same page as a walk from the start would, filtered or not', async () => {
    const { store, orgRowId, inventory } = await twoOrganizations();
    const all = inDefaultOrder(inventory.findings).map((f) => f.id);
    const critical = inDefaultOrder(inventory.findings.filter((f) => f.severity === 'critical')).map((f) => f.id);
    const updates = inventory.findings.map((f) => Date.parse(f.updated_at)).sort((a, b) => a - b);
    const since = new Date(updates[Math.floor(updates.length / 3)]!).toISOString();
    const recent = inDefaultOrder(inventory.findings.filter((f) => Date.parse(f.updated_at) >= Date.parse(since))).map((f) => f.id);
    expect(all.length).toBeGreaterThan(7000);
    expect(recent.length).toBeGreaterThan(4000);
    // Out of order on purpose: a deep page first, then shallower and deeper ones.
    for (const offset of [5555, ...offsets]) {
      const page = store.inventory.list(orgRowId, 'findings', { limit: 100, offset });
      expect(idsOf(page.items), `offset ${offset}`).toEqual(all.slice(offset, offset + 100));
      expect(page.total).toBe(all.length);
      const filtered = store.inventory.list(orgRowId, 'findings', { limit: 100, offset, severity: 'critical' });
      expect(idsOf(filtered.items), `critical, offset ${offset}`).toEqual(critical.slice(offset, offset + 100));
      const changed = store.inventory.list(orgRowId, 'findings', { limit: 100, offset, updatedSince: since });
      expect(idsOf(changed.items), `updated since ${since}, offset ${offset}`).toEqual(recent.slice(offset, offset + 100));
    }
    store.close();
  });

  it('forgets the skip positions when a write moves the rows', async () => {
    const { store, orgRowId, inventoryId, inventory } = await twoOrganizations();
    store.inventory.list(orgRowId, 'findings', { limit: 100, offset: 6000 });
    // New findings that sort first shift every position by their number.
    const earliest = Date.parse(inDefaultOrder(inventory.findings)[0]!.created_at);
    const added: VulnerabilityFinding[] = inventory.findings.slice(0, 250).map((f, i) => ({
      ...f,
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      created_at: new Date(earliest - 1000 - i).toISOString(),
    }));
    store.write((writes) => writes.merge(inventoryId, { endpoints: [], remediationTargets: [], scopes: [], findings: added }), { changes: ['inventory'] });
    const all = inDefaultOrder([...inventory.findings, ...added]).map((f) => f.id);
    for (const offset of [6000, 1000, 7900]) {
      const page = store.inventory.list(orgRowId, 'findings', { limit: 100, offset });
      expect(idsOf(page.items), `offset ${offset}`).toEqual(all.slice(offset, offset + 100));
    }
    store.close();
  });
});
