/**
 * Fix-by dates through the product's own app (issue 37, items 2 to 5): every row of both of
 * CERT/CC's tables, driven through real findings (the remote's is_kev), Vulnrichment records
 * imported through importThreatIntel, endpoint tags and criticality set through /app; each
 * finding's outcome, decision, date and path as the console answers it, against the shared CSVs;
 * the settings (exposure tags, unknown), the filters, the sort and the summary.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Inventory } from '../../contracts/inventory.js';
import { consoleTokenHeader } from '../http/app/require-console-token.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { parseCsv } from './support/csv.js';
import { inSortOrder } from './support/sort-oracle.js';
import { smallInventory } from './support/fixtures.js';
import { sharedTableCsv, vulnrichmentRecord } from './support/ssvc-files.js';

const nowMs = Date.UTC(2026, 11, 1, 9, 30);
const exploitationValues = ['none', 'public poc', 'active'];
const criticalities = [
  ['low', 'low'],
  ['normal', 'medium'],
  ['high', 'high'],
] as const;
/** Written as CISA's ADP writes them, `poc` and capitals included: the import normalises them. */
const written: Record<string, string> = { none: 'None', 'public poc': 'poc', active: 'Active' };
const adpTimestamp = '2024-10-23T13:32:05.098252Z';

interface Case {
  findingId: string;
  kev: string;
  exposed: string;
  exploitation: string;
  automatable: string;
  impact: string;
  mission: string;
}

let server: ConsoleTestServer;
let inventory: Inventory;
const cases: Case[] = [];

/** The inventory: six endpoints (exposed or not × three criticalities), and an open finding for every combination of the tables' inputs. */
function tableInventory(): Inventory {
  const base = smallInventory(3, 6);
  const template = base.findings[0]!;
  const findings = [];
  let n = 0;
  for (const [endpointIndex, endpoint] of base.endpoints.entries()) {
    const exposed = endpointIndex < 3 ? 'yes' : 'no';
    const mission = criticalities[endpointIndex % 3]![1];
    const target = base.remediationTargets.find((t) => t.endpoint_id === endpoint.id)!;
    for (const kev of ['no', 'yes']) {
      for (const [e, exploitation] of exploitationValues.entries()) {
        for (const automatable of ['no', 'yes']) {
          for (const impact of ['partial', 'total']) {
            const id = crypto.randomUUID();
            findings.push({
              ...template,
              id,
              endpoint_id: endpoint.id,
              remediation_target_id: target.id,
              cve_id: `CVE-2099-${1000 + e * 4 + (automatable === 'yes' ? 2 : 0) + (impact === 'total' ? 1 : 0)}`,
              is_kev: kev === 'yes',
              status: 'open' as const,
              remediated_at: null,
              first_detected_at: new Date(nowMs - (10 + (n++ % 40)) * 86_400_000).toISOString(),
            });
            cases.push({ findingId: id, kev, exposed, exploitation, automatable, impact, mission });
          }
        }
      }
    }
  }
  return { ...base, findings };
}

async function importRecords(records: unknown[]) {
  const response = await fetch(`${server.url}/app/intel/imports`, {
    method: 'POST',
    headers: { [consoleTokenHeader]: server.consoleToken },
    body: JSON.stringify(records),
  });
  expect(response.status).toBe(201);
  return response.json() as Promise<any>;
}

beforeAll(async () => {
  inventory = tableInventory();
  server = await startConsoleTestServer([{ slug: 'acme', inventory }], { clock: () => nowMs });
  const records = exploitationValues.flatMap((exploitation, e) =>
    ['no', 'yes'].flatMap((automatable) =>
      ['partial', 'total'].map((impact) =>
        vulnrichmentRecord(
          `CVE-2099-${1000 + e * 4 + (automatable === 'yes' ? 2 : 0) + (impact === 'total' ? 1 : 0)}`,
          { Exploitation: written[exploitation]!, Automatable: automatable, 'Technical Impact': impact },
          adpTimestamp,
        ),
      ),
    ),
  );
  const imported = await importRecords(records);
  expect(imported.report).toMatchObject({ records: 12, normalised: expect.arrayContaining([{ field: 'Exploitation', from: 'poc', to: 'public poc', count: 4 }]) });
  for (const [index, endpoint] of inventory.endpoints.entries()) {
    const body = { tags: index < 3 ? ['internet-facing'] : ['office'], criticality: criticalities[index % 3]![0] };
    expect((await server.app(`/orgs/acme/endpoints/${endpoint.id}/context`, { method: 'PUT', body })).status).toBe(200);
  }
});
afterAll(() => server.close());

