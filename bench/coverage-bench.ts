import { whileHealthAsked } from '../server/test/support/health-waits.js';
import { cpuMilliseconds, residentBytes } from './support.js';

/** What one coverage request took, with the slowest `/health` answer while it ran. */
export interface CoverageTiming {
  ms: number;
  /** CPU time the server used meanwhile: less dependent on what else the machine runs. */
  serverCpuMs: number;
  /** Longest `/health` round trip during the request: how long the event loop was held. */
  healthMaxMs: number;
}

/** The coverage figures of a running server. */
export interface CoverageFigures {
  gapsFirst: CoverageTiming;
  gapsRepeated: CoverageTiming;
  gapsLaterPage: CoverageTiming;
  scopeFirst: CoverageTiming;
  scopeRepeated: CoverageTiming;
  scopeLaterPage: CoverageTiming;
  gaps: number;
  scopeFindings: number;
  residentBefore: number;
  residentAfter: number;
}

/** The part of a coverage answer the figures use. */
interface CoverageAnswer {
  counts: { findings: number; openFindings: number };
}

/**
 * Times `path` on the console API while `/health` is asked every 10 ms, so that the figure
 * also says whether other requests were answered meanwhile.
 */
export async function timedConsoleRequest(url: string, token: string, path: string, pid: number): Promise<{ timing: CoverageTiming; body: unknown }> {
  const cpuBefore = cpuMilliseconds(pid);
  const { answer, ms, healthMaxMs } = await whileHealthAsked(url, async () => {
    const response = await fetch(`${url}/app${path}`, { headers: { 'x-console-script-token': token } });
    return { status: response.status, body: (await response.json()) as unknown };
  });
  const serverCpuMs = cpuMilliseconds(pid) - cpuBefore;
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { timing: { ms, serverCpuMs, healthMaxMs }, body: answer.body };
}

async function timed(url: string, token: string, path: string, pid: number): Promise<CoverageTiming & { body: CoverageAnswer }> {
  const { timing, body } = await timedConsoleRequest(url, token, path, pid);
  return { ...timing, body: body as CoverageAnswer };
}

/**
 * Coverage on a server that has not answered a coverage request yet: the gaps' first page
 * (first time, which reads the organization's findings, then repeated), a later page, and the
 * coverage of the scope that covers the most findings of the first page's organization.
 */
export async function measureCoverage(url: string, token: string, slug: string, pid: number): Promise<CoverageFigures> {
  const residentBefore = residentBytes(pid);
  const gapsFirst = await timed(url, token, `/orgs/${slug}/coverage-gaps?limit=50`, pid);
  const gapsRepeated = await timed(url, token, `/orgs/${slug}/coverage-gaps?limit=50`, pid);
  const gapsLaterPage = await timed(url, token, `/orgs/${slug}/coverage-gaps?limit=50&offset=${Math.floor(gapsFirst.body.counts.findings / 2)}`, pid);
  const scopes = (await fetch(`${url}/app/orgs/${slug}/scopes?limit=100`, { headers: { 'x-console-script-token': token } }).then((r) => r.json())) as {
    data: { id: string; subject_filter: object; finding_filter: object }[];
  };
  // A broad scope: the one without subject filters and with the fewest finding filters.
  const scope = scopes.data
    .map((s) => ({ id: s.id, width: Object.keys(s.subject_filter).length * 10 + Object.keys(s.finding_filter).length }))
    .sort((a, b) => a.width - b.width)[0]!;
  const scopeFirst = await timed(url, token, `/orgs/${slug}/scopes/${scope.id}/coverage?limit=50`, pid);
  const scopeRepeated = await timed(url, token, `/orgs/${slug}/scopes/${scope.id}/coverage?limit=50`, pid);
  const scopeLaterPage = await timed(url, token, `/orgs/${slug}/scopes/${scope.id}/coverage?limit=50&status=open&offset=${Math.floor(scopeFirst.body.counts.openFindings / 2)}`, pid);
  const strip = ({ ms, serverCpuMs, healthMaxMs }: CoverageTiming) => ({ ms, serverCpuMs, healthMaxMs });
  return {
    gapsFirst: strip(gapsFirst),
    gapsRepeated: strip(gapsRepeated),
    gapsLaterPage: strip(gapsLaterPage),
    scopeFirst: strip(scopeFirst),
    scopeRepeated: strip(scopeRepeated),
    scopeLaterPage: strip(scopeLaterPage),
    gaps: gapsFirst.body.counts.findings,
    scopeFindings: scopeFirst.body.counts.findings,
    residentBefore,
    residentAfter: residentBytes(pid),
  };
}
