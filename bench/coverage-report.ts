import { measureCoverage } from './coverage-bench.js';
import { measureDecide } from './decide-bench.js';
import { measureEndpointContextFilter } from './endpoint-context-filter-bench.js';
import { measureEndpointFilter } from './endpoint-filter-bench.js';
import { measureExceptions } from './exceptions-bench.js';
import { measurePerformance } from './performance-bench.js';
import { mib, ms } from './support.js';

/** The report section of scope coverage and coverage gaps, asked of a running `serve`. */
export async function reportCoverage(
  serve: { url: string; consoleToken: string; pid: number },
  slug: string,
  say: (line?: string) => void,
): Promise<void> {
  say(`## Scope coverage and coverage gaps`);
  say();
  say(`The console's coverage answers (first page: 50 findings), timed by the client. The findings' coverage columns were read before (the dashboard's first answer, in the first table): the first request evaluates the scopes over them; later ones, until the next write, reuse what it computed. Meanwhile \`/health\` is asked every 10 ms: its slowest answer says how long other requests waited.`);
  say();
  const coverage = await measureCoverage(serve.url, serve.consoleToken, slug, serve.pid);
  const row = (label: string, timing: { ms: number; serverCpuMs: number; healthMaxMs: number }, target = '') =>
    say(`| ${label} | ${ms(timing.ms)} | ${timing.serverCpuMs} ms | ${ms(timing.healthMaxMs)} | ${target} |`);
  say(`| request | time | server CPU | slowest /health meanwhile | target |`);
  say(`|---|---|---|---|---|`);
  row(`coverage gaps, first page, first time (${coverage.gaps} gaps)`, coverage.gapsFirst, '≈ 1 s');
  row('coverage gaps, first page, repeated', coverage.gapsRepeated, '≤ 1 s');
  row('coverage gaps, a middle page', coverage.gapsLaterPage);
  row(`a scope's coverage, first page (${coverage.scopeFindings} findings)`, coverage.scopeFirst, '≤ 1 s');
  row(`a scope's coverage, repeated`, coverage.scopeRepeated);
  row(`a scope's open findings, a middle page`, coverage.scopeLaterPage);
  say();
  say(`Resident memory of the server: ${mib(coverage.residentBefore)} before, ${mib(coverage.residentAfter)} after (${mib(coverage.residentAfter - coverage.residentBefore)} for the coverage columns and sets).`);
  say();

  say(`## Deciding what to fix first`);
  say();
  say(`The console's answers of issue 14 (endpoints with their exposure, findings with their hosts, the software view, the remediation plan), each asked twice, timed by the client while \`/health\` is asked every 10 ms. They read the exposure figures, which \`serve\` computes after start and after each sync with the dashboard (from the same coverage columns); a new API key, a write of records alone, leaves them.`);
  say();
  say(`| view | first answer | slowest /health meanwhile | repeated | slowest /health meanwhile | target |`);
  say(`|---|---|---|---|---|---|`);
  for (const { view, first, repeated } of await measureDecide(serve.url, serve.consoleToken, slug, serve.pid)) {
    say(`| ${view} | ${ms(first.ms)} | ${ms(first.healthMaxMs)} | ${ms(repeated.ms)} | ${ms(repeated.healthMaxMs)} | ≤ 1 s first, ≤ 50 ms repeated, /health ≤ 100 ms |`);
  }
  say();

  say(`## Exceptions`);
  say();
  const exceptions = await measureExceptions(serve.url, serve.consoleToken, slug, serve.pid);
  say(`An exception of the CVE of the first coverage gap, everywhere (${exceptions.cve}, ${exceptions.findings.toLocaleString('en')} findings; the gaps go from ${exceptions.gapsBefore.toLocaleString('en')} to ${exceptions.gapsAfter.toLocaleString('en')}), made in ${ms(exceptions.createMs)} and revoked in ${ms(exceptions.revokeMs)} (a write of records: the data's caches stay). Each answer asked twice after each change, timed by the client while \`/health\` is asked every 10 ms: a first answer recomputes only what the exceptions change (the mask of excepted findings, the gaps' filter, the exposure's tallies, the order by risk).`);
  say();
  say(`| answer | first | slowest /health meanwhile | repeated | slowest /health meanwhile | target |`);
  say(`|---|---|---|---|---|---|`);
  for (const { view, first, repeated } of exceptions.timings) {
    say(`| ${view} | ${ms(first.ms)} | ${ms(first.healthMaxMs)} | ${ms(repeated.ms)} | ${ms(repeated.healthMaxMs)} | ≤ 1 s first, ≤ 50 ms repeated, /health ≤ 100 ms |`);
  }
  say();

  say(`## Remediation deadlines and performance`);
  say();
  say(`The console's answers of issue 15: the SLA policy, the remediation performance, the findings by due date and the overdue ones, each asked twice, timed by the client while \`/health\` is asked every 10 ms; then again after another policy is saved (a write of records alone: the findings' timeline, read once per version of the data, stays; what depends on the policy is computed anew). \`serve\` reads the timeline with the dashboard after start and after each sync; the figures are as of the minute.`);
  say();
  say(`| view | first answer | slowest /health meanwhile | repeated | slowest /health meanwhile | target |`);
  say(`|---|---|---|---|---|---|`);
  for (const { view, first, repeated } of await measurePerformance(serve.url, serve.consoleToken, slug, serve.pid)) {
    say(`| ${view} | ${ms(first.ms)} | ${ms(first.healthMaxMs)} | ${ms(repeated.ms)} | ${ms(repeated.healthMaxMs)} | ≤ 1 s first, ≤ 50 ms repeated, /health ≤ 100 ms |`);
  }
  say();

  say(`## Findings and targets filtered by their endpoint`);
  say();
  say(`The console's lists filtered by their endpoint's OS family or agent (issue 26; \`osFamily\`, \`hasAgent\`, alone and with the findings' own filters), in the default order, each first page asked twice, timed by the client while \`/health\` is asked every 10 ms: the first time since \`serve\` started for that filter, then repeated.`);
  say();
  say(`| list | first answer | slowest /health meanwhile | repeated | slowest /health meanwhile | target |`);
  say(`|---|---|---|---|---|---|`);
  for (const { view, first, repeated } of await measureEndpointFilter(serve.url, serve.consoleToken, slug, serve.pid)) {
    say(`| ${view} | ${ms(first.ms)} | ${ms(first.healthMaxMs)} | ${ms(repeated.ms)} | ${ms(repeated.healthMaxMs)} | ≤ 1 s first, ≤ 50 ms repeated |`);
  }
  say();
  say(`## Lists and figures filtered by endpoint context`);
  say();
  say(`The console's lists and figures filtered by endpoint context (issue 28; \`tag\`, \`criticality\`), after a bulk change through \`/app\` tags the Windows endpoints and makes the Linux ones critical (a write: the first answer after it builds the organization's endpoint context again, in slices; the tags with their counts, its own row, read nothing else), then each list or view asked twice, timed by the client while \`/health\` is asked every 10 ms.`);
  say();
  const context = await measureEndpointContextFilter(serve.url, serve.consoleToken, slug, serve.pid);
  for (const { view, ms: taken } of context.bulk) say(`- ${view}: ${ms(taken)}`);
  say();
  say(`| list | first answer | slowest /health meanwhile | repeated | slowest /health meanwhile | target |`);
  say(`|---|---|---|---|---|---|`);
  for (const { view, first, repeated } of context.timings) {
    say(`| ${view} | ${ms(first.ms)} | ${ms(first.healthMaxMs)} | ${ms(repeated.ms)} | ${ms(repeated.healthMaxMs)} | ≤ 1 s first, ≤ 50 ms repeated |`);
  }
  say();
}
