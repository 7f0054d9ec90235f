/**
 * A dataset seeded as `seed` and the first start seed it (seedOrganization), read through the app
 * the server builds, months after the generator's fixed reference day: dated from the day of the
 * store's clock, its newest detections are of that day and its open findings are past their due
 * date in the share the reference day shows, not all of them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoReferenceMs } from '../demo/index.js';
import { seedOrganization } from '../organizations/seed-organization.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';

const day = 86_400_000;
/** Six months after the reference, in the afternoon: the day a newcomer found every open finding overdue. */
const today = demoReferenceMs + 180 * day + 15 * 3_600_000;
let server: ConsoleTestServer;

beforeAll(async () => {
  server = await startConsoleTestServer([], { clock: () => today });
  const organization = server.store.write(() => server.store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' }), { changes: ['organizations'] });
  seedOrganization(server.store, organization, 'demo', 1);
});
afterAll(() => server.close());

it('dates a seeded dataset from the day it is seeded: some open findings overdue, not all', async () => {
  const { totals } = (await server.app('/orgs/acme/remediation-performance')).body as { totals: { open: number; open_overdue: number } };
  expect(totals.open).toBeGreaterThan(10_000);
  const overdue = totals.open_overdue / totals.open;
  expect(overdue).toBeGreaterThan(0.3);
  expect(overdue).toBeLessThan(0.75);

  const newest = (await server.app('/orgs/acme/vulnerability-findings?status=open&sort=-first_detected_at&limit=1')).body.data[0] as { first_detected_at: string };
  const age = today - Date.parse(newest.first_detected_at);
  expect(age).toBeGreaterThan(0);
  expect(age).toBeLessThan(2 * day);
});
