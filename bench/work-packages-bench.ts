/**
 * Work packages (issue 39) on a running `serve` of a copy of the dataset: the plan's work
 * packages of the whole organization (first, then again), an export of every step in each
 * format read as a stream with the server's peak resident memory (VmHWM, reset before each)
 * against its memory before, and a status import of 5,000 rows (every step's ticket, the rest
 * unmatched) timed while `/health` is asked every 10 ms.
 */
import path from 'node:path';
import type { WorkPackageList } from '../contracts/console/work-packages.js';
import { pingHealth, waitFigures } from './health-pings.js';
import { copyDataDir, loadAverage, mib, sayMeasureTable, peakResidentBytes, residentBytes, resetPeakResidentBytes, startServe, stop } from './support.js';

/** The rows of the status file imported. */
const statusRows = 5_000;

/** Reads an answer's body as it streams in, keeping only its length. */
async function drained(response: Response): Promise<number> {
  let bytes = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

/** A Jira export of `statusRows` rows: a ticket per step (every other one done), the rest naming external ids no step has. */
function statusFile(ids: readonly string[]): string {
  const lines = ['Issue key,Status,Resolution,Resolved,Custom field (External ID)'];
  for (let n = 0; n < statusRows; n++) {
    const id = ids[n] ?? `rc-e${n.toString(16).padStart(19, '0')}`;
    lines.push(n % 2 === 0 ? `OPS-${n + 1},Done,Done,02/Dec/26 10:15 AM,${id}` : `OPS-${n + 1},In Progress,,,${id}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Measures the work packages on a serve of a copy of `dataDir`, and writes the report's section. */
export async function reportWorkPackages(source: { dataDir: string; slug: string }, workDir: string, say: (line?: string) => void): Promise<void> {
  const loadBefore = loadAverage();
  const copy = path.join(workDir, 'work-packages');
  copyDataDir(source.dataDir, copy);
  const serve = await startServe(copy);
  const pid = serve.child.pid!;
  const headers = { 'x-console-script-token': serve.consoleToken };
  const org = `${serve.url}/app/orgs/${source.slug}`;
  const rows: string[] = [];
  try {
    // Met once the server has settled, as in the other sections: its dashboard read done, and the
    // exposure figures the software view reads (serve computes them after start): the first list
    // computes the plan, the findings' timeline and the packages.
    for (const warm of ['dashboard', 'software?limit=1']) if ((await fetch(`${org}/${warm}`, { headers })).status !== 200) throw new Error(warm);
    const timed = async (url: string, init: RequestInit = {}) => {
      const started = performance.now();
      const response = await fetch(url, { ...init, headers: { ...headers, ...init.headers } });
      const bytes = await drained(response);
      if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
      return { ms: performance.now() - started, bytes };
    };
    const first = await timed(`${org}/work-packages`);
    const again: number[] = [];
    for (let i = 0; i < 5; i++) again.push((await timed(`${org}/work-packages`)).ms);
    again.sort((a, b) => a - b);
    const packages = ((await (await fetch(`${org}/work-packages`, { headers })).json()) as WorkPackageList).data;
    rows.push(`| work packages of the whole organization (${packages.length} steps, ${mib(first.bytes)} of JSON) | first ${first.ms.toFixed(0)} ms, again ${again[2]!.toFixed(1)} ms (median of 5) | first ≤ 2 s, again ≤ 50 ms |`);

    for (const format of ['jira', 'servicenow', 'json']) {
      const residentBefore = residentBytes(pid);
      resetPeakResidentBytes(pid);
      const { ms, bytes } = await timed(`${org}/export/work-packages?format=${format}`);
      const peak = peakResidentBytes(pid);
      rows.push(`| export of every step, \`format=${format}\` (${mib(bytes)}) | ${(ms / 1000).toFixed(2)} s, peak ${mib(peak)} (${(peak / residentBefore).toFixed(2)} × ${mib(residentBefore)}) | streams, peak ≤ 1.1 × |`);
    }

    const body = statusFile(packages.map((work) => work.external_id));
    const pings = pingHealth(serve.url);
    const started = performance.now();
    const response = await fetch(`${org}/work-packages/status-import`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv', origin: serve.url }, body });
    const answer = (await response.json()) as { matched: number; unmatched: unknown[] };
    const ms = performance.now() - started;
    const waits = waitFigures(await pings.stop());
    if (response.status !== 200) throw new Error(`status import: ${response.status} ${JSON.stringify(answer)}`);
    rows.push(
      `| status import of ${statusRows.toLocaleString('en')} rows (${answer.matched} matched, ${answer.unmatched.length} unmatched) | ${ms.toFixed(0)} ms, slowest /health ${waits.max.toFixed(1)} ms (p99 ${waits.p99.toFixed(1)} ms) | ≤ 1 s, /health ≤ 100 ms |`,
    );
  } finally {
    await stop(serve.child);
  }
  sayMeasureTable(
    say,
    'Work packages',
    'On a `serve` of a copy of the dataset, after its dashboard and software reads (the exposure figures computed): `GET /app/orgs/<org>/work-packages` (first, then again), each export of every step read as a stream ' +
      '(peak resident memory, VmHWM reset before it, against the resident memory before it), and a status import of a Jira export posted while `/health` is asked every 10 ms.',
    loadBefore,
    rows,
  );
}
