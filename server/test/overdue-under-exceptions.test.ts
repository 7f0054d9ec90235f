/**
 * Deadlines and exceptions as the product wires them (the store hands the exceptions' excepted
 * findings to the deadline figures): an exception of an overdue finding, made through /app,
 * takes it out of the overdue counts, the overdue filter and its own `overdue` flag; once it
 * expires, by the clock alone, the finding is overdue again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { smallInventory } from './support/fixtures.js';

const day = 86_400_000;
/** The store's clock, moved by the test; after every finding's first detection in the fixture, so that some are overdue. */
let now = Date.parse('2026-07-01T12:00:00.000Z');
let server: ConsoleTestServer;

beforeAll(async () => {
  server = await startConsoleTestServer([{ slug: 'acme', inventory: smallInventory(7, 120) }], { clock: () => now });
});
afterAll(() => server.close());

const overdueIds = async () => (await server.appAll('/orgs/acme/vulnerability-findings?overdue=true')).map((finding) => finding.id as string);
const totals = async () => (await server.app('/orgs/acme/remediation-performance')).body.totals as { open_overdue: number; open_overdue_excepted: number };

describe('an exception of an overdue finding', () => {
  it('leaves it out of what is overdue while in force, and counts it again once expired', async () => {
    const before = await overdueIds();
    expect(before.length).toBeGreaterThan(1);
    const counted = await totals();
    expect(counted).toMatchObject({ open_overdue: before.length, open_overdue_excepted: 0 });
    const [excepted] = before;

    const created = await server.app('/orgs/acme/exceptions', {
      method: 'POST',
      body: { scope: { kind: 'finding', finding_id: excepted }, reason: 'risk_accepted', note: 'Isolated host', expires_at: new Date(now + 10 * day).toISOString() },
    });
    expect(created.status).toBe(201);
    expect(await overdueIds()).toEqual(before.filter((id) => id !== excepted));
    expect(await totals()).toMatchObject({ open_overdue: before.length - 1, open_overdue_excepted: 1 });
    const detail = (await server.app(`/orgs/acme/vulnerability-findings/${excepted}`)).body;
    expect(detail).toMatchObject({ overdue: false, exception: { id: created.body.id, reason: 'risk_accepted' } });

    const version = server.store.version;
    now += 11 * day;
    expect(await overdueIds()).toEqual(expect.arrayContaining(before));
    expect(await totals()).toMatchObject({ open_overdue_excepted: 0 });
    expect((await server.app(`/orgs/acme/vulnerability-findings/${excepted}`)).body).toMatchObject({ overdue: true, exception: null });
    // Expiry needed no write.
    expect(server.store.version).toBe(version);
  });
});
