/**
 * Remediation deadlines and performance (issue 15), checked against a computation of our own
 * over every finding as local tools read it through /v1, with a fixed clock: each finding's
 * age, due date and overdue flag, the due-date sort, the overdue filter (alone, with a search,
 * with a filter), and the performance answer (per severity, per month, by age), under the
 * default deadlines and under others saved through the console API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remediationPerformanceSchema } from '../../contracts/console/deadlines.js';
import type { Inventory } from '../../contracts/inventory.js';
import { generateInventory } from '../demo/index.js';
import { demoSeed } from '../organizations/ensure-demo-organization.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { sampleInventory } from './support/sample-inventory.js';
import { inSortOrder } from './support/sort-oracle.js';
import { isSlowRun } from './support/trial-count.js';

type Finding = {
  id: string;
  severity: string;
  is_kev: boolean;
  status: string;
  cve_id: string;
  title: string;
  first_detected_at: string;
  remediated_at: string | null;
} & Record<string, any>;
type Policy = Record<'critical' | 'high' | 'medium' | 'low' | 'info' | 'kev', number | null>;

const day = 86_400_000;
/** The fixed clock: some seconds into a minute, which the figures drop. */
const nowMs = Date.UTC(2026, 5, 20, 12, 34, 56, 789);
const asOf = Date.UTC(2026, 5, 20, 12, 34);
/** The defaults, written out rather than imported, so that a change the README does not follow fails. */
const defaults: Policy = { critical: 15, high: 30, medium: 90, low: 180, info: null, kev: 14 };
const other: Policy = { critical: 7, high: null, medium: 45, low: 365, info: 400, kev: null };

/** A small organization with the odd cases: no deadline, a KEV info finding, a remediated one without its instant, one detected after now. */
function oddCases(): Inventory {
  const inventory = sampleInventory({ endpoints: 6, targetsPerEndpoint: 2, findingsPerTarget: 3, scopes: 1 });
  const at = (ms: number) => new Date(ms).toISOString();
  inventory.findings.forEach((finding, n) => {
    finding.first_detected_at = at(asOf - (n * 3 + 1) * day + n * 61_000);
    finding.status = n % 4 === 0 ? 'remediated' : 'open';
    finding.remediated_at = finding.status === 'remediated' ? at(asOf - n * day) : null;
  });
  Object.assign(inventory.findings[1]!, { severity: 'info', is_kev: true });
  Object.assign(inventory.findings[2]!, { severity: 'info', is_kev: false });
  Object.assign(inventory.findings[4]!, { status: 'remediated', remediated_at: null });
  Object.assign(inventory.findings[5]!, { first_detected_at: at(nowMs + 3 * day) });
  // Due exactly at the minute of the figures: not yet past it.
  Object.assign(inventory.findings[6]!, { severity: 'high', is_kev: false, status: 'open', first_detected_at: at(asOf - 30 * day) });
  return inventory;
}

let server: ConsoleTestServer;
/**
 * `npm test` checks the demo's seed and the odd cases; `npm run test:slow` a second demo seed as
 * well (each demo seed is 20,000 findings, read whole about ten times per deadline policy).
 */
const organizations = isSlowRun() ? (['demo', 'other', 'odd'] as const) : (['demo', 'odd'] as const);
const inventories: Record<(typeof organizations)[number], () => Inventory> = {
  demo: () => generateInventory('demo', demoSeed),
  other: () => generateInventory('demo', 424242),
  odd: oddCases,
};

beforeAll(async () => {
  server = await startConsoleTestServer(
    organizations.map((slug) => ({ slug, inventory: inventories[slug]() })),
    { clock: () => nowMs },
  );
});
afterAll(() => server.close());

/** Every finding of an organization through /v1. */
const v1Findings = (slug: string): Promise<Finding[]> => server.v1All(slug, 'vulnerability-findings');

/** Every item of a console list. */
const appAll = (path: string): Promise<Finding[]> => server.appAll(path);

