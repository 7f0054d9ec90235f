import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Inventory } from '../../contracts/inventory.js';
import { consoleInventory } from './support/console-inventory.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { whileHealthAsked } from './support/health-waits.js';
import { repeated } from './support/linear-time.js';

// Issue 33: a remote's CPE pattern and a user's tag rule against long stored strings, through the
// app the server builds. Each `*` of a pattern was a `.*` of one backtracking expression: this
// scope took 16.5 s to answer, the rule 3.5 s, and /health waited as long. These tests check
// liveness, with bounds no loaded machine reaches and a frozen server passes (an answer within
// 5 s, /health within 2 s); how long /health waits (the issue's 100 ms) is the bench's figure:
// `npm run bench`, section `hostile` (docs/bench.md, "A hostile remote"). That matching stays
// linear is shown by the property tests of the matchers (cpe-pattern.test.ts, tag-rule-globs.test.ts).
const pathological = 'cpe:2.3:a:*a*a*a*a*a*a*a*a*a*a*b';
const thirtyAs = 'a'.repeat(30);
const longHostname = repeated('web', 200 * 1024);

function inventoryOf(): Inventory {
  const inventory = consoleInventory();
  const remediationTargets = inventory.remediationTargets.map((target, index) => (index < 12 ? { ...target, vendor: thirtyAs } : target));
  const [first, second, ...endpoints] = inventory.endpoints;
  const scopeLike = inventory.scopes[2]!;
  const scopes = [
    ...inventory.scopes,
    { ...scopeLike, id: '00000004-0000-4000-8000-0000000000aa', name: 'Pathological', subject_filter: { cpe_patterns: [pathological] } },
    { ...scopeLike, id: '00000004-0000-4000-8000-0000000000ab', name: 'Thirty a', subject_filter: { cpe_patterns: [`cpe:2.3:a:${'a*'.repeat(10)}`] } },
  ];
  const hostnames = [longHostname, `${longHostname}prod`];
  return { ...inventory, remediationTargets, scopes, endpoints: [{ ...first!, hostname: hostnames[0]! }, { ...second!, hostname: hostnames[1]! }, ...endpoints] };
}

/** Longer than any answer of a loaded machine, shorter than the defects' holds. */
const answerMs = 5_000;
const freezeMs = 2_000;

let server: ConsoleTestServer;
const inventory = inventoryOf();

beforeAll(async () => {
  server = await startConsoleTestServer([{ slug: 'acme', inventory }]);
});
afterAll(() => server.close());

describe('patterns on stored strings', () => {
  it('answers the coverage gaps at once beside a remote scope of a pathological CPE pattern, /health answering meanwhile', async () => {
    // As the bench measures coverage: after the dashboard's first answer has read the findings' columns (and the process has warmed up).
    expect((await server.app('/orgs/acme/dashboard')).status).toBe(200);
    const gaps = await whileHealthAsked(server.url, () => server.app('/orgs/acme/coverage-gaps?limit=5'));
    expect(gaps.answer.status).toBe(200);
    console.log(`coverage gaps: ${gaps.ms.toFixed(1)} ms, /health at most ${gaps.healthMaxMs.toFixed(1)} ms`);
    expect(gaps.ms).toBeLessThan(answerMs);
    expect(gaps.healthMaxMs).toBeLessThan(freezeMs);

    const thirtyAsFindings = inventory.findings.filter((finding) => inventory.remediationTargets.some((t) => t.id === finding.remediation_target_id && t.vendor === thirtyAs));
    expect(thirtyAsFindings.length).toBeGreaterThan(0);
    const covered = async (scopeId: string) => (await server.app(`/orgs/acme/scopes/${scopeId}/coverage`)).body.counts.findings;
    // No "b" in thirty a's: the pathological pattern covers nothing; ten stars and a's without it cover each of them.
    expect(await covered('00000004-0000-4000-8000-0000000000aa')).toBe(0);
    expect(await covered('00000004-0000-4000-8000-0000000000ab')).toBe(thirtyAsFindings.length);
  });

  it('evaluates a tag rule "*web*prod*" on a 200 KB hostname at once', async () => {
    const made = await whileHealthAsked(server.url, () =>
      server.app('/orgs/acme/tag-rules', { method: 'POST', body: { tag: 'web-prod', conditions: [{ kind: 'hostname', pattern: '*web*prod*' }] } }),
    );
    expect(made.answer.status).toBe(201);
    console.log(`tag rule: ${made.ms.toFixed(1)} ms, /health at most ${made.healthMaxMs.toFixed(1)} ms`);
    expect(made.answer.body.endpoints).toBe(1);
    // The rule's write and the context's build of two dozen endpoints are one piece of work (about 20 ms unloaded): the
    // thread is held while it runs, which the expression made 2.4 s here.
    expect(made.ms).toBeLessThan(answerMs);
    expect(made.healthMaxMs).toBeLessThan(freezeMs);
    const tagged = await server.app(`/orgs/acme/endpoints/${inventory.endpoints[1]!.id}/context`);
    expect(tagged.body.tags.map((tag: { tag: string }) => tag.tag)).toEqual(['web-prod']);
  });

  it("searches a 200 KB hostname by the lists' free text at once: `q` is at most 100 characters, so SQLite's LIKE reads the hostname at most 100 times", async () => {
    const q = `${longHostname.slice(-96)}prod`;
    const search = await whileHealthAsked(server.url, () => server.app(`/orgs/acme/endpoints?q=${encodeURIComponent(q)}`));
    console.log(`q search: ${search.ms.toFixed(1)} ms, /health at most ${search.healthMaxMs.toFixed(1)} ms`);
    expect(search.answer.body.data.map((endpoint: { id: string }) => endpoint.id)).toEqual([inventory.endpoints[1]!.id]);
    expect(search.ms).toBeLessThan(answerMs);
    expect(search.healthMaxMs).toBeLessThan(freezeMs);
  });

  it('refuses a rule past the bounds of a glob, naming the field and the bound, and keeps the rules stored', async () => {
    const before = (await server.app('/orgs/acme/tag-rules')).body.data;
    const refusals = [
      ['*a'.repeat(17), 'must hold at most 16 "*" (it holds 17)'],
      ['{a,b}'.repeat(6), 'must give at most 32 alternatives by its braces'],
      ['a'.repeat(201), 'must be at most 200 characters'],
    ];
    for (const [pattern, message] of refusals) {
      const refused = await server.app('/orgs/acme/tag-rules', { method: 'POST', body: { tag: 'x', conditions: [{ kind: 'agent', has_agent: true }, { kind: 'os_name', pattern }] } });
      expect([refused.status, refused.body.issues]).toEqual([400, [{ field: 'conditions.1.pattern', message }]]);
      expect(refused.body.error).toBe(`Invalid body field "conditions.1.pattern": ${message}`);
    }
    expect((await server.app('/orgs/acme/tag-rules')).body.data).toEqual(before);
  });
});
