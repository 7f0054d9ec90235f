/**
 * The executive report as one self-contained HTML file: inline CSS, static SVG charts in the
 * console's colours, no script and no external request (its Content-Security-Policy forbids
 * any), and a print stylesheet (page margins, a running header, page numbers, a page per
 * section) that Chromium's print and `printToPDF` follow.
 */
import type { ReportDelta, ReportFigures, ReportFinding, ReportSection } from '../../contracts/console/reports.js';
import { findingSeverities } from '../../contracts/enums.js';
import { reportContentSecurityPolicy } from './report-content-security-policy.js';
import { type ReportSigner, signerAttributes } from './report-signers.js';

/** The console's severity colours (renderer/src/styles/base.css), for the charts. */
const severityColours: Record<(typeof findingSeverities)[number], string> = {
  critical: '#b42318',
  high: '#d9480f',
  medium: '#b88400',
  low: '#2f7d32',
  info: '#5c6b7a',
};

const escapeMap: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML, every character that could open markup escaped. */
export function esc(text: string | number | null | undefined): string {
  return String(text ?? '').replace(/[&<>"']/g, (character) => escapeMap[character]!);
}

const percent = (share: number | null) => (share === null ? 'n/a' : `${Math.round(share * 1000) / 10} %`);
const days = (value: number | null) => (value === null ? 'n/a' : `${value} days`);
const dateOf = (iso: string | null) => (iso === null ? 'never' : iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC'));

const deadlinePolicyNames: Record<ReportSection['performance']['deadline_policy'], string> = {
  'severity-days': 'days per severity',
  'bod-26-04': "CISA's BOD 26-04 timelines",
  'kev-due-date': "CISA's KEV due date",
};

/** The deadline policy in words, with its days per severity. */
export function deadlinePolicyText(performance: ReportSection['performance']): string {
  const daysText = Object.entries(performance.policy_days)
    .map(([key, value]) => `${key} ${value === null ? 'none' : `${value} d`}`)
    .join(', ');
  return `${deadlinePolicyNames[performance.deadline_policy]} (${daysText})`;
}

/** Open findings by severity as horizontal bars. */
function severityChart(counts: ReportSection['counts']): string {
  const max = Math.max(1, ...findingSeverities.map((severity) => counts.open_by_severity[severity]));
  const rows = findingSeverities.map((severity, index) => {
    const count = counts.open_by_severity[severity];
    const width = Math.round((count / max) * 180);
    const y = index * 26;
    return (
      `<text x="0" y="${y + 16}" class="axis">${severity}</text>` +
      `<rect x="80" y="${y + 4}" width="${width}" height="16" fill="${severityColours[severity]}"/>` +
      `<text x="${86 + width}" y="${y + 16}" class="value">${count}</text>`
    );
  });
  return `<svg role="img" aria-label="Open findings by severity" width="320" height="${findingSeverities.length * 26}" viewBox="0 0 320 ${findingSeverities.length * 26}">${rows.join('')}</svg>`;
}

/** Open and overdue findings at each month's end, as two lines. */
function monthlyChart(monthly: ReportSection['performance']['monthly']): string {
  if (monthly.length === 0) return '';
  const width = 480;
  const height = 130;
  const max = Math.max(1, ...monthly.map((month) => month.open_at_end));
  const x = (index: number) => 30 + (index * (width - 60)) / Math.max(1, monthly.length - 1);
  const y = (value: number) => height - 24 - (value / max) * (height - 40);
  const line = (pick: (month: (typeof monthly)[number]) => number, colour: string) =>
    `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${monthly.map((month, index) => `${x(index).toFixed(1)},${y(pick(month)).toFixed(1)}`).join(' ')}"/>`;
  const labels = monthly
    .map((month, index) => (index % 2 === monthly.length % 2 ? '' : `<text x="${x(index).toFixed(1)}" y="${height - 6}" class="axis" text-anchor="middle">${esc(month.month)}</text>`))
    .join('');
  return (
    `<svg role="img" aria-label="Open and overdue findings at each month's end" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<text x="0" y="12" class="axis">${max}</text><line x1="30" x2="${width - 30}" y1="${height - 24}" y2="${height - 24}" stroke="#9aa5b1"/>` +
    `${line((month) => month.open_at_end, '#1f5fbf')}${line((month) => month.overdue_at_end, '#b42318')}${labels}</svg>` +
    '<p class="legend"><span class="swatch" style="background:#1f5fbf"></span>open at month end <span class="swatch" style="background:#b42318"></span>overdue at month end</p>'
  );
}

function findingRows(findings: ReportFinding[], count: number): string {
  if (count === 0) return '<p class="muted">None.</p>';
  const rows = findings
    .map((finding) => `<tr><td>${esc(finding.cve_id ?? 'gone from the replica')}</td><td>${esc(finding.severity)}</td><td>${esc(finding.endpoint_hostname)}</td><td class="id">${esc(finding.id)}</td></tr>`)
    .join('');
  const more = count > findings.length ? `<p class="muted">and ${count - findings.length} more (in the report's figures JSON).</p>` : '';
  return `<table><thead><tr><th>CVE</th><th>Severity</th><th>Endpoint</th><th>Finding id</th></tr></thead><tbody>${rows}</tbody></table>${more}`;
}

/** What a delta compared: two syncs (their records' ids and when they finished), or the previous report. */
function comparedWith(delta: ReportDelta): string {
  if (delta.syncs) {
    const { from, until } = delta.syncs;
    return `<p>Compared between two syncs of the replica: sync ${from.id}, finished ${esc(dateOf(from.finished_at))}, and sync ${until.id}, finished ${esc(dateOf(until.finished_at))}. "Then" is the first, "now" the second.</p>`;
  }
  return `<p>Compared with the previous report of the same filter, made ${esc(dateOf(delta.previous_created_at))} (${esc(delta.previous_report_id)}).</p>`;
}

function deltaPart(delta: ReportDelta | null): string {
  if (!delta) return '<p class="muted">This is the first report of this filter: the next one will say what changed since.</p>';
  const list = (title: string, part: ReportDelta['fixed']) => `<h4>${title}: ${part.count}</h4>${findingRows(part.findings, part.count)}`;
  return (
    comparedWith(delta) +
    list('Fixed', delta.fixed) +
    list('Appeared', delta.appeared) +
    list('Newly in KEV', delta.newly_kev) +
    list('Newly overdue', delta.newly_overdue)
  );
}

/** Whether the filter has parameters beyond the endpoints' tag and criticality, which the remediation figures and the plan do not take. */
function narrowed(filter: string): boolean {
  return [...new URLSearchParams(filter).keys()].some((name) => name !== 'tag' && name !== 'criticality');
}

/** Text as the content of a CSS string. */
function cssString(text: string): string {
  return `"${text.replace(/[\\"\n<>]/g, (character) => `\\${character.codePointAt(0)!.toString(16)} `)}"`;
}

function sectionHtml(section: ReportSection, figures: ReportFigures, parts: ReportHtmlParts): string {
  const { counts, performance, plan } = section;
  const epss = counts.open_high_epss
    ? `<tr><th>High EPSS (score ≥ ${counts.open_high_epss.threshold})</th><td>${counts.open_high_epss.count}</td></tr>`
    : '<tr><th>High EPSS</th><td>no EPSS file imported</td></tr>';
  const steps = plan.steps
    .map((step, index) => `<tr><td>${index + 1}</td><td>${esc([step.vendor, step.product].filter(Boolean).join(' ') || 'unnamed product')}</td><td>${step.closes}</td><td>${step.endpoints}</td><td>${percent(step.cumulative_share)}</td></tr>`)
    .join('');
  const risks = section.accepted_risks
    .map((risk) => `<tr><td>${esc(risk.scope)}</td><td>${esc(risk.reason)}</td><td>${esc(dateOf(risk.expires_at))}</td><td>${risk.open_findings}</td></tr>`)
    .join('');
  const intel = section.provenance.intelligence
    .map((file) => `<li>${esc(file.kind)}: dated ${esc(dateOf(file.source_date))}, version ${esc(file.version ?? 'none named')}, SHA-256 ${esc(file.sha256.slice(0, 16))}…</li>`)
    .join('');
  const org = section.organization;
  return `<section class="organization">
<h2>${esc(org.name)} <span class="muted">(${esc(org.slug)})</span></h2>
<p class="posture">${esc(section.posture)}</p>
<h3>Open findings</h3>
<div class="row"><table class="figures"><tbody>
<tr><th>Open</th><td>${counts.open}</td></tr>
${findingSeverities.map((severity) => `<tr><th>${severity}</th><td>${counts.open_by_severity[severity]}</td></tr>`).join('')}
<tr><th>Known exploited (KEV)</th><td>${counts.open_kev}</td></tr>
${epss}
<tr><th>Overdue</th><td>${counts.overdue}</td></tr>
</tbody></table>${severityChart(counts)}</div>
<h3>Remediation</h3>
${narrowed(figures.filter) ? '<p class="muted">Of every finding of the filter\'s endpoints (its tag and criticality, as the console\'s remediation performance and plan take them); the counts above follow the whole filter.</p>' : ''}
<table class="figures"><tbody>
<tr><th>Deadline policy</th><td>${esc(deadlinePolicyText(performance))}</td></tr>
<tr><th>Remediated in time</th><td>${performance.remediated_in_time} of ${performance.remediated_with_deadline} with a deadline (${percent(performance.share_in_time)})</td></tr>
<tr><th>Median time to remediate</th><td>${days(performance.median_days_to_remediate)}</td></tr>
</tbody></table>
${monthlyChart(performance.monthly)}
<section class="part"><h3>Top plan steps</h3>
<p>${plan.open_critical_or_kev} open critical or KEV findings. ${plan.milestones.map(esc).join(' ')}</p>
${steps ? `<table><thead><tr><th>#</th><th>Update</th><th>Closes</th><th>Endpoints</th><th>Closed so far</th></tr></thead><tbody>${steps}</tbody></table>` : '<p class="muted">No step: nothing open is critical or KEV.</p>'}
</section>
<section class="part"><h3>Accepted risks (exceptions in force): ${section.accepted_risks_total}</h3>
${risks ? `<table><thead><tr><th>Scope</th><th>Reason</th><th>Expires</th><th>Open findings</th></tr></thead><tbody>${risks}</tbody></table>` : '<p class="muted">None.</p>'}
${section.accepted_risks_total > section.accepted_risks.length ? `<p class="muted">and ${section.accepted_risks_total - section.accepted_risks.length} more.</p>` : ''}
</section>
<section class="part"><h3>Change since the previous report</h3>${deltaPart(section.delta)}</section>
${parts.sectionParts?.(section) ?? ''}
<footer class="provenance"><h3>Where these figures come from</h3><ul>
<li>Data: ${org.kind === 'replica' ? `replica last synced ${esc(dateOf(section.provenance.last_synced_at))}, last matched with its remote ${esc(dateOf(section.provenance.last_matched_at))}` : 'a local organization: its data is kept here, not synced from a remote'}.</li>
<li>Intelligence files: ${intel ? `<ul>${intel}</ul>` : 'none imported.'}</li>
<li>Filter: ${figures.filter ? `<code>${esc(figures.filter)}</code>` : 'none (every finding)'}; counts follow the whole filter, the remediation figures and the plan its tag and criticality.</li>
<li>Deadline policy: ${esc(deadlinePolicyText(performance))}.</li>
<li>Made ${esc(dateOf(figures.created_at))} by Remediation Console ${esc(figures.product_version)}, report ${esc(figures.id)}.</li>
</ul></footer>
</section>`;
}

const styles = `
:root { color: #1b2430; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 24px auto; max-width: 880px; padding: 0 16px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; border-bottom: 2px solid #1f5fbf; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; } h4 { font-size: 13px; margin: 10px 0 4px; }
.muted { color: #5c6b7a; } .posture { font-size: 16px; font-weight: 600; }
table { border-collapse: collapse; margin: 4px 0 8px; } th, td { text-align: left; padding: 3px 10px 3px 0; border-bottom: 1px solid #e3e8ef; vertical-align: top; }
td.id, code { font: 11px ui-monospace, Menlo, Consolas, monospace; }
.figures th { font-weight: 500; min-width: 200px; } .row { display: flex; gap: 24px; align-items: flex-start; flex-wrap: wrap; }
svg .axis { font-size: 11px; fill: #5c6b7a; } svg .value { font-size: 11px; fill: #1b2430; }
.legend { font-size: 11px; color: #5c6b7a; } .swatch { print-color-adjust: exact; -webkit-print-color-adjust: exact; display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 10px; }
.provenance { margin-top: 18px; padding-top: 6px; border-top: 1px solid #9aa5b1; font-size: 12px; color: #3d4a5a; }
.signature { font-size: 12px; color: #3d4a5a; }
@page { size: A4; margin: 20mm 16mm 18mm;
  @top-left { content: "Remediation Console report"; font: 9pt system-ui, sans-serif; color: #5c6b7a; }
  @top-right { content: TITLE; font: 9pt system-ui, sans-serif; color: #5c6b7a; }
  @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 9pt system-ui, sans-serif; color: #5c6b7a; } }
@media print {
  body { margin: 0; max-width: none; padding: 0; }
  section.organization { break-before: page; } section.organization:first-of-type { break-before: auto; }
  section.part { break-before: page; }
  h2, h3, h4 { break-after: avoid; } tr, svg { break-inside: avoid; }
}`;

/** What another template (technical-report-html.ts) adds to the executive report. */
export interface ReportHtmlParts {
  /** The title's first word. */
  kind?: string;
  /** HTML after a section's executive parts, before its footer. */
  sectionParts?: (section: ReportSection) => string;
  /** HTML after the sections. */
  trailer?: string;
}

/**
 * The HTML of an executive report from its figures: what it shows is the figures alone, so the
 * same figures always give the same bytes.
 */
export function executiveReportHtml(figures: ReportFigures, signers: readonly ReportSigner[], parts: ReportHtmlParts = {}): string {
  const names = figures.sections.map((section) => section.organization.name).join(', ');
  const title = `${parts.kind ?? 'Executive'} report: ${names}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${reportContentSecurityPolicy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${styles.replace('TITLE', cssString(title))}</style></head>
<body>
<header><h1>${esc(title)}</h1>
<p class="muted">Made ${esc(dateOf(figures.created_at))}. Filter: ${figures.filter ? `<code>${esc(figures.filter)}</code>` : 'none (every finding)'}.</p>
<p class="signature">Signed by ${signers.map((signer) => `<span ${signerAttributes(signer)}>${esc(signer.subject)}</span>`).join(' and ')} with a detached CMS signature beside this file (<code>.p7s</code>${signers.length > 1 ? ', a signer for each organization' : ''}): check it with <code>remediation-console verify FILE</code> or <code>openssl cms -verify -binary -inform DER -in FILE.p7s -content FILE -noverify</code>.</p>
</header>
${figures.sections.map((section) => sectionHtml(section, figures, parts)).join('\n')}
${parts.trailer ?? ''}
</body></html>
`;
}
