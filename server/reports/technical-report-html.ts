/**
 * The technical report's HTML: the executive report (executive-report-html.ts), then in each
 * section every plan step with its endpoints and the scopes' coverage, and after the sections
 * the appendix files' names, row counts and SHA-256, which the report's signature covers and
 * `verify` checks (the `data-appendix-*` attributes).
 */
import type { CoverageCounts } from '../../contracts/console/coverage.js';
import type { ReportFigures, ReportSection } from '../../contracts/console/reports.js';
import { esc, executiveReportHtml } from './executive-report-html.js';
import type { ReportSigner } from './report-signers.js';

const countsCells = (counts: CoverageCounts) =>
  `<td>${counts.findings}</td><td>${counts.openFindings}</td><td>${counts.endpoints}</td><td>${counts.bySeverity.critical}</td><td>${counts.bySeverity.high}</td>`;

/** A section's plan steps with their endpoints, and its scopes' coverage. */
function technicalSectionParts(section: ReportSection): string {
  const technical = section.technical;
  if (!technical) return '';
  const steps = technical.plan_steps
    .map(
      (step) => `<h4>${step.rank}. Update ${esc([step.vendor, step.product].filter(Boolean).join(' ') || 'unnamed product')}: closes ${step.closes} on ${step.endpoints.length} endpoint(s)</h4>
<table class="endpoints"><thead><tr><th>Endpoint</th><th>Open findings it closes</th></tr></thead><tbody>${step.endpoints
        .map((endpoint) => `<tr><td>${esc(endpoint.hostname ?? endpoint.endpoint_id ?? 'no endpoint named')}</td><td>${endpoint.closes}</td></tr>`)
        .join('')}</tbody></table>`,
    )
    .join('\n');
  const scopes = technical.scopes.map((scope) => `<tr><td>${esc(scope.name)}</td><td>${esc(scope.status)}</td>${countsCells(scope.counts)}</tr>`).join('');
  return `<section class="part"><h3>Plan steps and their endpoints</h3>
${steps || '<p class="muted">No step: nothing open is critical or KEV.</p>'}
</section>
<section class="part"><h3>Coverage of the scopes</h3>
<table><thead><tr><th>Scope</th><th>Status</th><th>Findings</th><th>Open</th><th>Endpoints</th><th>Critical</th><th>High</th></tr></thead><tbody>
${scopes || '<tr><td colspan="7" class="muted">No scope.</td></tr>'}
<tr><th>Gaps (no active scope covers them)</th><td></td>${countsCells(technical.coverage_gaps)}</tr>
</tbody></table></section>`;
}

/** The appendix files' names, rows and hashes. */
function appendixPart({ appendix, sections }: ReportFigures): string {
  if (!appendix) return '';
  const organizationFirst = sections.length > 1 ? ", each row's organization (its slug) first" : '';
  const row = (file: NonNullable<ReportFigures['appendix']>['csv'], what: string) =>
    `<tr data-appendix-file="${esc(file.name)}" data-rows="${file.rows}" data-sha256="${file.sha256}"><td><code>${esc(file.name)}</code></td><td>${what}</td><td>${file.rows}</td><td><code>${file.sha256}</code></td></tr>`;
  return `<section class="part appendix"><h2>Appendix: every finding of the filter</h2>
<p>Beside this file, uncapped, in the findings list's order. Their SHA-256 are part of this signed file: <code>remediation-console verify FILE</code> checks them.</p>
<table><thead><tr><th>File</th><th>Format</th><th>Findings</th><th>SHA-256</th></tr></thead><tbody>
${row(appendix.csv, `CSV, the findings list's export columns${organizationFirst}`)}
${row(appendix.json, `JSON, an array of the findings list's items${organizationFirst}`)}
</tbody></table></section>`;
}

/** The HTML of a technical report from its figures: the same figures give the same bytes. */
export function technicalReportHtml(figures: ReportFigures, signers: readonly ReportSigner[]): string {
  return executiveReportHtml(figures, signers, { kind: 'Technical', sectionParts: technicalSectionParts, trailer: appendixPart(figures) });
}
