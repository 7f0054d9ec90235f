import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../store/store.js';
import { type FakeRemote, startFakeRemote } from '../test/support/fake-remote.js';
import { readMarkdown } from '../test/support/markdown-document.js';
import { sampleInventory } from '../test/support/sample-inventory.js';
import { expectedLists, fastPolicy, replicaLists, storeWithReplica } from '../test/support/sync-fixtures.js';
import { SyncFailedError } from './sync-errors.js';
import { type SyncTransition, syncTransitions } from './sync-machine.js';
import { type SyncOptions, syncOrganization } from './sync-organization.js';

// Each transition of the sync's state machine (sync-machine.ts), taken by the real sync against a
// fake remote; the last test checks that the tests took every row of the table, and the docs list them.
const sizes = { endpoints: 20, targetsPerEndpoint: 2, findingsPerTarget: 2, scopes: 3 };
const remotes: FakeRemote[] = [];
const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(remotes.splice(0).map((remote) => remote.close()));
  for (const store of stores.splice(0)) store.close();
});

/** Every transition the tests of this file took. */
const taken = new Set<string>();
const row = ({ from, event, to }: SyncTransition) => `${from} -${event}-> ${to}`;

async function setUp() {
  const remote = await startFakeRemote({ inventory: sampleInventory(sizes) });
  remotes.push(remote);
  const { store, organization } = await storeWithReplica(remote.url);
  stores.push(store);
  /** Runs a sync; answers the transitions it took, with its report or its failure. */
  const sync = async (more: SyncOptions = {}) => {
    const transitions: string[] = [];
    const onTransition = (transition: SyncTransition) => {
      transitions.push(row(transition));
      taken.add(row(transition));
    };
    const outcome = await syncOrganization(store, organization, { baseUrl: remote.url, apiKey: remote.apiKey }, { ...more, onTransition, policy: { ...fastPolicy, ...more.policy } }).then(
      (report) => ({ report, error: undefined }),
      (error: unknown) => ({ report: undefined, error }),
    );
    return { transitions, ...outcome };
  };
  const state = () => store.sync.get(organization.rowId);
  return { remote, inventory: remote.options.inventory, sync, state, lists: () => replicaLists(store, organization) };
}

/** A fault for every page of a list (the probe's and the count checks' requests ask for one item). */
const failPages = ({ limit }: { limit: number }) => (limit > 1 ? { status: 500 } : undefined);
const failFast = { requestAttempts: 1, collectionAttempts: 1 };