// The oracle: the rules of the README, computed here from /v1's findings.
const deadline = (f: Finding, policy: Policy) => {
  const days = [policy[f.severity as keyof Policy], f.is_kev ? policy.kev : null].filter((d): d is number => d !== null);
  return days.length ? Math.min(...days) : null;
};
const dueOf = (f: Finding, policy: Policy) => {
  const days = deadline(f, policy);
  return days === null ? null : Date.parse(f.first_detected_at) + days * day;
};
const remediatedMs = (f: Finding) => (f.status === 'remediated' && f.remediated_at !== null ? Date.parse(f.remediated_at) : null);
const isOverdue = (f: Finding, policy: Policy) => f.status === 'open' && dueOf(f, policy) !== null && asOf > dueOf(f, policy)!;
const ageMs = (f: Finding) => Math.max(0, asOf - Date.parse(f.first_detected_at));
const delayMs = (f: Finding) => Math.max(0, remediatedMs(f)! - Date.parse(f.first_detected_at));
/** The middle value of the sorted values, the mean of the two middle ones for an even count. */
const medianOf = (values: number[]) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const inDays = (ms: number | null) => (ms === null ? null : Math.round((ms / day) * 10) / 10);

function remediationFigures(remediated: Finding[], policy: Policy) {
  const withDeadline = remediated.filter((f) => dueOf(f, policy) !== null);
  const inTime = withDeadline.filter((f) => remediatedMs(f)! <= dueOf(f, policy)!);
  const delays = remediated.map(delayMs);
  return {
    remediated: remediated.length,
    remediated_with_deadline: withDeadline.length,
    remediated_in_time: inTime.length,
    share_in_time: withDeadline.length ? inTime.length / withDeadline.length : null,
    median_days_to_remediate: inDays(medianOf(delays)),
    mean_days_to_remediate: inDays(delays.length ? delays.reduce((a, b) => a + b, 0) / delays.length : null),
  };
}

function openFigures(open: Finding[], policy: Policy) {
  return {
    open: open.length,
    open_overdue: open.filter((f) => isOverdue(f, policy)).length,
    open_overdue_excepted: 0,
    median_open_age_days: inDays(medianOf(open.map(ageMs))),
  };
}

function expectedPerformance(findings: Finding[], policy: Policy) {
  const severities = ['critical', 'high', 'medium', 'low', 'info'] as const;
  const open = findings.filter((f) => f.status === 'open');
  const remediated = findings.filter((f) => remediatedMs(f) !== null);
  const months = Array.from({ length: 12 }, (_, k) => {
    const start = Date.UTC(2026, 5 - 11 + k, 1);
    const next = Date.UTC(2026, 5 - 10 + k, 1);
    const end = Math.min(next - 1, asOf);
    const openAtEnd = findings.filter((f) => Date.parse(f.first_detected_at) <= end && (f.status === 'open' || (remediatedMs(f) !== null && remediatedMs(f)! > end)));
    return {
      month: new Date(start).toISOString().slice(0, 7),
      ...remediationFigures(
        remediated.filter((f) => remediatedMs(f)! >= start && remediatedMs(f)! < next),
        policy,
      ),
      end_at: new Date(end).toISOString(),
      open_at_end: openAtEnd.length,
      overdue_at_end: openAtEnd.filter((f) => dueOf(f, policy) !== null && end > dueOf(f, policy)!).length,
    };
  });
  const buckets: [string, number, number | null][] = [
    ['0–7 days', 0, 7],
    ['8–30 days', 8, 30],
    ['31–90 days', 31, 90],
    ['91–180 days', 91, 180],
    ['Over 180 days', 181, null],
  ];
  return {
    as_of: new Date(asOf).toISOString(),
    deadline_policy: 'severity-days',
    policy,
    severities: severities.map((severity) => ({
      severity,
      deadline_days: policy[severity],
      ...openFigures(
        open.filter((f) => f.severity === severity),
        policy,
      ),
      ...remediationFigures(
        remediated.filter((f) => f.severity === severity),
        policy,
      ),
    })),
    totals: { ...openFigures(open, policy), ...remediationFigures(remediated, policy) },
    monthly: months,
    age_buckets: buckets.map(([label, min, max]) => {
      const inBucket = open.filter((f) => Math.floor(ageMs(f) / day) >= min && (max === null || Math.floor(ageMs(f) / day) <= max));
      return {
        label,
        min_days: min,
        max_days: max,
        open: inBucket.length,
        by_severity: Object.fromEntries(severities.map((s) => [s, inBucket.filter((f) => f.severity === s).length])),
      };
    }),
    // No endpoint carries a tag here: the figures per tag are checked in endpoint-context-figures.test.ts.
    tags: [],
  };
}

