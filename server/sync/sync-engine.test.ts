import { afterEach, describe, expect, it } from 'vitest';
import type { Inventory } from '../../contracts/inventory.js';
import type { Store } from '../store/store.js';
import { type FakeRemote, type FakeRemoteOptions, type FakeRequest, startFakeRemote } from '../test/support/fake-remote.js';
import { sampleInventory } from '../test/support/sample-inventory.js';
import { SyncFailedError } from './sync-errors.js';
import type { SyncProgress } from '../../contracts/console/sync.js';
import { type SyncOptions, syncOrganization } from './sync-organization.js';
import { expectedLists, fastPolicy, replicaLists, storeWithReplica } from '../test/support/sync-fixtures.js';

const small = { endpoints: 25, targetsPerEndpoint: 3, findingsPerTarget: 3, scopes: 4 };
const remotes: FakeRemote[] = [];
const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(remotes.splice(0).map((remote) => remote.close()));
  for (const store of stores.splice(0)) store.close();
});

async function setUp(options: Partial<FakeRemoteOptions> = {}) {
  const remote = await startFakeRemote({ inventory: sampleInventory(small), ...options });
  remotes.push(remote);
  const { store, organization } = await storeWithReplica(remote.url);
  stores.push(store);
  const sync = (more: SyncOptions = {}) =>
    syncOrganization(store, organization, { baseUrl: remote.url, apiKey: remote.apiKey }, { ...more, policy: { ...fastPolicy, ...more.policy } });
  const lists = () => replicaLists(store, organization);
  return { remote, store, organization, sync, lists };
}

/** Fails with the sync's message, for assertions on it. */
async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SyncFailedError);
  return (error as Error).message;
}

describe('full sync', () => {
  it('replicates the remote exactly, reporting progress per collection', async () => {
    const { remote, sync, lists } = await setUp();
    const progress: SyncProgress[] = [];
    const report = await sync({ onProgress: (p) => progress.push(p) });
    expect(report.mode).toBe('full');
    expect(report.counts).toEqual({ endpoints: 25, remediationTargets: 75, scopes: 4, findings: 225 });
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    expect(progress).toContainEqual({ org: 'replica', mode: 'full', phase: 'fetching', collection: 'findings', fetched: 225, total: 225 });
    expect(progress.at(-1)?.phase).toBe('writing');
    // Pages of 100; the requests of one item after them are the count check's (count-check.ts).
    expect(remote.requests.filter((r) => r.collection === 'findings' && r.updatedSince === undefined && r.limit > 1).map((r) => r.limit)).toEqual([100, 100, 100]);
  });

  it('stores a remote with another default order, offsets in timestamps and unknown fields in our order', async () => {
    const inventory = sampleInventory(small);
    for (const endpoint of inventory.endpoints) {
      const shifted = new Date(Date.parse(endpoint.created_at) + 2 * 3600_000).toISOString().replace('Z', '+02:00').replace('.000', '');
      Object.assign(endpoint, { created_at: shifted, extra_field: 'ignored', operating_system: { ...endpoint.operating_system, vendor: undefined, extra: 1 } });
    }
    const { sync, lists } = await setUp({ inventory, order: 'newest-first' });
    await sync();
    const endpoints = lists().endpoints as { created_at: string; operating_system: { vendor: unknown } }[];
    expect(endpoints).toHaveLength(25);
    expect(endpoints[0]).not.toHaveProperty('extra_field');
    expect(endpoints[0]!.operating_system).toEqual(expect.not.objectContaining({ extra: 1 }));
    expect(endpoints[0]!.operating_system.vendor).toBeNull();
    expect(endpoints[0]!.created_at).toMatch(/\+02:00$/);
    const instants = endpoints.map((e) => Date.parse(e.created_at));
    expect(instants).toEqual([...instants].sort((a, b) => a - b));
  });

  it('skips invalid records, reports their ids, and stores the rest', async () => {
    const inventory = sampleInventory(small);
    const brokenFinding = inventory.findings[3]!;
    const brokenEndpoint = inventory.endpoints[5]!;
    (brokenFinding as { severity: string }).severity = 'catastrophic';
    delete (brokenEndpoint as Partial<typeof brokenEndpoint>).hostname;
    (inventory.scopes as unknown[]).push({ name: 'no id' });
    const { store, organization, sync, lists } = await setUp({ inventory });
    const report = await sync();
    expect(report.skippedCount).toBe(3);
    expect(report.skippedIds.sort()).toEqual([brokenFinding.id, brokenEndpoint.id].sort());
    expect(lists().findings).toHaveLength(224);
    expect(lists().endpoints).toHaveLength(24);
    expect(store.sync.get(organization.rowId)).toMatchObject({ skippedCount: 3, lastError: null });
  });
});

