import { type CoverageTiming, timedConsoleRequest } from './coverage-bench.js';

/** One view of deciding what to fix first: its first answer since the server started, and the same again. */
export interface DecideTiming {
  view: string;
  first: CoverageTiming;
  repeated: CoverageTiming;
}

/**
 * The console's answers for deciding what to fix first, on a server that has answered none of
 * them yet (the warm-up of its caches done): the endpoints by risk, the findings by hostname,
 * the software list, the riskiest product and its riskiest version, and the remediation plan.
 * Each is asked twice while `/health` is asked every 10 ms.
 */
export async function measureDecide(url: string, token: string, slug: string, pid: number): Promise<DecideTiming[]> {
  const timings: DecideTiming[] = [];
  // The warm-up computes the figures after start and after a sync; a write of records alone
  // (an API key) leaves them, as it leaves every value derived from the inventory.
  const write = async () => {
    const response = await fetch(`${url}/app/orgs/${slug}/api-keys`, {
      method: 'POST',
      headers: { 'x-console-script-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'bench' }),
    });
    if (response.status !== 201) throw new Error(`creating a key: ${response.status}`);
  };
  const twice = async (view: string, path: string) => {
    const first = await timedConsoleRequest(url, token, path, pid);
    const repeated = await timedConsoleRequest(url, token, path, pid);
    timings.push({ view, first: first.timing, repeated: repeated.timing });
    return first.body as { data?: { id: string }[]; versions?: { id: string }[] };
  };
  await twice('endpoints by risk (descending), first page', `/orgs/${slug}/endpoints?sort=-risk_score&limit=50`);
  await write();
  await twice('endpoints by risk (descending), first page, after a new API key', `/orgs/${slug}/endpoints?sort=-risk_score&limit=50`);
  await twice('endpoints by open KEV findings (descending), first page', `/orgs/${slug}/endpoints?sort=-open_kev_findings&limit=50`);
  await twice('findings by hostname, first page', `/orgs/${slug}/vulnerability-findings?sort=endpoint_hostname&limit=50`);
  const software = await twice('software, first page (riskiest first)', `/orgs/${slug}/software?limit=50`);
  const productId = software.data![0]!.id;
  const product = await twice('the riskiest product with its versions', `/orgs/${slug}/software/${productId}`);
  await twice("its riskiest version's installs, first page", `/orgs/${slug}/software/${productId}/versions/${product.versions![0]!.id}?limit=50`);
  await twice('the remediation plan', `/orgs/${slug}/remediation-plan`);
  return timings;
}