/** The performance answer with its means rounded as the oracle may differ by summing in another order. */
async function performance(slug: string) {
  const { status, body } = await server.app(`/orgs/${slug}/remediation-performance`);
  expect(status).toBe(200);
  return remediationPerformanceSchema.parse(body);
}

async function setPolicy(slug: string, policy: Policy) {
  const { status, body } = await server.app(`/orgs/${slug}/sla-policy`, { method: 'PUT', body: policy });
  expect(status, JSON.stringify(body)).toBe(200);
}

describe.each(organizations)('the %s organization', (slug) => {
  describe.each([
    ['the default deadlines', defaults],
    ['other deadlines', other],
  ] as const)('under %s', (_name, policy) => {
    let findings: Finding[];
    beforeAll(async () => {
      await setPolicy(slug, policy);
      findings = await v1Findings(slug);
    });

    it('answers the performance the oracle computes', async () => {
      expect(await performance(slug)).toEqual(expectedPerformance(findings, policy));
    });

    it("gives each finding its age, due date and overdue flag, in the list and the detail", async () => {
      const listed = await appAll(`/orgs/${slug}/vulnerability-findings`);
      const v1ById = new Map(findings.map((f) => [f.id, f]));
      expect(listed).toHaveLength(findings.length);
      for (const item of listed) {
        const f = v1ById.get(item.id)!;
        const end = f.status === 'open' ? asOf : remediatedMs(f);
        const due = dueOf(f, policy);
        expect({ id: item.id, age_days: item.age_days, due_at: item.due_at, overdue: item.overdue }).toEqual({
          id: f.id,
          age_days: end === null ? null : Math.max(0, Math.floor((end - Date.parse(f.first_detected_at)) / day)),
          due_at: due === null ? null : new Date(due).toISOString(),
          overdue: isOverdue(f, policy),
        });
      }
      const overdue = listed.find((item) => item.overdue) ?? listed[0]!;
      expect((await server.app(`/orgs/${slug}/vulnerability-findings/${overdue.id}`)).body).toEqual(overdue);
    });

    it('sorts by due date, no deadline first, ties by id, descending the exact reverse', async () => {
      const withDue = findings.map((f) => ({ ...f, due_at: dueOf(f, policy) === null ? null : new Date(dueOf(f, policy)!).toISOString() }));
      const ascending = inSortOrder('findings', 'due_at', withDue).map((f) => f.id);
      expect((await appAll(`/orgs/${slug}/vulnerability-findings?sort=due_at`)).map((f) => f.id)).toEqual(ascending);
      expect((await appAll(`/orgs/${slug}/vulnerability-findings?sort=-due_at`)).map((f) => f.id)).toEqual([...ascending].reverse());
    });

    it('filters the overdue findings, alone, with a filter and with a search, as many as the figures count', async () => {
      const overdue = findings.filter((f) => isOverdue(f, policy));
      const listed = await appAll(`/orgs/${slug}/vulnerability-findings?overdue=true`);
      // In the default order: created_at, then id, as /v1 lists them.
      expect(listed.map((f) => f.id)).toEqual(overdue.map((f) => f.id));
      expect(listed.every((f) => f.overdue)).toBe(true);
      expect((await performance(slug)).totals.open_overdue).toBe(overdue.length);

      const critical = await appAll(`/orgs/${slug}/vulnerability-findings?overdue=true&severity=critical&sort=-due_at`);
      const expected = inSortOrder(
        'findings',
        '-due_at',
        overdue.filter((f) => f.severity === 'critical').map((f) => ({ ...f, due_at: new Date(dueOf(f, policy)!).toISOString() })),
      );
      expect(critical.map((f) => f.id)).toEqual(expected.map((f) => f.id));

      const text = findings[0]!.cve_id.slice(0, 9).toLowerCase();
      const searched = await appAll(`/orgs/${slug}/vulnerability-findings?overdue=true&q=${encodeURIComponent(text)}`);
      const byText = (await appAll(`/orgs/${slug}/vulnerability-findings?q=${encodeURIComponent(text)}`)).map((f) => f.id);
      expect(searched.map((f) => f.id)).toEqual(byText.filter((id) => overdue.some((f) => f.id === id)));
    });
  });
});

