import { useId, useState } from 'react';
import type { TicketStatusImportResult, WorkPackage } from '../../../contracts/console/work-packages';
import { type WorkPackageStatusFilter, statusMappedByWords, ticketStatusLabels, workPackageStatusFilters, workPackageTextBounds } from '../../../contracts/console/work-package-basics';
import type { ListFilters } from '../api/list-pages';
import { useImportTicketStatus, useUpdateWorkPackage, workPackageExportPath } from '../api/work-package-queries';
import { FileExportButton } from '../components/file-export-button';
import { FileImportButton } from '../components/file-import-button';
import { StatusNamesForm } from '../components/status-names-form';
import { formatCounted, formatDate } from '../lib/format';
import { setOrRemove, useUrlSearch } from '../lib/use-url-search';

/** The plan's filter by ticket status, kept in the URL (`status`): undefined for every step. */
export function useTicketStatusFilter(): { status: WorkPackageStatusFilter | undefined; setStatus: (status: string) => void } {
  const { search, changeSearch } = useUrlSearch();
  const value = search.get('status');
  const status = workPackageStatusFilters.find((each) => each === value);
  return { status, setStatus: (next) => changeSearch((params) => setOrRemove(params, 'status', next)) };
}

/**
 * What a status import did, in words: the rows it matched and changed, those it did not match
 * and those whose status maps to nothing (listed, never guessed at), and how each status was mapped.
 */
function describeImport(result: TicketStatusImportResult): string {
  const system = result.system === 'jira' ? 'Jira' : 'ServiceNow';
  const unmatched = result.unmatched.map((row) => `line ${row.line} (${row.key}): ${row.why}`).join('; ');
  const unmapped = result.unmapped.map((row) => `line ${row.line} (${row.key}) “${row.system_status}”`).join('; ');
  const statuses = result.statuses
    .map((each) => `“${each.system_status}” ${each.status === null ? 'maps to nothing' : `${ticketStatusLabels[each.status]} ${statusMappedByWords[each.mapped_by]}`} (${formatCounted(each.rows, 'row')})`)
    .join('; ');
  return (
    `${system} export of ${formatCounted(result.rows, 'row')}: ${result.matched} matched a step, ${result.changed} changed${unmatched ? `; not matched: ${unmatched}` : ''}` +
    `${unmapped ? `; not imported, their status maps to nothing: ${unmapped}` : ''}. Statuses: ${statuses || 'none'}.`
  );
}

/**
 * The plan as tickets for IT: its export for Jira, ServiceNow or as JSON (the plan's filters
 * apply), the import of a ticket system's CSV export that reads each step's status back, and
 * the filter of the steps by status.
 */
export function WorkPackageBar({ slug, filters }: { slug: string; filters: ListFilters }) {
  const importing = useImportTicketStatus(slug);
  const { status, setStatus } = useTicketStatusFilter();
  const statusId = useId();
  return (
    <section className="work-package-bar" aria-label="Tickets">
      <FileExportButton label="Export for Jira" path={workPackageExportPath(slug, 'jira', filters)} suggestedName={`${slug}-work-packages.jira.csv`} filter={{ name: 'CSV', extensions: ['csv'] }} />
      <FileExportButton
        label="Export for ServiceNow"
        path={workPackageExportPath(slug, 'servicenow', filters)}
        suggestedName={`${slug}-work-packages.servicenow.csv`}
        filter={{ name: 'CSV', extensions: ['csv'] }}
      />
      <FileExportButton label="Export as JSON" path={workPackageExportPath(slug, 'json', filters)} suggestedName={`${slug}-work-packages.json`} filter={{ name: 'JSON', extensions: ['json'] }} />
      <FileImportButton label="Import ticket status" accept=".csv,text/csv" importing={importing} describe={describeImport} />
      <label htmlFor={statusId}>Steps with the ticket status</label>
      <select id={statusId} value={status ?? ''} onChange={(event) => setStatus(event.target.value)}>
        <option value="">any</option>
        {workPackageStatusFilters.map((each) => (
          <option key={each} value={each}>
            {ticketStatusLabels[each]}
          </option>
        ))}
      </select>
      <details className="status-names-fold">
        <summary>Status names</summary>
        <StatusNamesForm slug={slug} />
      </details>
    </section>
  );
}

/** A step's ticket as the last status import read it, and whether the check after a sync found it still vulnerable. */
function TicketStatus({ work }: { work: WorkPackage | undefined }) {
  if (!work?.ticket) return <>{ticketStatusLabels['not-ticketed']}</>;
  const { ticket, still_vulnerable: still } = work;
  return (
    <>
      {ticketStatusLabels[ticket.status]}
      {ticket.resolved_at ? ` on ${formatDate(ticket.resolved_at)}` : null}
      {still ? (
        <span className="badge badge--kev" title={`${still.sentence} ${still.hostnames.join(', ')}`}>
          still vulnerable on {formatCounted(still.endpoints, 'endpoint')}
        </span>
      ) : null}
    </>
  );
}

/** A step's local owner and note, each saved when its field is left (or Enter pressed in the owner's) with another value. */
function OwnerFields({ slug, work, label }: { slug: string; work: WorkPackage; label: string }) {
  const update = useUpdateWorkPackage(slug);
  const [owner, setOwner] = useState(work.owner);
  const [note, setNote] = useState(work.note);
  const save = () => {
    if (owner.trim() !== work.owner || note !== work.note) update.mutate({ externalId: work.external_id, edit: { owner: owner.trim(), note } });
  };
  return (
    <>
      <input
        className="owner-field"
        aria-label={`Owner of ${label}`}
        value={owner}
        maxLength={workPackageTextBounds.owner}
        onChange={(event) => setOwner(event.target.value)}
        onBlur={save}
        onKeyDown={(event) => event.key === 'Enter' && save()}
      />
      <textarea
        className="owner-field"
        aria-label={`Note on ${label}`}
        placeholder="Note"
        rows={1}
        value={note}
        maxLength={workPackageTextBounds.note}
        onChange={(event) => setNote(event.target.value)}
        onBlur={save}
      />
      {update.isError ? (
        <span role="alert" className="field-error">
          Not saved: {update.error.message}
        </span>
      ) : null}
    </>
  );
}

/** The cells a work package adds to a step of the plan: its ticket, status, owner and note, and its export for Jira. */
export function WorkPackageCells({ slug, work, label }: { slug: string; work: WorkPackage | undefined; label: string }) {
  return (
    <>
      <td>{work?.ticket?.key ?? '—'}</td>
      <td>
        <TicketStatus work={work} />
      </td>
      <td>{work ? <OwnerFields key={`${work.external_id}|${work.owner}|${work.note}`} slug={slug} work={work} label={label} /> : null}</td>
      <td>
        {work ? (
          <FileExportButton
            label="Export this step"
            path={workPackageExportPath(slug, 'jira', {}, work.external_id)}
            suggestedName={`${slug}-${work.external_id}.jira.csv`}
            filter={{ name: 'CSV', extensions: ['csv'] }}
          />
        ) : null}
      </td>
    </>
  );
}
