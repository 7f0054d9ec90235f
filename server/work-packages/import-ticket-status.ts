import type { TicketStatusImportResult } from '../../contracts/console/work-packages.js';
import type { ImportedTicket } from '../store/records/work-package-records.js';
import type { Store } from '../store/store.js';
import { type TicketRow, parseTicketStatusFile } from './ticket-status-file.js';

/**
 * Imports a ticket system's CSV export (ticket-status-file.ts) into an organization's work
 * packages, all rows or none: a row's status is read through the organization's own status
 * names first; a row whose status maps to nothing is listed as unmapped and not imported. A row
 * is matched by its external id to a step of the whole plan, or to a step a ticket was read for
 * before (a product since fixed has left the plan); a row with no external id, or one no step
 * has, is listed as unmatched, never guessed at. A bad file throws TicketStatusFileError naming
 * its line, before anything is stored. The answer reports how each status of the file was mapped.
 */
export async function importTicketStatus(store: Store, orgRowId: number, text: string): Promise<TicketStatusImportResult> {
  const file = await parseTicketStatusFile(text, store.workPackages.records.statusMapping(orgRowId).mappings);
  const steps = new Map((await store.workPackages.list(orgRowId)).map((work) => [work.external_id, { vendor: work.vendor, product: work.product }]));
  const known = store.workPackages.records.byExternalId(orgRowId);
  const tickets: ImportedTicket[] = [];
  const unmatched: TicketStatusImportResult['unmatched'] = [];
  const unmapped: TicketStatusImportResult['unmapped'] = [];
  for (const row of file.rows) {
    if (row.status === null) {
      unmapped.push({ line: row.line, key: row.key, external_id: row.externalId, system_status: row.systemStatus });
      continue;
    }
    const step = row.externalId === null ? undefined : (steps.get(row.externalId) ?? known.get(row.externalId));
    if (!step) {
      const why = row.externalId === null ? 'the row names no external id' : 'no step of the plan has this external id';
      unmatched.push({ line: row.line, key: row.key, external_id: row.externalId, why });
      continue;
    }
    tickets.push({ externalId: row.externalId!, vendor: step.vendor, product: step.product, system: file.system, key: row.key, status: row.status, systemStatus: row.systemStatus, resolution: row.resolution, resolvedAt: row.resolvedAt });
  }
  const changed = tickets.length ? store.workPackages.records.importTickets(orgRowId, tickets) : 0;
  return { system: file.system, rows: file.rows.length, matched: tickets.length, changed, unmatched, statuses: statusReport(file.rows), unmapped };
}

/** Each status of the file (with its Jira status category) and how it was mapped, with its rows, in the order they first appear. */
function statusReport(rows: readonly TicketRow[]): TicketStatusImportResult['statuses'] {
  const report = new Map<string, TicketStatusImportResult['statuses'][number]>();
  for (const row of rows) {
    const key = JSON.stringify([row.systemStatus, row.statusCategory, row.status, row.mappedBy]);
    const line = report.get(key);
    if (line) line.rows++;
    else report.set(key, { system_status: row.systemStatus, status_category: row.statusCategory, status: row.status, mapped_by: row.mappedBy, rows: 1 });
  }
  return [...report.values()];
}
