import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { StatusMapping, StatusNameMapping } from '../../../contracts/console/work-packages';
import { statusMappingBounds, ticketStatusLabels, ticketStatuses, ticketSystems } from '../../../contracts/console/work-package-basics';
import { statusMappingQuery, useSaveStatusMapping } from '../api/work-package-queries';
import { formatDateTime } from '../lib/format';
import { FormSaveOutcome, fieldMessages, invalidInput, messageUnder } from './form-save-outcome';
import { QueryFrame } from './query-state';

const systemLabels: Record<StatusNameMapping['system'], string> = { jira: 'Jira', servicenow: 'ServiceNow' };
const mappingFields = ['system', 'status', 'maps_to'] as const;

/**
 * The organization's own ticket status names as a form, once loaded: what a status import reads
 * a row's status through before Jira's status category and the default workflows' names.
 */
export function StatusNamesForm({ slug }: { slug: string }) {
  const mapping = useQuery(statusMappingQuery(slug));
  // Held here, so that what the last save said outlives the rows' fresh start after it.
  const save = useSaveStatusMapping(slug);
  return (
    <QueryFrame query={mapping} what="the status names">
      {/* Keyed by what is saved: a save starts the rows afresh from it. */}
      {(saved) => <StatusNameRows key={JSON.stringify(saved)} saved={saved} save={save} />}
    </QueryFrame>
  );
}

/**
 * A row per status name: its ticket system, the name as the system shows it, and the status it
 * means. The server checks every row (the one place of the rules) and its message shows under
 * the row it refused; nothing is saved until every row is right.
 */
function StatusNameRows({ saved, save }: { saved: StatusMapping; save: ReturnType<typeof useSaveStatusMapping> }) {
  const [rows, setRows] = useState<StatusNameMapping[]>(saved.mappings);
  const id = useId();
  const errors = fieldMessages(save.error);
  const change = (index: number, patch: Partial<StatusNameMapping>) => setRows(rows.map((row, each) => (each === index ? { ...row, ...patch } : row)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ mappings: rows });
  };
  const fields = rows.flatMap((_, index) => mappingFields.map((field) => `mappings.${index}.${field}`));
  return (
    <form className="form-card status-names" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Status names</h3>
      <p className="hint">
        The names your teams gave their tickets&rsquo; statuses (&ldquo;Ready for QA&rdquo;, &ldquo;Deployed&rdquo;; a ServiceNow state by label or number), each with
        what it means. An import reads a status through these first, then Jira&rsquo;s status category, then the default workflows&rsquo; names; one none of them maps is
        listed, not imported. {saved.updated_at ? `Saved ${formatDateTime(saved.updated_at)}.` : 'None saved for this organization yet.'}
      </p>
      {rows.length ? (
        <ol className="status-names__rows">
          {rows.map((row, index) => {
            const n = index + 1;
            const message = messageUnder(errors, `mappings.${index}`);
            const errorId = `${id}-${index}-error`;
            return (
              <li key={index} className="status-names__row">
                <select aria-label={`System of name ${n}`} value={row.system} onChange={(event) => change(index, { system: event.target.value as StatusNameMapping['system'] })}>
                  {ticketSystems.map((system) => (
                    <option key={system} value={system}>
                      {systemLabels[system]}
                    </option>
                  ))}
                </select>
                <input
                  type="text"
                  aria-label={`Status name ${n}`}
                  value={row.status}
                  maxLength={statusMappingBounds.name + 1}
                  onChange={(event) => change(index, { status: event.target.value })}
                  {...invalidInput(message, errorId)}
                />
                <select aria-label={`Meaning of name ${n}`} value={row.maps_to} onChange={(event) => change(index, { maps_to: event.target.value as StatusNameMapping['maps_to'] })}>
                  {ticketStatuses.map((status) => (
                    <option key={status} value={status}>
                      {ticketStatusLabels[status]}
                    </option>
                  ))}
                </select>
                <button type="button" aria-label={`Remove name ${n}`} onClick={() => setRows(rows.filter((_, each) => each !== index))}>
                  Remove
                </button>
                {message ? (
                  <span className="field-error" id={errorId}>
                    {message}
                  </span>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}
      <FormSaveOutcome save={save} fields={fields} savedClassName="status-names__saved" saved="Saved: the next import reads its statuses through these names." />
      <div className="status-names__actions">
        <button type="button" onClick={() => setRows([...rows, { system: 'jira', status: '', maps_to: 'done' }])} disabled={rows.length >= statusMappingBounds.entries}>
          Add a name
        </button>
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save status names'}
        </button>
      </div>
    </form>
  );
}
