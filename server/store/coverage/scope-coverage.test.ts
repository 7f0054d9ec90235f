import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Inventory } from '../../../contracts/inventory.js';
import type { Scope } from '../../../contracts/scope.js';
import { findingSeverities } from '../../../contracts/enums.js';
import { isCoverageGap, scopeCovers } from '../../test/support/coverage-oracle.js';
import { demoInventory, inDefaultOrder } from '../../test/support/fixtures.js';
import { Store } from '../store.js';

/**
 * The in-memory evaluation (scope-coverage.ts over coverage-columns.ts) against the documented
 * rules written plainly (coverage-oracle.ts), on random scopes over a generated demo dataset
 * with some findings pointing at endpoints and targets the replica lacks, or without a score.
 */
const base = demoInventory(11);
const inventory: Inventory = {
  ...base,
  findings: base.findings.map((finding, index) => {
    if (index % 97 === 1) return { ...finding, endpoint_id: randomUUID() };
    if (index % 89 === 2) return { ...finding, remediation_target_id: randomUUID() };
    if (index % 83 === 3) return { ...finding, cvss_score: null };
    if (index % 79 === 4) return { ...finding, endpoint_id: null, remediation_target_id: null };
    return finding;
  }),
};
const findingsInOrder = inDefaultOrder(inventory.findings);

let store: Store;
let org: number;
let inventoryId: number;
beforeAll(async () => {
  store = await Store.open();
  const organization = store.write((writes) => {
    const created = store.organizations.insert({ slug: 'acme', name: 'Acme', kind: 'local' });
    writes.replace(created.inventoryId, inventory);
    return created;
  }, { changes: ['organizations', 'inventory'] });
  org = organization.rowId;
  inventoryId = organization.inventoryId;
});
afterAll(() => store.close());

const distinct = <T>(values: T[]) => [...new Set(values)];
const vendors = distinct(inventory.remediationTargets.map((t) => t.vendor).filter((v): v is string => v !== null));
const products = distinct(inventory.remediationTargets.map((t) => t.product).filter((p): p is string => p !== null));
const cpeField = (value: string | null) => (value ?? '-').replaceAll(' ', '_').toLowerCase();
const scores = distinct(inventory.findings.map((f) => f.cvss_score).filter((s): s is number => s !== null));

const casing = (text: string) => fc.constantFrom(text, text.toUpperCase(), text.toLowerCase());
const cpePattern = fc.oneof(
  fc.constantFrom(...inventory.remediationTargets.slice(0, 300)).chain((t) =>
    fc
      .tuple(
        fc.constantFrom(cpeField(t.vendor), '*', `${cpeField(t.vendor).slice(0, 2)}*`),
        fc.constantFrom(cpeField(t.product), '*', `*${cpeField(t.product).slice(-2)}`),
        fc.constantFrom(cpeField(t.version), '*', ''),
      )
      .map(([vendor, product, version]) => `cpe:2.3:a:${vendor}:${product}${version ? `:${version}` : ''}:*:*:*:*:*:*:*`),
  ),
  fc.constantFrom('not a cpe', 'cpe:2.3', 'cpe:2.3:o:*:*', 'cpe:2.3:a'),
);
const someOf = <T>(values: readonly T[], maxLength = 4) => fc.uniqueArray(fc.constantFrom(...values), { maxLength });

const endpointIds = distinct(inventory.findings.map((f) => f.endpoint_id).filter((id): id is string => id !== null));

/** Every criterion a scope can have, each with values drawn from the dataset. */
const criteria = {
  subject_filter: {
    subject_types: someOf(['software', 'service', 'configuration'] as const),
    vendors: fc.array(fc.constantFrom(...vendors).chain(casing), { maxLength: 4 }),
    products: fc.array(fc.constantFrom(...products).chain(casing), { maxLength: 4 }),
    cpe_patterns: fc.array(cpePattern, { maxLength: 3 }),
  },
  endpoint_filter: {
    os_families: someOf(['macos', 'windows', 'linux'] as const),
    endpoint_ids: fc.array(fc.oneof(fc.constantFrom(...endpointIds).chain(casing), fc.uuid()), { maxLength: 60 }),
    has_agent: fc.boolean(),
    tags: fc.array(fc.constantFrom('server', 'finance'), { maxLength: 2 }),
  },
  finding_filter: {
    finding_types: someOf(['vulnerability', 'deprecation', 'compliance', 'licensing', 'standardization'] as const),
    min_severity: fc.constantFrom(...findingSeverities),
    min_cvss_score: fc.oneof(fc.constantFrom(...scores), fc.double({ min: 0, max: 10, noNaN: true })),
    kev_only: fc.boolean(),
  },
};
type Filter = keyof typeof criteria;
const criterionNames = Object.entries(criteria).flatMap(([filter, fields]) => Object.keys(fields).map((field) => [filter as Filter, field] as const));

