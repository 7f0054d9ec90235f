import type { TicketStatusImportResult } from '../../contracts/console/work-packages.js';
import type { ImportedTicket } from '../store/records/work-package-records.js';
import type { Store } from '../store/store.js';
import { parseTicketStatusFile } from './ticket-status-file.js';

/**
 * Imports a ticket system's CSV export (ticket-status-file.ts) into an organization's work
 * packages, all rows or none: a row is matched by its external id to a step of the whole plan,
 * or to a step a ticket was read for before (a product since fixed has left the plan); a row
 * with no external id, or one no step has, is listed as unmatched, never guessed at. A bad file
 * throws TicketStatusFileError naming its line, before anything is stored.
 */
export async function importTicketStatus(store: Store, orgRowId: number, text: string): Promise<TicketStatusImportResult> {
  const file = await parseTicketStatusFile(text);
  const steps = new Map((await store.workPackages.list(orgRowId)).map((work) => [work.external_id, { vendor: work.vendor, product: work.product }]));
  const known = store.workPackages.records.byExternalId(orgRowId);
  const tickets: ImportedTicket[] = [];
  const unmatched: TicketStatusImportResult['unmatched'] = [];
  for (const row of file.rows) {
    const step = row.externalId === null ? undefined : (steps.get(row.externalId) ?? known.get(row.externalId));
    if (!step) {
      const why = row.externalId === null ? 'the row names no external id' : 'no step of the plan has this external id';
      unmatched.push({ line: row.line, key: row.key, external_id: row.externalId, why });
      continue;
    }
    tickets.push({ externalId: row.externalId!, vendor: step.vendor, product: step.product, system: file.system, key: row.key, status: row.status, systemStatus: row.systemStatus, resolution: row.resolution, resolvedAt: row.resolvedAt });
  }
  const changed = tickets.length ? store.workPackages.records.importTickets(orgRowId, tickets) : 0;
  return { system: file.system, rows: file.rows.length, matched: tickets.length, changed, unmatched };
}
