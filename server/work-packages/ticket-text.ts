import type { WorkPackage } from '../../contracts/console/work-packages.js';
import { counted } from '../../contracts/figure-text.js';

/** Hostnames a ticket's description lists, before "and N more": a description stays far below Jira's 32,767 characters. */
export const hostnamesInDescription = 200;

/** "Update Google Chrome to 141.0.7390.122 on 12 endpoints": a ticket's one-line summary. */
export function ticketSummary(work: WorkPackage): string {
  const product = [work.vendor, work.product].filter((name) => name !== null).join(' ') || 'an unnamed product';
  const to = work.update_to.version === null ? '' : ` to ${work.update_to.version}`;
  return `Update ${product}${to} on ${counted(work.endpoints.length, 'endpoint')}`;
}

/**
 * A ticket's description, over several lines: the version to update to with its verdict, what
 * the step closes, the due date, and the endpoints with their tags and criticality.
 */
export function ticketDescription(work: WorkPackage): string {
  const { findings } = work;
  const severities = Object.entries(findings.by_severity)
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}`)
    .join(', ');
  const lines = [
    work.update_to.sentence,
    `Closes ${counted(findings.total, 'open critical or KEV finding')} (${severities || 'none'}; ${findings.kev} in KEV${findings.epss_sum === null ? '' : `; EPSS sum ${findings.epss_sum.toFixed(3)}`}).`,
    work.due_at === null ? 'No due date under the deadline policy.' : `Earliest due date under the deadline policy: ${work.due_at.slice(0, 10)}.`,
    `Step ${work.step} of the remediation plan; external id ${work.external_id}.`,
    '',
    `Endpoints (${work.endpoints.length}):`,
    ...work.endpoints.slice(0, hostnamesInDescription).map((endpoint) => {
      const context = [endpoint.criticality === 'normal' ? '' : `criticality ${endpoint.criticality}`, endpoint.tags.length ? `tags ${endpoint.tags.join(', ')}` : ''].filter(Boolean);
      return `- ${endpoint.hostname ?? endpoint.endpoint_id}${context.length ? ` (${context.join('; ')})` : ''}`;
    }),
  ];
  if (work.endpoints.length > hostnamesInDescription) lines.push(`- and ${work.endpoints.length - hostnamesInDescription} more`);
  return lines.join('\n');
}
