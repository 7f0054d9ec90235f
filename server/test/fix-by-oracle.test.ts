/**
 * An independent computation of every open finding's BOD 26-04 outcome, Coordinator decision and
 * fix-by date (issue 37, Tests), from what is outside the product's computation: the findings as
 * /v1 serves them, the endpoints' tags and criticality and the tag rules as /app answers them, the
 * shared CISA KEV snapshot, the shared Vulnrichment records and the published tables' CSVs. It
 * must equal the product's on the demo and on a second seed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleTokenHeader } from '../http/app/require-console-token.js';
import { createLocalOrganization } from '../organizations/manage-organizations.js';
import { ensureDemoOrganization } from '../organizations/ensure-demo-organization.js';
import { seedOrganization } from '../organizations/seed-organization.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { sharedKevDir } from './support/epss-files.js';
import { identitySealer } from './support/identity-sealer.js';
import { repositoryPath, sharedTableCsv, sharedVulnrichmentFiles } from './support/ssvc-files.js';

// Before the shared KEV snapshot (2025-08-25): the demo's own catalog, dated today, gives way to it.
const nowMs = Date.UTC(2025, 7, 1, 10, 0);
const dayMs = 86_400_000;
let server: ConsoleTestServer;

const kevBytes = fs.readFileSync(path.join(sharedKevDir, 'known_exploited_vulnerabilities.json'));
const kevListed = new Map<string, string>(
  (JSON.parse(kevBytes.toString('utf8')) as { vulnerabilities: { cveID: string; dateAdded: string }[] }).vulnerabilities.map((entry) => [entry.cveID, entry.dateAdded]),
);
/** Each shared record's CISA ADP SSVC values, read here: lower case, `poc` as `public poc`. */
const adp = new Map<string, { exploitation: string; automatable: string; impact: string; day: string }>();
for (const { bytes } of sharedVulnrichmentFiles()) {
  const record = JSON.parse(bytes.toString('utf8'));
  const cisa = record.containers.adp?.find((container: any) => container.providerMetadata?.shortName === 'CISA-ADP');
  const ssvc = cisa?.metrics?.find((metric: any) => metric.other?.type === 'ssvc')?.other.content;
  if (!ssvc) continue;
  const options = Object.assign({}, ...ssvc.options) as Record<string, string>;
  const read = (value: string) => (value.toLowerCase() === 'poc' ? 'public poc' : value.toLowerCase());
  adp.set(record.cveMetadata.cveId, { exploitation: read(options.Exploitation!), automatable: read(options.Automatable!), impact: read(options['Technical Impact']!), day: ssvc.timestamp.slice(0, 10) });
}
const bodRows = new Map(sharedTableCsv('cisa_bod_26_04_1_0_0.csv').slice(1).map((cells) => [cells.slice(1, 5).join('|'), cells[5]!]));
const coordinatorRows = new Map(sharedTableCsv('cisa_coordinator_2_0_3.csv').slice(1).map((cells) => [cells.slice(1, 5).join('|'), cells[5]!]));
const outcomeDays: Record<string, number | null> = { '3 days & forensic investigation': 3, '3 days': 3, '14 days': 14, '60 days': 60, 'fix on system upgrade': null };
const missionOf: Record<string, string> = { low: 'low', normal: 'medium', high: 'high', critical: 'high' };
const dayNumber = (iso: string) => Math.floor(Date.parse(iso.length === 10 ? `${iso}T00:00:00Z` : iso) / dayMs);

async function post(path: string, body: Uint8Array | string) {
  const response = await fetch(`${server.url}/app${path}`, { method: 'POST', headers: { [consoleTokenHeader]: server.consoleToken }, body: typeof body === 'string' ? body : Buffer.from(body) });
  expect(response.status, path).toBe(201);
}

beforeAll(async () => {
  server = await startConsoleTestServer([], { clock: () => nowMs });
  await ensureDemoOrganization(server.store, identitySealer);
  const second = await createLocalOrganization(server.store, identitySealer, { slug: 'second', name: 'Second seed', enrollmentSecret: false });
  seedOrganization(server.store, second, 'demo', 2);
  await post('/intel/imports', kevBytes);
  await post('/intel/imports', zipSync(Object.fromEntries(sharedVulnrichmentFiles().map((file) => [repositoryPath(file.name), new Uint8Array(file.bytes)]))));
  // On the second seed, some endpoints are exposed by hand rather than by a rule.
  expect((await server.app('/orgs/second/endpoint-context/bulk', { method: 'POST', body: { filter: 'q=db-', add_tags: ['internet-facing'], criticality: 'critical' } })).status).toBe(200);
}, 120_000);
afterAll(() => server.close());

