import { timedConsoleRequest } from './coverage-bench.js';
import type { DecideTiming } from './decide-bench.js';

/** Days to remediate that differ from the defaults on every key, so that every figure keyed by the policy is computed anew. */
const otherPolicy = { critical: 7, high: 21, medium: 60, low: 120, info: 365, kev: 10 };

/**
 * The console's answers about remediation deadlines (issue 15) on a running server: the policy,
 * the remediation performance, the findings sorted by due date and filtered to the overdue ones,
 * each asked twice while `/health` is asked every 10 ms; then the same after another policy is
 * saved (a write of records alone, which keeps the data's caches: the answers keyed by the
 * policy are computed again). The organization's policy is put back at the end.
 */
export async function measurePerformance(url: string, token: string, slug: string, pid: number): Promise<DecideTiming[]> {
  const timings: DecideTiming[] = [];
  const twice = async (view: string, path: string) => {
    const first = await timedConsoleRequest(url, token, path, pid);
    const repeated = await timedConsoleRequest(url, token, path, pid);
    timings.push({ view, first: first.timing, repeated: repeated.timing });
    return first.body;
  };
  const savePolicy = async (policy: unknown) => {
    const response = await fetch(`${url}/app/orgs/${slug}/sla-policy`, {
      method: 'PUT',
      headers: { 'x-console-script-token': token, 'content-type': 'application/json' },
      body: JSON.stringify(policy),
    });
    if (response.status !== 200) throw new Error(`saving the policy: ${response.status} ${await response.text()}`);
  };
  const findings = `/orgs/${slug}/vulnerability-findings`;
  const views = async (after: string) => {
    await twice(`the remediation performance${after}`, `/orgs/${slug}/remediation-performance`);
    await twice(`findings by due date, first page${after}`, `${findings}?sort=due_at&limit=50`);
    await twice(`overdue findings, first page${after}`, `${findings}?overdue=true&limit=50`);
    await twice(`overdue findings by due date (descending), first page${after}`, `${findings}?overdue=true&sort=-due_at&limit=50`);
  };

  const { updated_at: _savedAt, ...saved } = (await twice('the SLA policy', `/orgs/${slug}/sla-policy`)) as Record<string, unknown>;
  await views('');
  await savePolicy(otherPolicy);
  await views(', after saving another policy');
  await savePolicy(saved);
  return timings;
}
