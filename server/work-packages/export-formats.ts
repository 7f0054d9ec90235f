import type { WorkPackage } from '../../contracts/console/work-packages.js';
import type { WorkPackageExportFormat, WorkPackagePriority } from '../../contracts/console/work-package-basics.js';
import { csvCell, csvLine } from '../../contracts/csv-cells.js';
import { ticketDescription, ticketSummary } from './ticket-text.js';

/** What a whole export is of: the organization's slug, and when it was made. */
export interface ExportMeta {
  organization: string;
  generatedAt: string;
}

/** What an export writes: its header, a piece per work package, its end; and how it is served. */
export interface ExportFormat {
  contentType: string;
  extension: string;
  begin(meta: ExportMeta): string;
  item(work: WorkPackage, index: number, meta: ExportMeta): string;
  end(): string;
}

/** Jira's priorities by the suggested ones (its default scheme). */
const jiraPriority: Record<WorkPackagePriority, string> = { highest: 'Highest', high: 'High', medium: 'Medium', low: 'Low' };
/** ServiceNow's priority numbers (1 - Critical … 4 - Low) by the suggested ones. */
const serviceNowPriority: Record<WorkPackagePriority, number> = { highest: 1, high: 2, medium: 3, low: 4 };

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A date as Jira's importer reads it by default, `dd/MMM/yy h:mm a` (UTC). */
function jiraDate(iso: string | null): string {
  if (iso === null) return '';
  const date = new Date(iso);
  const hours = date.getUTCHours();
  const minutes = String(date.getUTCMinutes()).padStart(2, '0');
  const day = String(date.getUTCDate()).padStart(2, '0');
  return `${day}/${months[date.getUTCMonth()]}/${String(date.getUTCFullYear() % 100).padStart(2, '0')} ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** Labels each Jira line carries, in as many `Labels` columns: Jira labels hold no spaces. */
const jiraLabelColumns = 4;
function jiraLabels(work: WorkPackage, organization: string): string[] {
  const labels = ['remediation-console', work.external_id, `org-${organization.replace(/\s+/g, '-')}`, work.findings.kev > 0 ? 'kev' : ''];
  return labels.slice(0, jiraLabelColumns);
}

/** A CSV line with every cell quoted, as Atlassian asks of a file to import ("enclosed in quotes"). */
function quotedLine(cells: unknown[]): string {
  return `${cells.map((value) => {
    const cell = csvCell(value);
    return cell.startsWith('"') || cell === '' ? cell : `"${cell}"`;
  }).join(',')}\r\n`;
}

/**
 * Jira's CSV importer, as Atlassian's "Prepare a CSV file for import" asks: a header row with
 * Summary, every value in quotes (descriptions keep their line breaks), a `Labels` column per
 * label, dates in the importer's default format; the external id in its own column (for a text
 * custom field), and the issue key a status import read, so that importing again updates it.
 */
const jira: ExportFormat = {
  contentType: 'text/csv; charset=utf-8',
  extension: 'jira.csv',
  begin: () => quotedLine(['Summary', 'Description', 'Issue Type', 'Priority', 'Due date', 'External ID', 'Issue key', ...Array(jiraLabelColumns).fill('Labels')]),
  item: (work, _index, { organization }) =>
    quotedLine([
      ticketSummary(work),
      ticketDescription(work),
      'Task',
      jiraPriority[work.priority],
      jiraDate(work.due_at),
      work.external_id,
      work.ticket?.system === 'jira' ? work.ticket.key : '',
      ...jiraLabels(work, organization),
    ]),
  end: () => '',
};

/** ServiceNow's date-time format, `yyyy-MM-dd HH:mm:ss` (UTC). */
const serviceNowDate = (iso: string | null) => (iso === null ? '' : iso.slice(0, 19).replace('T', ' '));

/** The columns of the ServiceNow import-set CSV (docs/decisions/work-packages/a-servicenow-import-set-of-u-columns-coalesced-on-the-external-id.md). */
const serviceNowColumns: [string, (work: WorkPackage, organization: string) => unknown][] = [
  ['u_external_id', (work) => work.external_id],
  ['u_number', (work) => (work.ticket?.system === 'servicenow' ? work.ticket.key : '')],
  ['u_short_description', (work) => ticketSummary(work)],
  ['u_description', (work) => ticketDescription(work)],
  ['u_priority', (work) => serviceNowPriority[work.priority]],
  ['u_due_date', (work) => serviceNowDate(work.due_at)],
  ['u_organization', (_work, organization) => organization],
  ['u_vendor', (work) => work.vendor ?? ''],
  ['u_product', (work) => work.product ?? ''],
  ['u_update_to_version', (work) => work.update_to.version ?? ''],
  ['u_update_to_verdict', (work) => work.update_to.verdict],
  ['u_plan_step', (work) => work.step],
  ['u_endpoint_count', (work) => work.endpoints.length],
  ['u_endpoints', (work) => work.endpoints.map((endpoint) => endpoint.hostname ?? endpoint.endpoint_id).join('\n')],
  ['u_findings', (work) => work.findings.total],
  ['u_critical', (work) => work.findings.by_severity.critical],
  ['u_kev', (work) => work.findings.kev],
  ['u_epss_sum', (work) => work.findings.epss_sum ?? ''],
  ['u_owner', (work) => work.owner],
  ['u_note', (work) => work.note],
];

const servicenow: ExportFormat = {
  contentType: 'text/csv; charset=utf-8',
  extension: 'servicenow.csv',
  begin: () => csvLine(serviceNowColumns.map(([name]) => name)),
  item: (work, _index, { organization }) => csvLine(serviceNowColumns.map(([, value]) => value(work, organization))),
  end: () => '',
};

/** The JSON of `WorkPackageList` in the /app OpenAPI document, written a work package at a time. */
const json: ExportFormat = {
  contentType: 'application/json; charset=utf-8',
  extension: 'json',
  begin: ({ organization, generatedAt }) => `{"generated_at":${JSON.stringify(generatedAt)},"organization":${JSON.stringify(organization)},"data":[`,
  item: (work, index) => `${index === 0 ? '' : ','}${JSON.stringify(work)}`,
  end: () => ']}\n',
};

/** The export's formats by name. */
export const exportFormats: Record<WorkPackageExportFormat, ExportFormat> = { jira, servicenow, json };