describe('faults', () => {
  it('retries 5xx, a 429 with Retry-After in seconds, and a truncated page, then succeeds', async () => {
    const { remote, sync, lists } = await setUp({
      fault: ({ count }) =>
        count === 6 ? { status: 503 } : count === 7 ? { status: 429, headers: { 'Retry-After': '1' } } : count === 9 ? { body: '{"data":[{"id":' } : undefined,
    });
    const started = performance.now();
    await sync();
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
  });

  it('honours Retry-After as an HTTP date and caps it', async () => {
    const { sync } = await setUp({
      fault: ({ count }) => (count === 5 ? { status: 429, headers: { 'Retry-After': new Date(Date.now() + 3600_000).toUTCString() } } : undefined),
    });
    const started = performance.now();
    await sync({ policy: { retryAfterMaxMs: 300 } });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3000);
  });

  it('retries answers slower than the timeout, and fails with the reason when they stay slow', async () => {
    const slowOnce = await setUp({ fault: ({ count }) => (count === 5 ? { delayMs: 600 } : undefined) });
    await slowOnce.sync({ policy: { requestTimeoutMs: 300 } });
    expect(slowOnce.lists().scopes).toHaveLength(4);

    const { sync, store, organization } = await setUp({ fault: ({ collection }) => (collection === 'findings' ? { delayMs: 400 } : undefined) });
    expect(await failure(sync({ policy: { requestTimeoutMs: 150, requestAttempts: 2 } }))).toMatch(/did not answer within 0\.15 s[^]*, 2 attempts\.$/);
    expect(store.sync.get(organization.rowId).lastError).toMatch(/did not answer/);
  });

  it('fails at once on 401 and other 4xx', async () => {
    const { remote, sync } = await setUp({ fault: () => ({ status: 401 }) });
    expect(await failure(sync())).toMatch(/refused the API key \(401 Unauthorized\)/);
    expect(remote.requests).toHaveLength(1);
    const notFound = await setUp({ fault: () => ({ status: 404 }) });
    expect(await failure(notFound.sync())).toMatch(/answered 404/);
    expect(notFound.remote.requests).toHaveLength(1);
  });

  it('fails after bounded retries of a page that is never JSON, keeping the last good replica', async () => {
    const { remote, sync, lists, store, organization } = await setUp();
    await sync();
    const before = lists();
    remote.options.inventory.endpoints.pop();
    remote.options.fault = ({ collection }) => (collection === 'findings' ? { body: 'not json' } : undefined);
    expect(await failure(sync())).toMatch(/not JSON/);
    expect(lists()).toEqual(before);
    const state = store.sync.get(organization.rowId);
    expect(state.lastError).toMatch(/not JSON/);
    expect(state.lastSuccessAt).not.toBeNull();
  });
});

describe('paging safety', () => {
  function addEarlyFinding(inventory: Inventory, n: number) {
    inventory.findings.push({ ...inventory.findings[0]!, id: `00000003-0000-4000-8000-f000000000${String(n).padStart(2, '0')}`, created_at: '2020-01-01T00:00:00.000Z' });
  }

  it('reads a collection again when its total changes between pages', async () => {
    let shifts = 0;
    const { remote, sync, lists } = await setUp({
      fault: ({ collection, offset }) => {
        if (collection === 'findings' && offset === 100 && shifts < 2) addEarlyFinding(remote.options.inventory, ++shifts);
        return undefined;
      },
    });
    await sync();
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    expect(lists().findings).toHaveLength(227);
  });

  it('fails with the reason when the data keeps shifting, keeping the last good replica', async () => {
    const { remote, sync, lists } = await setUp();
    await sync();
    const before = lists();
    let shifts = 0;
    remote.options.fault = ({ collection, offset }) => {
      if (collection === 'findings' && offset === 100) addEarlyFinding(remote.options.inventory, ++shifts);
      return undefined;
    };
    expect(await failure(sync({ full: true }))).toMatch(/findings changed while they were paged, 3 times.*total went from/);
    expect(lists()).toEqual(before);
  });

  it('detects a page that repeats ids, and a list with fewer items than its total', async () => {
    const repeats = await setUp({
      fault: ({ collection, offset }) => (collection === 'endpoints' && offset === 0 ? { page: (page) => ({ ...page, data: [...page.data.slice(0, 24), page.data[0]] }) } : undefined),
    });
    expect(await failure(repeats.sync())).toMatch(/endpoints changed.*came twice/);

    const short = await setUp({ fault: ({ collection }) => (collection === 'scopes' ? { page: (page) => ({ ...page, total: page.total + 1 }) } : undefined) });
    expect(await failure(short.sync())).toMatch(/scopes changed.*ended after 4 of 5/);
  });

  it('detects an id that comes twice when comparing a replica that holds data, whether it holds the item or not', async () => {
    const { remote, sync, lists } = await setUp();
    await sync();
    const before = lists();
    // The first endpoint comes first on the first page of ten and again on the second: as the
    // replica holds it, or under an id it does not hold.
    for (const first of [before.endpoints[0], { ...(before.endpoints[0] as object), id: '00000001-0000-4000-8000-0000000fffff' }]) {
      remote.options.fault = ({ collection, offset }) =>
        collection === 'endpoints' && offset <= 10 ? { page: (page) => ({ ...page, data: [first as (typeof page.data)[number], ...page.data.slice(1)] }) } : undefined;
      const policy = { pageSize: 10 };
      expect(await failure(sync({ full: true, policy }))).toMatch(/endpoints changed.*came twice/);
      expect(await failure(sync({ reconcile: true, policy }))).toMatch(/endpoints changed.*came twice/);
      expect(lists()).toEqual(before);
    }
  });
});