/** What the oracle says of every open finding of an organization, by id. */
async function expectedOf(slug: string): Promise<Map<string, { bod2604_outcome: string; ssvc_decision: string; fix_by: string | null }>> {
  const { key } = (await server.app(`/orgs/${slug}/api-keys`, { method: 'POST', body: { label: 'oracle' } })).body;
  const findings: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = (await (await fetch(`${server.url}/v1/vulnerability-findings?limit=100&offset=${offset}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: any[]; total: number };
    findings.push(...page.data);
    if (offset + 100 >= page.total) break;
  }
  const endpoints = new Map((await server.appAll(`/orgs/${slug}/endpoints`)).map((endpoint) => [endpoint.id, endpoint]));
  const rules = new Map(((await server.app(`/orgs/${slug}/tag-rules`)).body.data as any[]).map((rule) => [rule.id, rule]));
  // Since when an endpoint is exposed: never known when set by hand, else the last edit of the rule that tags it.
  const exposedSince = new Map<string, number>();
  for (const endpoint of endpoints.values()) {
    if (!endpoint.tags.includes('internet-facing')) continue;
    const context = (await server.app(`/orgs/${slug}/endpoints/${endpoint.id}/context`)).body;
    const tag = context.tags.find((entry: any) => entry.tag === 'internet-facing');
    const explicit = tag.sources.some((source: any) => source.kind === 'explicit');
    exposedSince.set(endpoint.id, explicit ? -Infinity : dayNumber(rules.get(tag.sources[0].rule_id).updated_at));
  }
  const expected = new Map();
  for (const finding of findings.filter((f: any) => f.status === 'open')) {
    const endpoint = endpoints.get(finding.endpoint_id);
    const listed = kevListed.get(finding.cve_id);
    const kev = listed !== undefined || finding.is_kev ? 'yes' : 'no';
    // Unknown counts as the value of the shorter timeline (the default setting).
    // A finding that names no endpoint has neither input; one whose endpoint the replica does not hold has no tag and no criticality set.
    const exposed = finding.endpoint_id === null || endpoint?.tags.includes('internet-facing') ? 'yes' : 'no';
    const mission = finding.endpoint_id === null ? 'high' : missionOf[endpoint?.criticality ?? 'normal']!;
    const values = adp.get(finding.cve_id);
    const automatable = values?.automatable ?? 'yes';
    const impact = values?.impact ?? 'total';
    const exploitation = values?.exploitation ?? 'active';
    const outcome = bodRows.get([kev, exposed, automatable, impact].join('|'))!;
    const entered = Math.max(
      dayNumber(finding.first_detected_at),
      listed !== undefined ? dayNumber(listed) : -Infinity,
      exposed === 'yes' && endpoint !== undefined ? exposedSince.get(endpoint.id)! : -Infinity,
      values && (automatable === 'yes' || impact === 'total') ? dayNumber(values.day) : -Infinity,
    );
    const days = outcomeDays[outcome] ?? null;
    expected.set(finding.id, {
      bod2604_outcome: outcome,
      ssvc_decision: coordinatorRows.get([exploitation, automatable, impact, mission].join('|'))!,
      fix_by: days === null ? null : new Date((entered + days) * dayMs).toISOString().slice(0, 10),
    });
  }
  return expected;
}

describe('the fix-by dates computed apart from the product', () => {
  it.each(['demo', 'second'])('equal the product’s on %s', async (slug) => {
    const expected = await expectedOf(slug);
    const answered = (await server.appAll(`/orgs/${slug}/vulnerability-findings?status=open`)).map((f) => [f.id, { bod2604_outcome: f.bod2604_outcome, ssvc_decision: f.ssvc_decision, fix_by: f.fix_by }] as const);
    expect(new Map(answered)).toEqual(expected);
    // The data reach every kind of input: listed and not, exposed by a rule and not, ADP values and none.
    const outcomes = new Set([...expected.values()].map((value) => value.bod2604_outcome));
    expect(outcomes.size).toBeGreaterThanOrEqual(3);
  }, 60_000);
});
