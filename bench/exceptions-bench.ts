import { type CoverageTiming, timedConsoleRequest } from './coverage-bench.js';

/** One answer about exceptions: its first time after the exception changed, and the same again. */
export interface ExceptionsTiming {
  view: string;
  first: CoverageTiming;
  repeated: CoverageTiming;
}

/** What making and revoking the exception took, timed by the client. */
export interface ExceptionsFigures {
  timings: ExceptionsTiming[];
  /** The CVE accepted everywhere, and the findings it covers. */
  cve: string;
  findings: number;
  createMs: number;
  revokeMs: number;
  /** The gaps before and after the exception, as the gaps' answer counts them. */
  gapsBefore: number;
  gapsAfter: number;
}

/** The part of an exception's answer the figures use. */
interface ExceptionAnswer {
  id: string;
  findings: number;
}

/** The part of the gaps' answer the figures use. */
interface GapsAnswer {
  counts: { findings: number };
  countsBeforeExceptions: { findings: number };
  findings: { data: { cve_id: string }[] };
}

async function consoleWrite(url: string, token: string, method: string, path: string, body?: unknown): Promise<{ ms: number; answer: ExceptionAnswer }> {
  const started = performance.now();
  const response = await fetch(`${url}/app${path}`, {
    method,
    headers: { 'x-console-script-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as ExceptionAnswer;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return { ms: performance.now() - started, answer };
}

/**
 * Exceptions on a running server whose figures are computed (the warm-up done, or the coverage
 * and deciding sections before): the exceptions list, then an exception of the CVE of the first
 * coverage gap made everywhere, and the first and repeated answers of the coverage gaps and of
 * the endpoints by risk, which leave its findings out (each first answer recomputes what the
 * exception changes: the gaps' filter, the exposure's tallies, the order by risk); then the same
 * after the exception is revoked. Meanwhile `/health` is asked every 10 ms.
 */
export async function measureExceptions(url: string, token: string, slug: string, pid: number): Promise<ExceptionsFigures> {
  const timings: ExceptionsTiming[] = [];
  const twice = async (view: string, path: string) => {
    const first = await timedConsoleRequest(url, token, path, pid);
    const repeated = await timedConsoleRequest(url, token, path, pid);
    timings.push({ view, first: first.timing, repeated: repeated.timing });
    return first.body;
  };
  const answers = async (when: string) => {
    const gaps = (await twice(`coverage gaps, first page, ${when}`, `/orgs/${slug}/coverage-gaps?limit=50`)) as GapsAnswer;
    await twice(`endpoints by risk (descending), first page, ${when}`, `/orgs/${slug}/endpoints?sort=-risk_score&limit=50`);
    return gaps;
  };

  await twice('the exceptions list', `/orgs/${slug}/exceptions`);
  const before = await answers('before the exception');
  const cve = before.findings.data[0]!.cve_id;
  const expiresAt = new Date(Date.now() + 90 * 86_400_000).toISOString();
  const created = await consoleWrite(url, token, 'POST', `/orgs/${slug}/exceptions`, { scope: { kind: 'cve', cve_id: cve }, reason: 'risk_accepted', note: 'bench', expires_at: expiresAt });
  const after = await answers('after an exception of a CVE everywhere');
  await twice('the exceptions list, with it', `/orgs/${slug}/exceptions`);
  const revoked = await consoleWrite(url, token, 'POST', `/orgs/${slug}/exceptions/${created.answer.id}/revoke`);
  await answers('after it is revoked');
  return {
    timings,
    cve,
    findings: created.answer.findings,
    createMs: created.ms,
    revokeMs: revoked.ms,
    gapsBefore: after.countsBeforeExceptions.findings,
    gapsAfter: after.counts.findings,
  };
}