describe('the policy', () => {
  it('is the defaults until saved, and answers what was saved with when', async () => {
    const fresh = await startConsoleTestServer([{ slug: 'fresh', inventory: sampleInventory() }], { clock: () => nowMs });
    try {
      expect((await fresh.app('/orgs/fresh/sla-policy')).body).toEqual({ ...defaults, updated_at: null });
      const saved = await fresh.app('/orgs/fresh/sla-policy', { method: 'PUT', body: other });
      expect(saved).toMatchObject({ status: 200, body: { ...other, updated_at: new Date(nowMs).toISOString() } });
      expect((await fresh.app('/orgs/fresh/sla-policy')).body).toEqual(saved.body);
    } finally {
      await fresh.close();
    }
  });

  it('refuses a body that is not a policy with 400, naming the field, and saves nothing', async () => {
    await setPolicy('odd', defaults);
    const before = (await server.app('/orgs/odd/sla-policy')).body;
    const refused: [unknown, string, string][] = [
      [{ ...defaults, critical: 0 }, 'critical', 'must be a whole number of days from 1 to 3650, or null for no deadline'],
      [{ ...defaults, high: 3651 }, 'high', 'must be a whole number of days from 1 to 3650, or null for no deadline'],
      [{ ...defaults, medium: 1.5 }, 'medium', 'must be a whole number of days from 1 to 3650, or null for no deadline'],
      [{ ...defaults, low: '30' }, 'low', 'must be a whole number of days from 1 to 3650, or null for no deadline'],
      [{ ...defaults, kev: undefined }, 'kev', 'must be a whole number of days from 1 to 3650, or null for no deadline'],
      [{ ...defaults, extra: 3 }, 'extra', 'is not a key of the policy'],
      [[1, 2], 'body', 'must be a JSON object of the policy'],
      ['{"critical": ', 'body', 'is not JSON'],
    ];
    for (const [body, field, message] of refused) {
      const answer = await server.app('/orgs/odd/sla-policy', { method: 'PUT', body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toMatchObject({ error: `Invalid body field "${field}": ${message}` });
      expect(answer.body.issues[0]).toEqual({ field, message });
    }
    expect((await server.app('/orgs/odd/sla-policy')).body).toEqual(before);
    expect((await server.app('/orgs/nosuch/sla-policy', { method: 'PUT', body: defaults })).status).toBe(404);
  });

  it('re-sorts and re-filters at once when saved: the figures are keyed by it', async () => {
    await setPolicy('odd', defaults);
    const before = (await performance('odd')).totals.open_overdue;
    const beforeList = await appAll('/orgs/odd/vulnerability-findings?overdue=true');
    const beforeOrder = (await appAll('/orgs/odd/vulnerability-findings?sort=due_at')).map((f) => f.id);
    await setPolicy('odd', { critical: 1, high: 1, medium: 1, low: 1, info: 1, kev: 1 });
    const findings = await v1Findings('odd');
    const allLate = findings.filter((f) => f.status === 'open' && Date.parse(f.first_detected_at) + day < asOf);
    expect((await performance('odd')).totals.open_overdue).toBe(allLate.length);
    expect(await appAll('/orgs/odd/vulnerability-findings?overdue=true')).toHaveLength(allLate.length);
    expect(allLate.length).toBeGreaterThan(before);
    expect(beforeList.length).toBe(before);
    // Every finding has the same deadline now: the due order is the detection order.
    expect((await appAll('/orgs/odd/vulnerability-findings?sort=due_at')).map((f) => f.id)).toEqual(inSortOrder('findings', 'first_detected_at', findings).map((f) => f.id));
    expect(beforeOrder).not.toEqual(inSortOrder('findings', 'first_detected_at', findings).map((f) => f.id));
  });
});
