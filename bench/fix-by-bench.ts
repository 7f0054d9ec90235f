/**
 * Fix-by dates (issue 37) on a running `serve` of a copy of the dataset: the basics every view
 * reads, cold after start, then the outcomes of every finding (the organization's due counts, which read them all, the first page of one outcome,
 * and the remediation plan of one outcome beside the whole plan), first and again; then the exposure tag set on 1,000 endpoints (one endpoint context
 * CSV import, as the console's import makes it) and the outcomes read again, timed together
 * while `/health` is asked every 10 ms.
 */
import path from 'node:path';
import { pingHealth, waitFigures } from './health-pings.js';
import { copyDataDir, startServe, stop } from './support.js';

/** One read or change measured. */
export interface FixByFigures {
  what: string;
  firstMs: number;
  /** The same read again; NaN for a change. */
  againMs: number;
  healthMaxMs: number;
  target: string;
}

/** The endpoints the exposure tag is set on. */
export const exposedEndpoints = 1_000;

export async function measureFixBy(dataDir: string, slug: string, workDir: string): Promise<FixByFigures[]> {
  const copy = path.join(workDir, 'fix-by');
  copyDataDir(dataDir, copy);
  const serve = await startServe(copy);
  const headers = { 'x-console-script-token': serve.consoleToken, origin: serve.url };
  const get = async (query: string) => {
    const started = performance.now();
    const response = await fetch(`${serve.url}/app/orgs/${slug}/${query}`, { headers });
    if (response.status !== 200) throw new Error(`${query}: ${response.status} ${await response.text()}`);
    await response.json();
    return performance.now() - started;
  };
  const timed = async (what: string, query: string, target: string): Promise<FixByFigures> => {
    const pings = pingHealth(serve.url);
    const firstMs = await get(query);
    const againMs = await get(query);
    return { what, firstMs, againMs, healthMaxMs: waitFigures(await pings.stop()).max, target };
  };
  try {
    // The findings' coverage columns and timelines every view reads, cold after start (serve's
    // warm-up reads them 2 s after start, and the dashboard's first answer in the API section is
    // that read): measured on their own, so that the outcomes' first answer below is what the
    // fix-by dates themselves cost (their inputs, columns and counts), as the intel section
    // meets a settled server.
    const basicsPings = pingHealth(serve.url);
    const basicsStarted = performance.now();
    for (const route of ['dashboard', 'remediation-plan', 'remediation-performance']) await get(route);
    const basics: FixByFigures = {
      what: 'the basics every view reads, first after start (`dashboard`, `remediation-plan`, `remediation-performance`, racing the warm-up)',
      firstMs: performance.now() - basicsStarted,
      againMs: Number.NaN,
      healthMaxMs: waitFigures(await basicsPings.stop()).max,
      target: '',
    };
    const figures = [
      basics,
      await timed('the due counts of every open finding (`fix-by-summary`), the basics read', 'fix-by-summary', 'first ≤ 2 s, again ≤ 50 ms'),
      await timed('the first page of one outcome (`bod2604Outcome=14 days`)', `vulnerability-findings?bod2604Outcome=14%20days&limit=50`, 'first ≤ 2 s, again ≤ 50 ms'),
      await timed('the first page by fix-by date (`sort=fix_by`)', 'vulnerability-findings?status=open&sort=fix_by&limit=50', 'first ≤ 2 s, again ≤ 50 ms'),
      // The whole plan first, warm as serve leaves it: the plan of one outcome beside it is what the outcome's mask costs.
      await timed('the remediation plan (`remediation-plan`)', 'remediation-plan', 'first ≤ 2 s, again ≤ 50 ms'),
      await timed('the remediation plan of one outcome (`bod2604Outcome=3 days`)', 'remediation-plan?bod2604Outcome=3%20days', 'first ≤ 2 s, again ≤ 50 ms'),
      // Listed by fix-by date: the same plan (its steps' days computed with it), only reordered.
      await timed('the remediation plan by fix-by date (`sort=fix_by`)', 'remediation-plan?sort=fix_by', 'first ≤ 2 s, again ≤ 50 ms'),
    ];
    const ids: string[] = [];
    for (let offset = 0; ids.length < exposedEndpoints; offset += 100) {
      const page = (await (await fetch(`${serve.url}/app/orgs/${slug}/endpoints?limit=100&offset=${offset}`, { headers })).json()) as { data: { id: string }[] };
      if (page.data.length === 0) break;
      ids.push(...page.data.map((endpoint) => endpoint.id));
    }
    const csv = ['id,tags', ...ids.slice(0, exposedEndpoints).map((id) => `${id},internet-facing`)].join('\r\n');
    const pings = pingHealth(serve.url);
    const started = performance.now();
    const imported = await fetch(`${serve.url}/app/orgs/${slug}/endpoint-context/import`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: csv });
    if (imported.status !== 200) throw new Error(`endpoint context import: ${imported.status} ${await imported.text()}`);
    await imported.json();
    await get('fix-by-summary');
    const changedMs = performance.now() - started;
    figures.push({
      what: `the exposure tag on ${ids.length.toLocaleString('en')} endpoints, then the due counts again (the change recorded in the feed)`,
      firstMs: changedMs,
      againMs: Number.NaN,
      healthMaxMs: waitFigures(await pings.stop()).max,
      target: '≤ 1 s, /health ≤ 100 ms',
    });
    return figures;
  } finally {
    await stop(serve.child);
  }
}