describe('bounds on what the remote sends', () => {
  it('fails, before asking for them, a sync whose lists would take more pages than its budget', async () => {
    // 4 scopes, then 25 endpoints in pages of 10: 1 + 3 pages, past a budget of 3.
    const { remote, sync } = await setUp();
    const message = await failure(sync({ policy: { pageSize: 10, pageBudget: 3 } }));
    expect(message).toContain(`The remote tenant at ${remote.url} sent more than this console accepts: 25 endpoints in pages of 10 would take 3 pages`);
    expect(message).toContain('past the 3 pages one sync may request');
    expect(remote.requests.filter((r) => r.collection === 'endpoints' && r.offset > 0)).toEqual([]);
  });

  it('fails a sync whose total passes the bound, and one whose page holds more than the limit asked, without retrying either', async () => {
    const huge = await setUp({ fault: ({ collection }) => (collection === 'scopes' ? { page: (page) => ({ ...page, total: 10_000_001 }) } : undefined) });
    expect(await failure(huge.sync())).toMatch(/a total of 10000001 items, beyond the bound of 10,000,000 a list may hold \(the list of scopes\)/);
    expect(huge.remote.requests.filter((r) => r.collection === 'scopes')).toHaveLength(1);

    const doubled = await setUp({ fault: ({ collection }) => (collection === 'endpoints' ? { page: (page) => ({ ...page, data: [...page.data, ...page.data] }) } : undefined) });
    expect(await failure(doubled.sync({ policy: { pageSize: 10 } }))).toMatch(/20 items in one page, where at most the 10 asked for may come \(the list of endpoints\)/);
  });

  it('fails a page whose body passes the cap, cut off there', async () => {
    const { sync } = await setUp();
    expect(await failure(sync({ policy: { pageMaxBytes: 1024 } }))).toMatch(/one page weighed more than 1 KiB \(the list of scopes\)/);
  });
});

/** Pages of 2 items: some 165 pages, enough rounds for the window to move. */
const tinyPages = { pageSize: 2, specPageSize: 2 };
/** The requests of list pages: not the probes and count checks, which ask for one item. */
const pageRequests = (remote: FakeRemote): FakeRequest[] => remote.requests.filter((request) => request.limit > 1);
const mostInFlight = (requests: FakeRequest[]) => Math.max(...requests.map((request) => request.inFlight));