/** The published tables, read from the shared CSVs: inputs joined by "|" → outcome. */
const bodRows = new Map(sharedTableCsv('cisa_bod_26_04_1_0_0.csv').slice(1).map((cells) => [cells.slice(1, 5).join('|'), cells[5]!]));
const coordinatorRows = new Map(sharedTableCsv('cisa_coordinator_2_0_3.csv').slice(1).map((cells) => [cells.slice(1, 5).join('|'), cells[5]!]));
const days: Record<string, number | null> = { '3 days & forensic investigation': 3, '3 days': 3, '14 days': 14, '60 days': 60, 'fix on system upgrade': null };
const addDays = (iso: string, count: number) => new Date(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) + count * 86_400_000).toISOString().slice(0, 10);

describe('fix-by dates on the findings', () => {
  it('gives every finding the outcome and decision of its row of both tables, its fix-by date and its path', async () => {
    const findings = new Map((await server.appAll('/orgs/acme/vulnerability-findings')).map((finding) => [finding.id, finding]));
    const bodSeen = new Set<string>();
    const coordinatorSeen = new Set<string>();
    for (const item of cases) {
      const finding = findings.get(item.findingId)!;
      const bodKey = [item.kev, item.exposed, item.automatable, item.impact].join('|');
      const coordinatorKey = [item.exploitation, item.automatable, item.impact, item.mission].join('|');
      bodSeen.add(bodKey);
      coordinatorSeen.add(coordinatorKey);
      const outcome = bodRows.get(bodKey)!;
      expect({ id: item.findingId, outcome: finding.bod2604_outcome, decision: finding.ssvc_decision }).toEqual({ id: item.findingId, outcome, decision: coordinatorRows.get(coordinatorKey) });
      // The ADP record predates every detection and the tags are set, not dated: the date counts from first detection.
      expect(finding.fix_by).toBe(days[outcome] === null ? null : addDays(finding.first_detected_at, days[outcome]!));
      expect(finding.fix_by_path.map((step: any) => [step.input, step.value, step.assumed])).toEqual([
        ['In KEV', item.kev, false],
        ['Publicly exposed', item.exposed, false],
        ['Automatable', item.automatable, false],
        ['Technical impact', item.impact, false],
        ['Exploitation', item.exploitation, false],
        ['Mission and well-being', item.mission, false],
      ]);
      expect(finding.fix_by_path[1].source).toBe(item.exposed === 'yes' ? 'tag internet-facing, set on the endpoint' : 'no tag internet-facing');
      expect(finding.fix_by_path[2].source).toBe('CISA ADP, 2024-10-23');
    }
    expect(bodSeen.size).toBe(16);
    expect(coordinatorSeen.size).toBe(36);
  });

  it('filters by outcome, decision and fix-by date and sorts by fix-by date, as the items say', async () => {
    const all = await server.appAll('/orgs/acme/vulnerability-findings');
    for (const outcome of Object.keys(days)) {
      const kept = await server.appAll(`/orgs/acme/vulnerability-findings?bod2604Outcome=${encodeURIComponent(outcome)}`);
      expect(kept.map((f) => f.id).sort()).toEqual(all.filter((f) => f.bod2604_outcome === outcome).map((f) => f.id).sort());
    }
    for (const outcome of ['3 days', 'fix on system upgrade']) {
      const endpoints = await server.appAll(`/orgs/acme/endpoints?bod2604Outcome=${encodeURIComponent(outcome)}`);
      expect(endpoints.map((e) => e.id).sort()).toEqual([...new Set(all.filter((f) => f.bod2604_outcome === outcome).map((f) => f.endpoint_id))].sort());
    }
    const act = await server.appAll('/orgs/acme/vulnerability-findings?ssvcDecision=act');
    expect(act.map((f) => f.id).sort()).toEqual(all.filter((f) => f.ssvc_decision === 'act').map((f) => f.id).sort());
    const before = addDays(new Date(nowMs).toISOString(), 10);
    const soon = await server.appAll(`/orgs/acme/vulnerability-findings?fixByBefore=${before}`);
    expect(soon.map((f) => f.id).sort()).toEqual(all.filter((f) => f.fix_by !== null && f.fix_by <= before).map((f) => f.id).sort());
    const sorted = await server.appAll('/orgs/acme/vulnerability-findings?sort=fix_by');
    const dates = sorted.map((f) => f.fix_by);
    const dated = dates.filter((date) => date !== null);
    expect(dates.slice(0, dated.length)).toEqual([...dated].sort());
    const bad = await server.app('/orgs/acme/vulnerability-findings?bod2604Outcome=soon');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/bod2604Outcome/);
  });

  it('filters endpoints by the outcome, decision and fix-by date of their open findings, gives each its earliest fix-by date and sorts by it', async () => {
    const all = await server.appAll('/orgs/acme/vulnerability-findings');
    /** The endpoints with an open finding `keeps` keeps, from the findings' own fields. */
    const endpointsOf = (keeps: (f: any) => boolean) => [...new Set(all.filter((f) => f.status === 'open' && keeps(f)).map((f) => f.endpoint_id as string))].sort();
    const before = addDays(new Date(nowMs).toISOString(), 10);
    const filters: [string, (f: any) => boolean][] = [
      ...Object.keys(days).map((outcome): [string, (f: any) => boolean] => [`bod2604Outcome=${encodeURIComponent(outcome)}`, (f) => f.bod2604_outcome === outcome]),
      ...['track', 'track*', 'attend', 'act'].map((decision): [string, (f: any) => boolean] => [`ssvcDecision=${encodeURIComponent(decision)}`, (f) => f.ssvc_decision === decision]),
      [`fixByBefore=${before}`, (f) => f.fix_by !== null && f.fix_by <= before],
      // Both of one finding: an endpoint with an act finding and another due soon is not kept for that.
      [`ssvcDecision=act&fixByBefore=${before}`, (f) => f.ssvc_decision === 'act' && f.fix_by !== null && f.fix_by <= before],
    ];
    for (const [query, keeps] of filters) {
      const endpoints = await server.appAll(`/orgs/acme/endpoints?${query}`);
      expect(endpoints.map((e) => e.id).sort(), query).toEqual(endpointsOf(keeps));
    }
    const endpoints = await server.appAll('/orgs/acme/endpoints');
    for (const endpoint of endpoints) {
      const dates = all.filter((f) => f.endpoint_id === endpoint.id && f.status === 'open' && f.fix_by !== null).map((f) => f.fix_by as string).sort();
      expect(endpoint.fix_by, endpoint.hostname).toBe(dates[0] ?? null);
    }
    for (const sort of ['fix_by', '-fix_by']) {
      const sorted = await server.appAll(`/orgs/acme/endpoints?sort=${sort}`);
      expect(sorted.map((e) => e.id), sort).toEqual(inSortOrder('endpoints', sort, endpoints).map((e) => e.id));
    }
    const csv = await fetch(`${server.url}/app/orgs/acme/export/endpoints.csv?sort=fix_by`, { headers: { [consoleTokenHeader]: server.consoleToken } });
    const [header, ...rows] = parseCsv(await csv.text());
    expect(rows.map((row) => [row[0], row[header!.indexOf('fix_by')] || null])).toEqual(inSortOrder('endpoints', 'fix_by', endpoints).map((e) => [e.id, e.fix_by]));
    for (const query of ['ssvcDecision=soon', 'fixByBefore=tomorrow', 'sort=fix-by']) {
      const bad = await server.app(`/orgs/acme/endpoints?${query}`);
      expect(bad.status, query).toBe(400);
      expect(JSON.stringify(bad.body), query).toMatch(new RegExp(query.split('=')[0]!));
    }
  });

  it('plans for the open findings of one outcome, decision or fix-by day exactly those the findings list keeps for them, after a what-if too', async () => {
    const productOfTarget = new Map(inventory.remediationTargets.map((target) => [target.id, JSON.stringify([target.vendor, target.product])]));
    /** The plan of the fix-by filters `query` against the findings list filtered by them: its critical or KEV findings, per product of their target. */
    const expectPlanOf = async (query: string) => {
      const closing = (await server.appAll(`/orgs/acme/vulnerability-findings?${query}`)).filter((f) => f.status === 'open' && (f.severity === 'critical' || f.is_kev));
      const perProduct = new Map<string, number>();
      for (const finding of closing) {
        const product = productOfTarget.get(finding.remediation_target_id);
        if (product !== undefined) perProduct.set(product, (perProduct.get(product) ?? 0) + 1);
      }
      const plan = await server.app(`/orgs/acme/remediation-plan?${query}`);
      expect(plan.status).toBe(200);
      expect(plan.body.open_critical_or_kev, query).toBe(closing.length);
      expect(new Map(plan.body.steps.map((step: any) => [JSON.stringify([step.vendor, step.product]), step.closes])), query).toEqual(perProduct);
      expect(plan.body.without_product, query).toBe(closing.length - [...perProduct.values()].reduce((sum, count) => sum + count, 0));
      // Each step's fix_by is the earliest fix-by date of the findings it closes, from the list's own fields.
      const earliest = new Map<string, string>();
      for (const finding of closing) {
        const product = productOfTarget.get(finding.remediation_target_id);
        if (product !== undefined && finding.fix_by !== null && !(finding.fix_by >= (earliest.get(product) ?? '9999'))) earliest.set(product, finding.fix_by);
      }
      expect(new Map(plan.body.steps.map((step: any) => [JSON.stringify([step.vendor, step.product]), step.fix_by])), query).toEqual(
        new Map([...perProduct.keys()].map((product) => [product, earliest.get(product) ?? null])),
      );
      // The plan's CSV is its steps, in its order, with the same query.
      const csv = await fetch(`${server.url}/app/orgs/acme/export/remediation-plan.csv?${query}`, { headers: { [consoleTokenHeader]: server.consoleToken } });
      expect(csv.status).toBe(200);
      const [header, ...rows] = parseCsv(await csv.text());
      expect(rows.map((row) => [row[header!.indexOf('product_id')], Number(row[header!.indexOf('closes')])])).toEqual(plan.body.steps.map((step: any) => [step.product_id, step.closes]));
      return plan.body.open_critical_or_kev as number;
    };
    const expectPlanOfOutcome = (outcome: string) => expectPlanOf(`bod2604Outcome=${encodeURIComponent(outcome)}`);
    let planned = 0;
    for (const outcome of Object.keys(days)) planned += await expectPlanOfOutcome(outcome);
    // Every open finding has one outcome: the plans of all five close what the whole plan closes.
    expect(planned).toBeGreaterThan(0);
    expect(planned).toBe((await server.app('/orgs/acme/remediation-plan')).body.open_critical_or_kev);
    // So does every decision; a day and a decision with an outcome narrow the plan as they narrow the list.
    let byDecision = 0;
    for (const decision of ['track', 'track*', 'attend', 'act']) byDecision += await expectPlanOf(`ssvcDecision=${encodeURIComponent(decision)}`);
    expect(byDecision).toBe(planned);
    const soon = addDays(new Date(nowMs).toISOString(), 10);
    expect(await expectPlanOf(`fixByBefore=${soon}`)).toBeGreaterThan(0);
    await expectPlanOf(`bod2604Outcome=${encodeURIComponent('3 days')}&ssvcDecision=act&fixByBefore=${soon}`);

    // Un-exposing a host moves its findings to other outcomes: the plans by outcome follow at once.
    const exposed = inventory.endpoints[0]!;
    const before = await expectPlanOfOutcome('3 days & forensic investigation');
    const untag = { tags: ['office'], criticality: criticalities[0]![0] };
    expect((await server.app(`/orgs/acme/endpoints/${exposed.id}/context`, { method: 'PUT', body: untag })).status).toBe(200);
    expect(await expectPlanOfOutcome('3 days & forensic investigation')).toBeLessThan(before);
    await expectPlanOfOutcome('3 days');
    const retag = { tags: ['internet-facing'], criticality: criticalities[0]![0] };
    expect((await server.app(`/orgs/acme/endpoints/${exposed.id}/context`, { method: 'PUT', body: retag })).status).toBe(200);
    expect(await expectPlanOfOutcome('3 days & forensic investigation')).toBe(before);

    for (const path of ['remediation-plan', 'export/remediation-plan.csv']) {
      const bad = await server.app(`/orgs/acme/${path}?bod2604Outcome=soon`);
      expect(bad.status, path).toBe(400);
      expect(JSON.stringify(bad.body), path).toMatch(/bod2604Outcome.*must be one of 3 days & forensic investigation/);
      const badDay = await server.app(`/orgs/acme/${path}?fixByBefore=soon`);
      expect(badDay.status, path).toBe(400);
      expect(JSON.stringify(badDay.body), path).toMatch(/fixByBefore.*must be a date/);
    }
  });

  it('lists the plan by its steps\' fix-by dates, each step keeping its rank and cumulative figures of the plan, in the JSON and the CSV', async () => {
    const csvOf = async (query: string) => {
      const csv = await fetch(`${server.url}/app/orgs/acme/export/remediation-plan.csv?${query}`, { headers: { [consoleTokenHeader]: server.consoleToken } });
      expect(csv.status, query).toBe(200);
      const [header, ...rows] = parseCsv(await csv.text());
      return rows.map((row) => Object.fromEntries(header!.map((name, index) => [name, row[index]])));
    };
    // The whole plan and one decision's have dated steps in another order than the plan's; fix on system upgrade's none.
    const filters: [string, boolean][] = [
      ['', true],
      ['ssvcDecision=act&', true],
      [`bod2604Outcome=${encodeURIComponent('fix on system upgrade')}&`, false],
    ];
    for (const [filter, dated] of filters) {
      const plan = (await server.app(`/orgs/acme/remediation-plan?${filter}`)).body;
      expect(plan.steps.length, filter).toBeGreaterThan(1);
      expect(plan.steps.map((step: any) => step.rank)).toEqual(plan.steps.map((_: unknown, index: number) => index + 1));
      expect(plan.steps.every((step: any) => (step.fix_by !== null) === dated), filter).toBe(true);
      // Independently: dated steps by date (ties in the plan's order), then the undated in the plan's order.
      const byDate = (descending: boolean) => [
        ...plan.steps
          .filter((step: any) => step.fix_by !== null)
          .sort((a: any, b: any) => (a.fix_by === b.fix_by ? a.rank - b.rank : (a.fix_by < b.fix_by) !== descending ? -1 : 1)),
        ...plan.steps.filter((step: any) => step.fix_by === null),
      ];
      for (const sort of ['fix_by', '-fix_by']) {
        const sorted = (await server.app(`/orgs/acme/remediation-plan?${filter}sort=${sort}`)).body;
        // The same steps, figures and all, listed otherwise; the milestones are the plan's.
        expect(sorted.steps, sort).toEqual(byDate(sort === '-fix_by'));
        if (dated) expect(sorted.steps.map((step: any) => step.rank), sort).not.toEqual(plan.steps.map((step: any) => step.rank));
        expect(sorted.milestones).toEqual(plan.milestones);
        expect(sorted.open_critical_or_kev).toBe(plan.open_critical_or_kev);
        const rows = await csvOf(`${filter}sort=${sort}`);
        expect(rows.map((row) => [Number(row.rank), row.product_id, row.fix_by || null, Number(row.cumulative_closed)])).toEqual(
          sorted.steps.map((step: any) => [step.rank, step.product_id, step.fix_by, step.cumulative_closed]),
        );
      }
      expect((await server.app(`/orgs/acme/remediation-plan?${filter}sort=plan`)).body).toEqual(plan);
    }
    for (const path of ['remediation-plan', 'export/remediation-plan.csv']) {
      const bad = await server.app(`/orgs/acme/${path}?sort=fix-by`);
      expect(bad.status, path).toBe(400);
      expect(JSON.stringify(bad.body), path).toMatch(/sort.*must be one of plan, -plan, fix_by, -fix_by/);
    }
  });

  it('counts the findings due in 3, 14 and 60 days and those that wait for an upgrade', async () => {
    const all = await server.appAll('/orgs/acme/vulnerability-findings');
    const { status, body } = await server.app('/orgs/acme/fix-by-summary');
    expect(status).toBe(200);
    const dueMs = (f: any) => Date.parse(`${f.fix_by}T00:00:00Z`) + 86_400_000;
    const dated = all.filter((f) => f.fix_by !== null);
    expect(body).toMatchObject({
      open: all.length,
      overdue: dated.filter((f) => nowMs > dueMs(f)).length,
      due_within: Object.fromEntries([3, 14, 60].map((window) => [`days_${window}`, dated.filter((f) => nowMs <= dueMs(f) && dueMs(f) <= nowMs + window * 86_400_000).length])),
      on_upgrade: all.filter((f) => f.fix_by === null).length,
    });
  });

  it('counts an unknown input as the setting says, and says so in the path; refuses bad settings naming the field, saving nothing', async () => {
    expect((await server.app('/orgs/acme/fix-by-settings')).body).toMatchObject({ deadline_policy: 'severity-days', exposure_tags: ['internet-facing'], unknown_as: 'shorter-timeline', updated_at: null });
    const bad = await server.app('/orgs/acme/fix-by-settings', { method: 'PUT', body: { deadline_policy: 'bod-22-01', exposure_tags: [], unknown_as: 'shorter-timeline' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/deadline_policy/);
    expect((await server.app('/orgs/acme/fix-by-settings')).body.updated_at).toBeNull();
    for (const [unknownAs, value] of [['shorter-timeline', 'yes'], ['longer-timeline', 'no']]) {
      const saved = await server.app('/orgs/acme/fix-by-settings', { method: 'PUT', body: { deadline_policy: 'bod-26-04', exposure_tags: [], unknown_as: unknownAs } });
      expect(saved.status).toBe(200);
      const findings = new Map((await server.appAll('/orgs/acme/vulnerability-findings')).map((finding) => [finding.id, finding]));
      for (const item of cases) {
        const finding = findings.get(item.findingId)!;
        expect(finding.fix_by_path[1]).toMatchObject({ input: 'Publicly exposed', value, assumed: true, source: 'unknown, assumed (no exposure tag set for the organization)' });
        expect(finding.bod2604_outcome).toBe(bodRows.get([item.kev, value, item.automatable, item.impact].join('|')));
      }
    }
    await server.app('/orgs/acme/fix-by-settings', { method: 'PUT', body: { deadline_policy: 'bod-26-04', exposure_tags: ['internet-facing'], unknown_as: 'shorter-timeline' } });
  });

  it('makes the deadlines, overdue findings, their sort and the remediation performance follow the chosen policy', async () => {
    const dueEnd = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
    await server.app('/orgs/acme/fix-by-settings', { method: 'PUT', body: { deadline_policy: 'severity-days', exposure_tags: ['internet-facing'], unknown_as: 'shorter-timeline' } });
    const severityDays = await server.appAll('/orgs/acme/vulnerability-findings');
    await server.app('/orgs/acme/fix-by-settings', { method: 'PUT', body: { deadline_policy: 'bod-26-04', exposure_tags: ['internet-facing'], unknown_as: 'shorter-timeline' } });
    const all = await server.appAll('/orgs/acme/vulnerability-findings');
    expect(all.map((f) => f.due_at)).not.toEqual(severityDays.map((f) => f.due_at));
    for (const finding of all) {
      expect(finding.due_at, finding.id).toBe(finding.fix_by === null ? null : dueEnd(finding.fix_by));
      expect(finding.overdue, finding.id).toBe(finding.fix_by !== null && nowMs > Date.parse(dueEnd(finding.fix_by)));
    }
    const overdue = await server.appAll('/orgs/acme/vulnerability-findings?overdue=true');
    expect(overdue.map((f) => f.id).sort()).toEqual(all.filter((f) => f.overdue).map((f) => f.id).sort());
    expect(overdue.length).toBeGreaterThan(0);
    const byDue = (await server.appAll('/orgs/acme/vulnerability-findings?sort=due_at')).map((f) => f.due_at);
    const withDue = byDue.filter((due) => due !== null);
    expect(byDue.slice(byDue.length - withDue.length)).toEqual([...withDue].sort());
    const performance = (await server.app('/orgs/acme/remediation-performance')).body;
    expect(performance).toMatchObject({ deadline_policy: 'bod-26-04', totals: { open: all.length, open_overdue: overdue.length } });
    const csv = await fetch(`${server.url}/app/orgs/acme/export/vulnerability-findings.csv?overdue=true&bod2604Outcome=${encodeURIComponent('3 days')}`, {
      headers: { [consoleTokenHeader]: server.consoleToken },
    });
    const [header, ...rows] = parseCsv(await csv.text());
    const wanted = overdue.filter((f) => f.bod2604_outcome === '3 days');
    expect(rows.map((row) => row[0]).sort()).toEqual(wanted.map((f) => f.id).sort());
    const pathAt = header!.indexOf('fix_by_path');
    for (const row of rows) expect(row[pathAt]).toMatch(/^In KEV: (yes|no) \(.*\) → Publicly exposed: .* → 3 days, by \d{4}-\d{2}-\d{2}$/);

    // Under kev-due-date, a CVE CISA's catalog lists is due by the end of its due date; the others by their severity's days.
    const catalog = {
      title: 'CISA Catalog of Known Exploited Vulnerabilities',
      catalogVersion: '2026.11.20',
      dateReleased: '2026-11-20T12:00:00.000Z',
      count: 1,
      vulnerabilities: [
        {
          cveID: 'CVE-2099-1000',
          vendorProject: 'Example',
          product: 'Gateway',
          vulnerabilityName: 'Example Gateway flaw',
          dateAdded: '2026-11-20',
          shortDescription: 'An example.',
          requiredAction: 'Apply the update.',
          dueDate: '2026-12-11',
          knownRansomwareCampaignUse: 'Unknown',
          notes: '',
          cwes: [],
        },
      ],
    };
    expect((await fetch(`${server.url}/app/intel/imports`, { method: 'POST', headers: { [consoleTokenHeader]: server.consoleToken }, body: JSON.stringify(catalog) })).status).toBe(201);
    await server.app('/orgs/acme/fix-by-settings', { method: 'PUT', body: { deadline_policy: 'kev-due-date', exposure_tags: ['internet-facing'], unknown_as: 'shorter-timeline' } });
    const underKev = await server.appAll('/orgs/acme/vulnerability-findings');
    const bySeverity = new Map(severityDays.map((f) => [f.id, f.due_at]));
    for (const finding of underKev) expect(finding.due_at, finding.id).toBe(finding.cve_id === 'CVE-2099-1000' ? '2026-12-12T00:00:00.000Z' : bySeverity.get(finding.id));
    // The catalog's listing is an input of BOD 26-04 too, dated by its date added.
    const listed = underKev.filter((f) => f.cve_id === 'CVE-2099-1000');
    for (const finding of listed) {
      expect(finding.fix_by_path[0]).toMatchObject({ input: 'In KEV', value: 'yes', source: 'CISA 2026.11.20, added 2026-11-20', since: '2026-11-20' });
      if (finding.fix_by !== null) expect(finding.fix_by >= addDays('2026-11-20', 3)).toBe(true);
    }
    expect((await server.app('/orgs/acme/remediation-performance')).body.deadline_policy).toBe('kev-due-date');
  });
});
