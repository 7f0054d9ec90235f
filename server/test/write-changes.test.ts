/**
 * What a write changes, as the product wires it (Store.write's `changes`): after a write of each
 * kind, every answer read from that kind differs, the others stay, and no derived value is
 * computed again but those read from it (each cache of `store.changes.derived` counts its
 * computations). Writes go through the route or step that makes them where there is one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeKind } from '../store/derived/change-kinds.js';
import { updateSyncSettings } from '../sync/sync-settings.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { inDefaultOrder, smallInventory } from './support/fixtures.js';

const day = 86_400_000;
/** After every finding's first detection in the fixture, so that some are overdue. */
const now = Date.parse('2026-07-01T12:00:00.000Z');
const inventory = smallInventory(7, 120);
/** The first open finding of the v1 list: the exception covers its CVE, the inventory's write remediates it. */
const target = inDefaultOrder(inventory.findings).find((finding) => finding.status === 'open')!;
let server: ConsoleTestServer;

beforeAll(async () => {
  server = await startConsoleTestServer([{ slug: 'acme', inventory }], { clock: () => now });
});
afterAll(() => server.close());

const app = async (path: string) => {
  const { status, body } = await server.app(path);
  expect(status, path).toBe(200);
  return body as unknown;
};
const v1 = async (path: string) => {
  const response = await fetch(`${server.url}/v1/${path}`, { headers: { Authorization: `Bearer ${server.orgs[0]!.apiKey}` } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as unknown;
};
const write = async (path: string, method: string, body?: unknown) => {
  const answer = await server.app(path, { method, body });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body as { id: string };
};

/** The answers read from derived values (and a few records), by name. */
const answers: Record<string, () => Promise<unknown>> = {
  dashboard: () => app('/orgs/acme/dashboard'),
  'dashboard of critical endpoints': () => app('/orgs/acme/dashboard?criticality=critical'),
  'coverage gaps': () => app('/orgs/acme/coverage-gaps?limit=100'),
  'scope coverage': async () => app(`/orgs/acme/scopes/${inventory.scopes[0]!.id}/coverage?limit=100`),
  'remediation performance': () => app('/orgs/acme/remediation-performance'),
  'remediation plan': () => app('/orgs/acme/remediation-plan'),
  'work packages': () => app('/orgs/acme/work-packages'),
  'saved views': () => app('/orgs/acme/saved-views'),
  software: () => app('/orgs/acme/software?limit=100'),
  'findings by risk': () => app('/orgs/acme/vulnerability-findings?sort=-risk&limit=100'),
  'overdue findings': () => app('/orgs/acme/vulnerability-findings?overdue=true&limit=100'),
  'findings of linux endpoints': () => app('/orgs/acme/vulnerability-findings?osFamily=linux&limit=100'),
  'findings of critical endpoints': () => app('/orgs/acme/vulnerability-findings?criticality=critical&limit=100'),
  'fix-by summary': () => app('/orgs/acme/fix-by-summary'),
  'findings by BOD 26-04 outcome and fix-by date': () => app('/orgs/acme/vulnerability-findings?bod2604Outcome=3%20days&sort=fix_by&limit=100'),
  'endpoints found by a search': () => app('/orgs/acme/endpoints?q=HOST&limit=100'),
  exceptions: () => app('/orgs/acme/exceptions'),
  'v1 findings': () => v1('vulnerability-findings?limit=100'),
  'sla policy': () => app('/orgs/acme/sla-policy'),
  'agent settings': () => app('/orgs/acme/agent-settings'),
  'api keys': () => app('/orgs/acme/api-keys'),
  organizations: () => app('/organizations'),
};

/** Every answer, each read twice (the v1 answers are kept from their second request), as JSON. */
async function readAll(): Promise<Record<string, string>> {
  const read: Record<string, string> = {};
  for (const [name, answer] of Object.entries(answers)) {
    await answer();
    read[name] = JSON.stringify(await answer());
  }
  return read;
}

/** How many computations each cache has started so far. */
const computations = () => new Map(server.store.changes.derived.map((cache) => [cache.name, cache.computations]));

/** The caches that computed since `before`, and the answers that differ from `read`. */
async function afterWrite(before: Map<string, number>, read: Record<string, string>) {
  const now = await readAll();
  const counted = computations();
  return {
    recomputed: [...counted].filter(([name, count]) => count > (before.get(name) ?? 0)).map(([name]) => name).sort(),
    changed: Object.keys(now).filter((name) => now[name] !== read[name]).sort(),
  };
}

/** The caches that depend on one of `kinds` and were used by the answers. */
const following = (kinds: readonly ChangeKind[]) =>
  server.store.changes.derived.filter((cache) => cache.computations > 0 && cache.dependsOn.some((kind) => kinds.includes(kind))).map((cache) => cache.name).sort();

/**
 * What exceptions in force change: the values keyed by them (ExceptedFindings.key: the fix-by due counts too; the sorted
 * orders by risk through it), and the findings of the new exception's scope, computed once.
 */
const keyedByExceptions = [
  'endpoint and target exploit probabilities',
  'excepted findings',
  'exposure figures with exceptions',
  'findings of exception scopes',
  'fix-by due counts',
  'overdue findings',
  'product exploit probabilities',
  'remediation performance',
  'remediation plans',
  'scope coverage counts',
  'scope coverage sets',
  'software versions to update to',
  'sorted orders',
  'work package answers',
  'work packages',
];
/** What a deadline policy changes: the values keyed by it (StoredSlaPolicy.key; the sorted orders by due date through it). */
const keyedByPolicy = ['overdue findings', 'remediation performance', 'sorted orders', 'work package answers', 'work packages'];

/** A write of each kind, what it answers differently, and the caches that must compute again (undefined: those following it). */
const writes: { kind: ChangeKind; write: () => Promise<unknown>; changed: string[]; recomputed?: string[] }[] = [
  {
    kind: 'api-keys',
    write: () => write('/orgs/acme/api-keys', 'POST', { label: 'another' }),
    changed: ['api keys'],
  },
  {
    kind: 'work-packages',
    write: async () => {
      const [step] = ((await app('/orgs/acme/work-packages')) as { data: { external_id: string }[] }).data;
      return write(`/orgs/acme/work-packages/${step!.external_id}`, 'PUT', { owner: 'Desktop team', note: '' });
    },
    changed: ['work packages'],
  },
  {
    kind: 'saved-views',
    write: () => write('/orgs/acme/saved-views', 'POST', { name: 'Critical', view: 'dashboard', query: 'criticality=critical' }),
    changed: ['saved views'],
  },
  {
    kind: 'organizations',
    write: () => write('/orgs/acme', 'PATCH', { name: 'Acme renamed' }),
    changed: ['organizations'],
    // The order by fix-by date, and the plans (each step's earliest fix-by), name the version of what the dates are read from in their keys (fix-by-figures.ts).
    get recomputed() {
      return [...following(['organizations']), 'remediation plans', 'sorted orders'].sort();
    },
  },
  {
    kind: 'agent-settings',
    write: () => write('/orgs/acme/agent-settings', 'PUT', { serverUrl: 'https://agents.elsewhere.example', teamId: 'Q7M3K9D2XP', bundleId: null }),
    changed: ['agent settings'],
  },
  {
    kind: 'deadline-policies',
    write: () => write('/orgs/acme/sla-policy', 'PUT', { critical: 1, high: 2, medium: 3, low: 4, info: 5, kev: 1 }),
    // Items carry their due date and whether they are overdue.
    changed: ['coverage gaps', 'findings by risk', 'findings of linux endpoints', 'overdue findings', 'remediation performance', 'scope coverage', 'sla policy', 'work packages'],
    recomputed: keyedByPolicy,
  },
  {
    kind: 'exceptions',
    write: () =>
      write('/orgs/acme/exceptions', 'POST', {
        scope: { kind: 'cve', cve_id: target.cve_id },
        reason: 'risk_accepted',
        note: 'written by the test of what writes change',
        expires_at: new Date(now + 10 * day).toISOString(),
      }),
    // The fix-by summary leaves excepted findings out.
    changed: ['exceptions', 'fix-by summary', 'overdue findings', 'remediation performance', 'remediation plan', 'software', 'work packages'],
    recomputed: keyedByExceptions,
  },
  {
    // Imported intelligence (exploit-intel-figures.test.ts imports files): what follows it computes again, with the same answers here.
    kind: 'threat-intel',
    write: async () => server.store.write(() => undefined, { changes: ['threat-intel'] }),
    changed: [],
    // As for organizations: the order by fix-by date follows the intelligence's version.
    get recomputed() {
      return [...following(['threat-intel']), 'sorted orders'].sort();
    },
  },
  {
    // What a change of context did to the fix-by dates, recorded after it: nothing derived reads it.
    kind: 'fix-by-changes',
    write: async () => server.store.write(() => undefined, { changes: ['fix-by-changes'] }),
    changed: [],
  },
  {
    // A report made, kept frozen: nothing derived reads it.
    kind: 'reports',
    write: async () => server.store.write(() => undefined, { changes: ['reports'] }),
    changed: [],
  },
  {
    kind: 'sync-records',
    write: async () => updateSyncSettings(server.store, server.orgs[0]!.organization, { reconcileIntervalHours: 12 }),
    changed: [],
  },
  {
    kind: 'staged-inventory',
    write: async () => {
      const staged = server.store.inventories.stage();
      server.store.write((rows) => rows.append(staged, 'endpoints', inventory.endpoints.slice(0, 5), []), { changes: ['staged-inventory'], durable: false });
      server.store.inventories.release(staged);
    },
    changed: [],
  },
  {
    // No endpoint of this organization has a tag or a rule: what follows the context computes again, with the same answers.
    kind: 'endpoint-context',
    write: async () => server.store.write(() => undefined, { changes: ['endpoint-context'] }),
    changed: [],
    // The sorted orders of a list filtered by context name its version in their key (console-queries.ts).
    get recomputed() {
      return [...following(['endpoint-context']), 'sorted orders'].sort();
    },
  },
  {
    kind: 'inventory',
    write: async () => {
      // The target's endpoint patched: its open findings remediated.
      const remediated = inventory.findings
        .filter((finding) => finding.endpoint_id === target.endpoint_id && finding.status === 'open')
        .map((finding) => ({ ...finding, status: 'remediated' as const, updated_at: new Date(now).toISOString() }));
      server.store.write((rows) => rows.merge(server.orgs[0]!.organization.inventoryId, { endpoints: [], remediationTargets: [], scopes: [], findings: remediated }), { changes: ['inventory'] });
    },
    changed: [
      'coverage gaps',
      'dashboard',
      'exceptions',
      'fix-by summary',
      'overdue findings',
      'remediation performance',
      'remediation plan',
      'scope coverage',
      'software',
      'v1 findings',
      'work packages',
    ],
  },
];

describe('a write names what it changes', () => {
  it('gives each cache of derived values a name of its own', async () => {
    await readAll();
    const names = server.store.changes.derived.map((cache) => cache.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('reads alone compute nothing again', async () => {
    await readAll();
    const before = computations();
    await readAll();
    expect(computations()).toEqual(before);
  });

  it.each(writes)('a write of $kind changes what is read from it, and computes again only what follows it', async ({ kind, write: make, changed, recomputed }) => {
    const read = await readAll();
    const before = computations();
    await make();
    const after = await afterWrite(before, read);
    expect(after.changed).toEqual(changed);
    expect(after.recomputed).toEqual(recomputed ?? following([kind]));
  });
});
