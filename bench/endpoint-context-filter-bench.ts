import { timedConsoleRequest } from './coverage-bench.js';
import type { DecideTiming } from './decide-bench.js';

/**
 * The console's lists and figures filtered by endpoint context (issue 28) on a running server:
 * the Windows endpoints are tagged `bench-finance` and the Linux ones made critical through the
 * console's bulk change first (timed, with how many endpoints it changed), the tags with their
 * counts asked (the first answer after a write builds the endpoint context again), then the findings,
 * targets and endpoints of the tag, the open critical KEV findings of it, the findings of
 * critical endpoints, and the software list and dashboard of the tag are each asked twice (the
 * first time after that write, then repeated) while `/health` is asked every 10 ms.
 */
export async function measureEndpointContextFilter(
  url: string,
  token: string,
  slug: string,
  pid: number,
): Promise<{ bulk: { view: string; ms: number }[]; timings: DecideTiming[] }> {
  const bulk: { view: string; ms: number }[] = [];
  const change = async (view: string, body: unknown) => {
    const started = performance.now();
    const response = await fetch(`${url}/app/orgs/${slug}/endpoint-context/bulk`, {
      method: 'POST',
      headers: { 'x-console-script-token': token, 'content-type': 'application/json', origin: url },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { matched: number; changed: number };
    if (response.status !== 200) throw new Error(`bulk change: ${response.status} ${JSON.stringify(answer)}`);
    bulk.push({ view: `${view} (${answer.changed} of ${answer.matched} endpoints changed)`, ms: performance.now() - started });
  };
  await change('tag the Windows endpoints', { filter: 'osFamily=windows', add_tags: ['bench-finance'] });
  await change('make the Linux endpoints critical', { filter: 'osFamily=linux', criticality: 'critical' });

  const timings: DecideTiming[] = [];
  const twice = async (view: string, path: string) => {
    const first = await timedConsoleRequest(url, token, path, pid);
    const repeated = await timedConsoleRequest(url, token, path, pid);
    const rows = (first.body as { data?: unknown[] }).data?.length;
    timings.push({ view: rows === undefined ? view : `${view} (${rows} rows)`, first: first.timing, repeated: repeated.timing });
  };
  // The change is a write: the first answer after it builds the organization's endpoint context again (its tags with counts read nothing else).
  await twice('tags with their counts, the first answer after the change', `/orgs/${slug}/endpoint-tags`);
  const findings = `/orgs/${slug}/vulnerability-findings`;
  await twice('findings of a tag, first page', `${findings}?tag=bench-finance&limit=50`);
  await twice('open critical KEV findings of a tag, first page', `${findings}?tag=bench-finance&status=open&severity=critical&isKev=true&limit=50`);
  await twice('findings of critical endpoints, first page', `${findings}?criticality=critical&limit=50`);
  await twice('remediation targets of a tag, first page', `/orgs/${slug}/remediation-targets?tag=bench-finance&limit=50`);
  await twice('endpoints of a tag, riskiest first, first page', `/orgs/${slug}/endpoints?tag=bench-finance&sort=-risk_score&limit=50`);
  await twice('software of a tag, first page', `/orgs/${slug}/software?tag=bench-finance&limit=50`);
  await twice('dashboard of a tag', `/orgs/${slug}/dashboard?tag=bench-finance`);
  return { bulk, timings };
}
