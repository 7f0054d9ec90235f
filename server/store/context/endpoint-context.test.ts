import { afterEach, expect, it, vi } from 'vitest';
import type { Inventory } from '../../../contracts/inventory.js';
import { smallInventory } from '../../test/support/fixtures.js';
import { Store } from '../store.js';

const stores: Store[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

async function storeWith(inventory: Inventory) {
  const store = await Store.open({ clock: () => Date.parse('2026-07-01T12:00:00.000Z') });
  stores.push(store);
  const organization = store.write(
    (writes) => {
      const created = store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' });
      writes.replace(created.inventoryId, inventory);
      return created;
    },
    { changes: ['organizations', 'inventory'] },
  );
  return { store, org: organization.rowId, replace: (next: Inventory) => store.write((writes) => writes.replace(store.organizations.bySlug('acme')!.inventoryId, next), { changes: ['inventory'] }) };
}

it('keeps explicit tags and criticality by endpoint id, normalized, and a write is one of the endpoint context', async () => {
  const inventory = smallInventory(3, 10);
  const { store, org } = await storeWith(inventory);
  const [first, second] = inventory.endpoints;
  expect((await store.endpointContext.effective(org)).hasTags).toBe(false);

  const version = store.changes.written(['endpoint-context']);
  const answer = await store.endpointContext.update(org, first!.id.toUpperCase(), { tags: ['Finance', 'laptop'], criticality: 'high' });
  expect(store.changes.written(['endpoint-context'])).not.toBe(version);
  expect(answer).toEqual({
    endpoint_id: first!.id,
    tags: [
      { tag: 'Finance', sources: [{ kind: 'explicit' }] },
      { tag: 'laptop', sources: [{ kind: 'explicit' }] },
    ],
    explicit_tags: ['Finance', 'laptop'],
    criticality: 'high',
  });
  const context = await store.endpointContext.effective(org);
  expect(context.hasTags).toBe(true);
  expect([...context.endpointsWithTag('FINANCE')]).toEqual([first!.id]);
  expect(context.criticalityOf(second!.id)).toBe('normal');
  expect(context.criticalityOf(first!.id)).toBe('high');
  // The same again is no write.
  const unchanged = store.changes.written(['endpoint-context']);
  await store.endpointContext.update(org, first!.id, { criticality: 'high' });
  expect(store.changes.written(['endpoint-context'])).toBe(unchanged);
  expect(await store.endpointContext.update(org, '00000000-0000-4000-8000-000000000000', { criticality: 'low' })).toBeUndefined();
});

it('applies rules at read time, to endpoints a later write brings, and names the rule each tag comes from', async () => {
  const inventory = smallInventory(4, 12);
  const { store, org, replace } = await storeWith({ ...inventory, endpoints: inventory.endpoints.slice(0, 6) });
  const windows = inventory.endpoints.filter((endpoint) => endpoint.operating_system.family === 'windows');
  const rule = await store.endpointContext.createRule(org, { tag: 'windows-fleet', conditions: [{ kind: 'os_family', os_family: 'windows' }], note: '' });
  const shownWindows = windows.filter((endpoint) => inventory.endpoints.slice(0, 6).includes(endpoint));
  expect(rule.endpoints).toBe(shownWindows.length);

  replace(inventory);
  const context = await store.endpointContext.effective(org);
  expect([...context.endpointsWithTag('windows-fleet')].sort()).toEqual(windows.map((endpoint) => endpoint.id).sort());
  const tagged = windows[0]!;
  await store.endpointContext.update(org, tagged.id, { tags: ['Windows-Fleet'] });
  expect((await store.endpointContext.contextOf(org, tagged.id))!.tags).toEqual([
    { tag: 'Windows-Fleet', sources: [{ kind: 'explicit' }, { kind: 'rule', rule_id: rule.id }] },
  ]);
  const hostname = inventory.endpoints[0]!.hostname;
  const byHost = await store.endpointContext.createRule(org, { tag: 'one', conditions: [{ kind: 'hostname', pattern: hostname.toUpperCase() }], note: '' });
  expect(byHost.endpoints).toBe(inventory.endpoints.filter((endpoint) => endpoint.hostname.toLowerCase() === hostname.toLowerCase()).length);
  expect(store.endpointContext.deleteRule(org, byHost.id)).toBe(true);
  expect((await store.endpointContext.effective(org)).endpointsWithTag('one').size).toBe(0);
});

it('matches IP ranges and agent presence, and refuses a range that does not parse', async () => {
  const inventory = smallInventory(5, 20);
  const { store, org } = await storeWith(inventory);
  const withIp = inventory.endpoints.find((endpoint) => endpoint.ip !== null)!;
  const rule = await store.endpointContext.createRule(org, { tag: 'net', conditions: [{ kind: 'ip', cidr: `${withIp.ip}` }, { kind: 'agent', has_agent: withIp.agent_id !== null }], note: '' });
  expect(rule.endpoints).toBeGreaterThanOrEqual(1);
  expect((await store.endpointContext.effective(org)).endpointsWithTag('net').has(withIp.id)).toBe(true);
  await expect(store.endpointContext.createRule(org, { tag: 'bad', conditions: [{ kind: 'ip', cidr: '10.0.0.0/99' }], note: '' })).rejects.toThrow(/CIDR/);
});

it('reads an organization of thousands of endpoints and tags in chunks without losing or repeating one at their edges', async () => {
  const demo = smallInventory(6, 1)!.endpoints[0]!;
  const endpoints = Array.from({ length: 2_500 }, (_, index) => ({
    ...demo,
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    hostname: `host-${String(index).padStart(4, '0')}`,
  }));
  const { store, org } = await storeWith({ endpoints, remediationTargets: [], scopes: [], findings: [] });
  const ids = endpoints.map((endpoint) => endpoint.id);
  // Three tags each: 7,500 rows, read 1,024 at a time; a criticality on 1,100, read the same way.
  expect(await store.endpointContext.bulkUpdate(org, ids, { add_tags: ['alpha', 'Beta', 'gamma'] })).toEqual({ matched: 2_500, changed: 2_500 });
  expect(await store.endpointContext.bulkUpdate(org, ids.slice(700, 1_800), { criticality: 'high' })).toEqual({ matched: 1_100, changed: 1_100 });
  const rule = await store.endpointContext.createRule(org, { tag: 'ones', conditions: [{ kind: 'hostname', pattern: 'host-1*' }], note: '' });
  expect(rule.endpoints).toBe(1_000);

  const context = await store.endpointContext.effective(org);
  expect(context.hostnames.size).toBe(2_500);
  for (const tag of ['ALPHA', 'beta', 'Gamma']) expect(context.endpointsWithTag(tag).size).toBe(2_500);
  expect(context.criticalities()).toEqual({ low: 0, normal: 1_400, high: 1_100, critical: 0 });
  for (const index of [0, 341, 342, 1_023, 1_024, 2_047, 2_048, 2_499]) {
    const id = ids[index]!;
    expect(context.explicitOf(id).tags, id).toEqual(['alpha', 'Beta', 'gamma']);
    expect(context.criticalityOf(id), id).toBe(index >= 700 && index < 1_800 ? 'high' : 'normal');
    expect(context.endpointsWithTag('ones').has(id), id).toBe(index >= 1_000 && index < 2_000);
  }
  expect((await store.endpointContext.exportRows(org)).map((row) => row.hostname)).toEqual(endpoints.map((endpoint) => endpoint.hostname));
});

it('writes a bulk change of thousands of endpoints in several writes, with another write landing among them', async () => {
  const demo = smallInventory(7, 1)!.endpoints[0]!;
  const endpoints = Array.from({ length: 5_000 }, (_, index) => ({ ...demo, id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`, hostname: `host-${index}` }));
  const { store, org } = await storeWith({ endpoints, remediationTargets: [], scopes: [], findings: [] });
  const ids = endpoints.map((endpoint) => endpoint.id);
  const last = ids.at(-1)!;
  const writes = vi.spyOn(store, 'write');
  const bulk = store.endpointContext.bulkUpdate(org, ids, { add_tags: ['fleet'], criticality: 'high' });
  // Another request sets the criticality of an endpoint of the bulk's last write meanwhile:
  // whichever lands last sets it, and the bulk's tag is kept either way.
  const other = store.endpointContext.update(org, last, { criticality: 'low' });
  expect(await bulk).toEqual({ matched: 5_000, changed: 5_000 });
  await other;
  // Three writes of at most 2,000 endpoints each, and the other request's.
  expect(writes.mock.calls.filter(([, options]) => options?.changes?.includes('endpoint-context')).length).toBe(4);

  const context = await store.endpointContext.effective(org);
  expect(context.endpointsWithTag('fleet').size).toBe(5_000);
  expect(context.criticalities().high).toBeGreaterThanOrEqual(4_999);
  expect(['high', 'low']).toContain(context.criticalityOf(last));
  expect(context.explicitOf(last).tags).toEqual(['fleet']);
  // Each endpoint's rows once: what the store holds is what the context says.
  const rows = await store.endpointContext.exportRows(org);
  expect(rows.length).toBe(5_000);
  expect(rows.every((row) => row.tags.join() === 'fleet')).toBe(true);
});
