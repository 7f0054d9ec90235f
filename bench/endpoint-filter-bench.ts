import { timedConsoleRequest } from './coverage-bench.js';
import type { DecideTiming } from './decide-bench.js';

/**
 * The console's lists filtered by their endpoint (issue 26) on a running server: the findings
 * on Windows endpoints, the open critical KEV findings on them, the findings on endpoints
 * without an agent and the remediation targets on Windows endpoints, each first page asked
 * twice (the first time since `serve` started for that filter, then repeated) while `/health`
 * is asked every 10 ms.
 */
export async function measureEndpointFilter(url: string, token: string, slug: string, pid: number): Promise<DecideTiming[]> {
  const timings: DecideTiming[] = [];
  const twice = async (view: string, path: string) => {
    const first = await timedConsoleRequest(url, token, path, pid);
    const repeated = await timedConsoleRequest(url, token, path, pid);
    const rows = (first.body as { data: unknown[] }).data.length;
    timings.push({ view: `${view} (${rows} rows)`, first: first.timing, repeated: repeated.timing });
  };
  const findings = `/orgs/${slug}/vulnerability-findings`;
  await twice('findings on Windows endpoints, first page', `${findings}?osFamily=windows&limit=50`);
  await twice('open critical KEV findings on Windows endpoints, first page', `${findings}?osFamily=windows&status=open&severity=critical&isKev=true&limit=50`);
  await twice('findings on endpoints without an agent, first page', `${findings}?hasAgent=false&limit=50`);
  await twice('remediation targets on Windows endpoints, first page', `/orgs/${slug}/remediation-targets?osFamily=windows&limit=50`);
  return timings;
}