// Up to three criteria: more, and almost every scope would cover nothing.
const scopeArbitrary = fc
  .tuple(
    fc.constantFrom('active', 'active', 'paused', 'archived') as fc.Arbitrary<Scope['status']>,
    fc.shuffledSubarray(criterionNames, { maxLength: 3 }).chain((names) =>
      fc.tuple(...names.map(([filter, field]) => (criteria[filter] as Record<string, fc.Arbitrary<unknown>>)[field]!.map((value) => [filter, field, value] as const))),
    ),
  )
  .map(([status, chosen]): Scope => {
    const filters: Record<Filter, Record<string, unknown>> = { subject_filter: {}, endpoint_filter: {}, finding_filter: {} };
    for (const [filter, field, value] of chosen) filters[filter][field] = value;
    return {
      id: randomUUID(),
      name: 'Random scope',
      description: null,
      status,
      created_at: '2026-07-01T00:00:00.000Z',
      updated_at: '2026-07-01T00:00:00.000Z',
      ...(filters as Pick<Scope, Filter>),
    };
  });

/** The scopes written by the previous run, archived by the next so that only its own count. */
let previous: Scope[] = [];
function writeScopes(scopes: Scope[]): Inventory {
  store.write((writes) =>
    writes.merge(inventoryId, {
      endpoints: [],
      remediationTargets: [],
      findings: [],
      scopes: [...previous.map((scope) => ({ ...scope, status: 'archived' as const })), ...scopes],
    }), { changes: ['inventory'] },
  );
  previous = scopes;
  return { ...inventory, scopes: [...inventory.scopes.map((s) => ({ ...s, status: 'archived' as const })), ...scopes] };
}

describe('in-memory coverage against the documented rules', () => {
  beforeAll(() => {
    // The generated scopes are archived, so that each run's random scopes decide the gaps.
    store.write((writes) => writes.merge(inventoryId, { endpoints: [], remediationTargets: [], findings: [], scopes: inventory.scopes.map((s) => ({ ...s, status: 'archived' })) }), { changes: ['inventory'] });
  });

  it('covers and leaves as gaps exactly what the rules say', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(scopeArbitrary, { minLength: 1, maxLength: 6 }), fc.nat({ max: 2000 }), async (scopes, offset) => {
        const expected = writeScopes(scopes);
        for (const scope of scopes) {
          const covered = findingsInOrder.filter((f) => scopeCovers(expected, scope, f));
          const answer = (await store.coverage.scope(org, scope.id, { limit: 25, offset }))!;
          expect(answer.counts.findings).toBe(covered.length);
          expect(answer.counts.openFindings).toBe(covered.filter((f) => f.status === 'open').length);
          expect(answer.counts.endpoints).toBe(new Set(covered.map((f) => f.endpoint_id).filter((id) => id !== null)).size);
          expect(answer.counts.remediationTargets).toBe(new Set(covered.map((f) => f.remediation_target_id).filter((id) => id !== null)).size);
          expect(answer.page).toEqual({ ids: covered.slice(offset, offset + 25).map((f) => f.id), total: covered.length });
          const open = covered.filter((f) => f.status === 'open');
          expect((await store.coverage.scope(org, scope.id, { limit: 25, offset, status: 'open' }))!.page).toEqual({
            ids: open.slice(offset, offset + 25).map((f) => f.id),
            total: open.length,
          });
        }
        const gaps = findingsInOrder.filter((f) => isCoverageGap(expected, f));
        const answer = await store.coverage.gaps(org, { limit: 25, offset });
        expect(answer.activeScopes).toBe(scopes.filter((s) => s.status === 'active').length);
        expect(answer.counts.findings).toBe(gaps.length);
        expect(answer.counts.bySeverity).toEqual(Object.fromEntries(findingSeverities.map((s) => [s, gaps.filter((f) => f.severity === s).length])));
        expect(answer.page).toEqual({ ids: gaps.slice(offset, offset + 25).map((f) => f.id), total: gaps.length });
      }),
      { numRuns: 30 },
    );
    // Each run writes, reads the findings anew and evaluates the rules plainly: a few hundred ms, more on a busy machine.
  }, 300_000);

  it('answers for the state after a write that lands while the findings are being read', async () => {
    const scope = (finding_filter: Scope['finding_filter']): Scope => ({
      ...inventory.scopes[0]!,
      id: randomUUID(),
      status: 'active',
      subject_filter: {},
      endpoint_filter: {},
      finding_filter,
    });
    const before = writeScopes([scope({ finding_types: ['licensing'] })]);
    const pending = store.coverage.gaps(org, { limit: 5, offset: 0 });
    // The reading has started and yielded; this write makes it start again.
    await new Promise((resolve) => setImmediate(resolve));
    const after = writeScopes([scope({ min_severity: 'high' })]);
    const answer = await pending;
    const expected = findingsInOrder.filter((f) => isCoverageGap(after, f));
    expect(answer.counts.findings).toBe(expected.length);
    expect(answer.page.ids).toEqual(expected.slice(0, 5).map((f) => f.id));
    expect(expected.length).toBeLessThan(findingsInOrder.filter((f) => isCoverageGap(before, f)).length);
  });
});