describe("the sync's transitions", () => {
  it('choosing → full → counting → done: a first sync is full, and its count check takes the differences as the baseline', async () => {
    const { sync, state, lists, inventory } = await setUp();
    const { transitions, report } = await sync();
    expect(transitions).toEqual(['choosing -full-due-> full', 'full -applied-> counting', 'counting -counts-checked-> done']);
    expect(report).toMatchObject({ mode: 'full' });
    expect(report).not.toHaveProperty('countDifferences');
    expect(state()).toMatchObject({ lastSuccessMode: 'full', lastError: null, countDifferences: [] });
    expect(lists()).toEqual(expectedLists(inventory));
  });

  it('choosing → incremental → counting → done: a replica synced before, nothing due', async () => {
    const { sync, state } = await setUp();
    await sync();
    const { transitions, report } = await sync();
    expect(transitions).toEqual(['choosing -incremental-due-> incremental', 'incremental -applied-> counting', 'counting -counts-checked-> done']);
    expect(report).toMatchObject({ mode: 'incremental', changes: null });
    expect(state()).toMatchObject({ lastSuccessMode: 'incremental', incrementalsSinceFull: 1 });
  });

  it('choosing → reconcile → counting → done: a reconcile asked for', async () => {
    const { sync, state } = await setUp();
    await sync();
    const { transitions, report } = await sync({ reconcile: true });
    expect(transitions).toEqual(['choosing -reconcile-due-> reconcile', 'reconcile -applied-> counting', 'counting -counts-checked-> done']);
    expect(report).toMatchObject({ mode: 'reconcile', changes: null });
    expect(state()).toMatchObject({ lastSuccessMode: 'reconcile', lastReconcileChanged: 0 });
  });

  it('incremental → reconcile: the remote deleted items, so the replica holds more than its totals', async () => {
    const { sync, state, lists, inventory } = await setUp();
    await sync();
    inventory.findings.splice(10, 5);
    const { transitions, report } = await sync();
    expect(transitions).toEqual([
      'choosing -incremental-due-> incremental',
      'incremental -deletions-found-> reconcile',
      'reconcile -applied-> counting',
      'counting -counts-checked-> done',
    ]);
    expect(report).toMatchObject({ mode: 'reconcile' });
    expect(state()).toMatchObject({ lastSuccessMode: 'reconcile', lastReconcileChanged: 5 });
    expect(lists()).toEqual(expectedLists(inventory));
  });

  it('incremental → full: more changes than an incremental sync keeps in memory', async () => {
    const { sync, lists, inventory } = await setUp();
    await sync();
    const now = new Date().toISOString();
    inventory.endpoints = inventory.endpoints.map((endpoint) => ({ ...endpoint, hostname: `${endpoint.hostname}-moved`, updated_at: now }));
    const { transitions, report } = await sync({ policy: { incrementalMaxItems: 10 } });
    expect(transitions).toEqual(['choosing -incremental-due-> incremental', 'incremental -too-many-changes-> full', 'full -applied-> counting', 'counting -counts-checked-> done']);
    expect(report).toMatchObject({ mode: 'full' });
    expect(lists()).toEqual(expectedLists(inventory));
  });

  it('reconcile → full: more differences than a reconcile keeps in memory', async () => {
    const { sync, state, lists, inventory } = await setUp();
    await sync();
    // Changed without a newer updated_at: only a reconcile or a full sync sees it.
    inventory.endpoints = inventory.endpoints.map((endpoint) => ({ ...endpoint, hostname: `${endpoint.hostname}-renamed` }));
    const { transitions, report } = await sync({ reconcile: true, policy: { incrementalMaxItems: 10 } });
    expect(transitions).toEqual(['choosing -reconcile-due-> reconcile', 'reconcile -too-many-changes-> full', 'full -applied-> counting', 'counting -counts-checked-> done']);
    expect(report).toMatchObject({ mode: 'full' });
    expect(state()).toMatchObject({ lastSuccessMode: 'full', lastReconciledAt: report!.finishedAt });
    expect(lists()).toEqual(expectedLists(inventory));
  });

  it('counting → reconcile: the totals differ after an incremental sync, and the report says which', async () => {
    const { sync, state, lists, inventory } = await setUp();
    await sync();
    // Remediated without a newer updated_at: the incremental sync does not see it, the open findings' total does.
    const index = inventory.findings.findIndex((finding) => finding.status === 'open');
    inventory.findings[index] = { ...inventory.findings[index]!, status: 'remediated', remediated_at: inventory.findings[index]!.updated_at };
    const open = inventory.findings.filter((finding) => finding.status === 'open').length;
    const { transitions, report } = await sync();
    expect(transitions).toEqual([
      'choosing -incremental-due-> incremental',
      'incremental -applied-> counting',
      'counting -counts-differ-> reconcile',
      'reconcile -applied-> counting',
      'counting -counts-checked-> done',
    ]);
    expect(report).toMatchObject({ mode: 'reconcile' });
    expect(report!.countDifferences).toContainEqual({ check: 'openFindings', remote: open, replica: open + 1 });
    expect(state()).toMatchObject({ lastSuccessMode: 'reconcile', lastReconcileChanged: 1, countDifferences: [] });
    expect(lists()).toEqual(expectedLists(inventory));
  });

  it('choosing → failed: the remote fails the probe; the failure is recorded as a full sync', async () => {
    const { sync, state, remote } = await setUp();
    remote.options.fault = () => ({ status: 500 });
    const { transitions, error } = await sync({ policy: failFast });
    expect(transitions).toEqual(['choosing -failed-> failed']);
    expect(error).toBeInstanceOf(SyncFailedError);
    expect(state()).toMatchObject({ lastAttemptMode: 'full', lastSuccessAt: null, lastError: (error as Error).message });
  });

  it('incremental → failed: the last success and the replica stay', async () => {
    const { sync, state, remote, lists } = await setUp();
    await sync();
    const before = lists();
    remote.options.fault = failPages;
    const { transitions, error } = await sync({ policy: failFast });
    expect(transitions).toEqual(['choosing -incremental-due-> incremental', 'incremental -failed-> failed']);
    expect(error).toBeInstanceOf(SyncFailedError);
    expect(state()).toMatchObject({ lastAttemptMode: 'incremental', lastSuccessMode: 'full', lastError: (error as Error).message });
    expect(lists()).toEqual(before);
  });

  it('reconcile → failed', async () => {
    const { sync, state, remote } = await setUp();
    await sync();
    remote.options.fault = failPages;
    const { transitions, error } = await sync({ reconcile: true, policy: failFast });
    expect(transitions).toEqual(['choosing -reconcile-due-> reconcile', 'reconcile -failed-> failed']);
    expect(state()).toMatchObject({ lastAttemptMode: 'reconcile', lastSuccessMode: 'full', lastError: (error as Error).message });
  });

  it('full → failed: nothing of the staging is shown', async () => {
    const { sync, state, remote, lists } = await setUp();
    remote.options.fault = failPages;
    const { transitions, error } = await sync({ policy: failFast });
    expect(transitions).toEqual(['choosing -full-due-> full', 'full -failed-> failed']);
    expect(state()).toMatchObject({ lastAttemptMode: 'full', lastSuccessAt: null, lastError: (error as Error).message });
    expect(lists()).toEqual({ endpoints: [], remediationTargets: [], scopes: [], findings: [] });
  });

  it('counting → failed: interrupted during the count check, the sync it checks stays recorded', async () => {
    const { sync, state, remote, lists, inventory } = await setUp();
    const controller = new AbortController();
    // The count check's requests: one item, without updatedSince (the probe's carry it).
    remote.options.fault = ({ limit, updatedSince }) => {
      if (limit === 1 && updatedSince === undefined) controller.abort(new SyncFailedError('The sync was interrupted'));
      return undefined;
    };
    const { transitions, error } = await sync({ signal: controller.signal });
    expect(transitions).toEqual(['choosing -full-due-> full', 'full -applied-> counting', 'counting -failed-> failed']);
    expect((error as Error).message).toMatch(/interrupted/);
    expect(state()).toMatchObject({ lastSuccessMode: 'full', lastError: (error as Error).message });
    expect(lists()).toEqual(expectedLists(inventory));
  });

  it('every transition of the table was taken above, and docs/sync.md lists exactly those', () => {
    const table = Object.entries(syncTransitions).flatMap(([from, events]) =>
      Object.entries(events).map(([event, to]) => row({ from, event, to } as SyncTransition)),
    );
    expect([...taken].sort()).toEqual(table.sort());
    const documented = readMarkdown(path.join(import.meta.dirname, '../../docs/sync.md')).tables.find((found) => found.heading === "The sync's states");
    expect(documented?.rows.map(({ cells: [from, event, to] }) => `${from} -${event}-> ${to}`).sort()).toEqual(table.sort());
  });
});
