import { afterEach, expect, it } from 'vitest';
import { generateInventory } from './index.js';
import { seedOrganization } from '../organizations/seed-organization.js';
import { Store } from '../store/store.js';

const stores: Store[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

it("tags the demo's endpoints so that every tag its scopes filter by is carried, with a few high and critical endpoints", async () => {
  const store = await Store.open();
  stores.push(store);
  const organization = store.write(() => store.organizations.insert({ slug: 'demo', name: 'Demo', kind: 'local' }), { changes: ['organizations'] });
  seedOrganization(store, organization, 'demo', 1);
  const context = await store.endpointContext.effective(organization.rowId);
  expect(context.hasTags).toBe(true);
  const scopes = generateInventory('demo', 1).scopes;
  const tagged = scopes.filter((scope) => scope.endpoint_filter.tags?.length);
  expect(tagged.length).toBeGreaterThanOrEqual(4);
  for (const scope of tagged) for (const tag of scope.endpoint_filter.tags!) expect(context.endpointsWithTag(tag).size, `${scope.name}: ${tag}`).toBeGreaterThan(0);
  const { criticality } = await store.endpointContext.tagList(organization.rowId);
  expect(criticality.critical).toBeGreaterThan(0);
  expect(criticality.high).toBeGreaterThan(0);
  expect(criticality.critical + criticality.high).toBeLessThan(criticality.normal / 4);
  // Seeding again keeps the organization's own context.
  const rules = await store.endpointContext.listRules(organization.rowId);
  seedOrganization(store, organization, 'demo', 1);
  expect(await store.endpointContext.listRules(organization.rowId)).toEqual(rules);
});