describe('pages in flight', () => {
  it('grow over a slow remote, never past their bound, and the replica equals the remote', async () => {
    const { remote, sync, lists } = await setUp({ fault: ({ limit }) => (limit > 1 ? { delayMs: 15 } : undefined) });
    await sync({ policy: { ...tinyPages, pagesInFlightAtFirst: 2, pagesInFlightBound: 7 } });
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    const most = mostInFlight(pageRequests(remote));
    expect(most).toBeGreaterThan(2);
    expect(most).toBeLessThanOrEqual(7);
  });

  it('back off from a remote that serves three at a time and answers 503 past that: few requests are refused', async () => {
    const { remote, sync, lists } = await setUp({
      fault: ({ limit, inFlight }) => (limit > 1 && inFlight > 3 ? { status: 503 } : limit > 1 ? { delayMs: 10 } : undefined),
    });
    await sync({ policy: { ...tinyPages, pagesInFlightAtFirst: 16, pagesInFlightBound: 16, requestAttempts: 20 } });
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    const requests = pageRequests(remote);
    const refused = requests.filter((request) => request.inFlight > 3).length;
    // A window that stayed at 16 would have 13 of every 16 requests refused, again and again.
    expect(refused / requests.length).toBeLessThan(0.25);
  });

  it('are all held for a Retry-After, not only the request it answered', async () => {
    let findingsPages = 0;
    const { remote, sync, lists } = await setUp({
      fault: ({ collection, limit }) => {
        if (limit === 1) return undefined;
        if (collection === 'findings' && ++findingsPages === 30) return { status: 429, headers: { 'Retry-After': '1' } };
        return { delayMs: 10 };
      },
    });
    await sync({ policy: tinyPages });
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    const refusedAt = remote.requests.find((request) => request.collection === 'findings' && request.limit > 1 && request.offset === 29 * 2)!.receivedAt;
    // Pages in flight when the 429 left answer meanwhile; none is asked for until its second has passed.
    const asked = remote.requests.filter((request) => request.receivedAt > refusedAt + 50 && request.receivedAt < refusedAt + 950);
    expect(asked).toEqual([]);
    expect(remote.requests.some((request) => request.receivedAt >= refusedAt + 950)).toBe(true);
  });
});

describe('page size', () => {
  it('asks pages of 1,000 of a remote that allows them', async () => {
    const { remote, sync, lists } = await setUp({ maxLimit: 1_000 });
    await sync();
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    expect(pageRequests(remote).map((request) => request.limit)).toEqual([1_000, 1_000, 1_000, 1_000]);
  });

  it("asks the specification's 100 once the remote refused 1,000, for the rest of the sync", async () => {
    const { remote, sync, lists } = await setUp();
    await sync();
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    const limits = pageRequests(remote).map((request) => request.limit);
    expect(limits[0]).toBe(1_000);
    expect(limits.slice(1).every((limit) => limit === 100)).toBe(true);
    expect(pageRequests(remote).filter((request) => request.collection === 'findings')).toHaveLength(3);
  });

  it('asks 100 when a page of 1,000 weighs more than the bound of a body, which a page of 100 stays within', async () => {
    const inventory = sampleInventory(small);
    const weight = (items: unknown[]) => Buffer.byteLength(JSON.stringify({ data: items, total: items.length, limit: 1_000, offset: 0 }));
    const heaviestOf100 = Math.max(...Object.values(inventory).map((items: unknown[]) => weight(items.slice(0, 100))));
    expect(weight(inventory.findings)).toBeGreaterThan(heaviestOf100 + 1024);
    const { remote, sync, lists } = await setUp({ inventory, maxLimit: 1_000 });
    await sync({ policy: { pageMaxBytes: heaviestOf100 + 1024 } });
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    expect(pageRequests(remote).filter((request) => request.collection === 'findings').map((request) => request.limit)).toEqual([1_000, 100, 100, 100]);
  });
});

describe('the bytes of the pages held', () => {
  it('stay within their bound: pages of 100 heavier than their share of it come fewer at a time, each up to the bound of a body', async () => {
    const inventory = sampleInventory(small);
    const weight = (items: unknown[]) => Buffer.byteLength(JSON.stringify({ data: items, total: items.length, limit: 100, offset: 0 }));
    const heaviestOf100 = Math.max(...Object.values(inventory).map((items: unknown[]) => weight(items.slice(0, 100))));
    const pageMaxBytes = heaviestOf100 + 1024;
    const { remote, sync, lists } = await setUp({ inventory, fault: ({ limit }) => (limit > 1 ? { delayMs: 5 } : undefined) });
    // Sixteen in flight would give each page a quarter of the bound of a body, less than the heaviest weighs.
    await sync({ policy: { pageSize: 100, pagesInFlightAtFirst: 16, pagesInFlightBound: 16, pageMaxBytes, pagesHeldMaxBytes: 4 * pageMaxBytes } });
    expect(lists()).toEqual(expectedLists(remote.options.inventory));
    const findings = pageRequests(remote).filter((request) => request.collection === 'findings');
    expect(findings.length).toBeGreaterThan(1);
    // Once heavier pages were let in, at most four were asked at a time.
    expect(mostInFlight(findings.slice(1))).toBeLessThanOrEqual(4);
  });

  it('fail a sync whose page of 100 weighs more than the bound of a body, even with fewer in flight', async () => {
    const { sync } = await setUp();
    expect(await failure(sync({ policy: { pageSize: 100, pagesInFlightBound: 16, pageMaxBytes: 2048, pagesHeldMaxBytes: 8192 } }))).toMatch(/one page weighed more than 2 KiB \(the list of [a-z ]+\)/);
  });
});
