import { afterEach, expect, it } from 'vitest';
import type { Inventory } from '../../../contracts/inventory.js';
import { smallInventory } from '../../test/support/fixtures.js';
import { Store } from '../store.js';

const day = 86_400_000;
const stores: Store[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

async function storeWith(inventory: Inventory, clock: () => number) {
  const store = await Store.open({ clock });
  stores.push(store);
  const organization = store.write((writes) => {
    const created = store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' });
    writes.replace(created.inventoryId, inventory);
    return created;
  }, { changes: ['organizations', 'inventory'] });
  return { store, org: organization.rowId };
}

it("keys the excepted findings on the data's version and the exceptions in force, not on edits that keep them", async () => {
  let now = Date.parse('2026-07-01T12:00:00.000Z');
  const inventory = smallInventory(7, 20);
  const { store, org } = await storeWith(inventory, () => now);
  const cve = inventory.findings[0]!.cve_id;
  const excepted = async () => {
    const found = await store.exceptions.excepted(org);
    expect(store.exceptions.keyOf(org)).toBe(found.key);
    return found;
  };

  const none = await excepted();
  expect(none.count).toBe(0);
  const write = <T>(work: () => T) => store.write(work, { changes: ['exceptions'] });
  const version = store.changes.written(['inventory']);
  const exception = write(() => store.exceptions.create(org, { scope: { kind: 'cve', cve_id: cve }, reason: 'risk_accepted', note: '', expires_at: new Date(now + 10 * day).toISOString() }, 'analyst'));
  const covered = await excepted();
  expect(covered.count).toBe(inventory.findings.filter((f) => f.cve_id === cve).length);
  expect(covered.byColumn.reduce((sum, flag) => sum + flag, 0)).toBe(covered.count);
  expect(covered.key).not.toBe(none.key);
  // A write of records: the data's caches stay.
  expect(store.changes.written(['inventory'])).toBe(version);

  // A note or a later expiry changes no finding: the key stays, and so does what is keyed on it.
  write(() => store.exceptions.update(org, exception.id, { note: 'WAF', expires_at: new Date(now + 20 * day).toISOString() }, 'analyst'));
  expect(await excepted()).toBe(covered);

  // Expired by the clock alone, with no write: the key of nothing excepted.
  now += 21 * day;
  expect(await excepted()).toEqual(none);

  // A write of the data: a new key for the same exceptions.
  now -= 21 * day;
  store.write((writes) => writes.replace(store.organizations.bySlug('acme')!.inventoryId, inventory), { changes: ['inventory'] });
  const rewritten = await excepted();
  expect(rewritten.count).toBe(covered.count);
  expect(rewritten.key).not.toBe(covered.key);

  write(() => store.exceptions.revoke(org, exception.id, 'analyst'));
  const revoked = await excepted();
  expect(revoked.count).toBe(0);
  expect([none.key, rewritten.key]).not.toContain(revoked.key);
});
