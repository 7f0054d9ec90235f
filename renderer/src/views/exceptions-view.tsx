import { useQuery } from '@tanstack/react-query';
import { type Ref, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { setOrRemove, useUrlSearch } from '../lib/use-url-search';
import { exceptionReasonLabels, exceptionStates } from '../../../contracts/console/exception-basics';
import type { ConsoleException, ExceptionImportResult } from '../../../contracts/console/exceptions';
import { itemQuery } from '../api/console-queries';
import { exceptionsExportPath, exceptionsQuery, useCreateException, useImportExceptions, useRevokeException, useUpdateException } from '../api/exception-queries';
import { useSuggestions } from '../api/use-suggestions';
import { StatusBadge } from '../components/badges';
import { Combobox } from '../components/combobox';
import { ExceptionForm, localDate, newExceptionFields, startOfLocalDate } from '../components/exception-form';
import { fieldMessages } from '../components/form-save-outcome';
import { FileExportButton } from '../components/file-export-button';
import { FileImportButton } from '../components/file-import-button';
import { QueryError, QueryFrame } from '../components/query-state';
import { SaveViewControl } from '../components/save-view-control';
import { TableHead } from '../components/table-head';
import { formatCount, formatDateTime } from '../lib/format';
import { paths } from '../lib/paths';
import { useChosenValue } from '../lib/use-chosen-value';

/**
 * The organization's exceptions: accepted CVEs (everywhere or on chosen endpoints) and findings,
 * which active ones leave out of the coverage gaps and the risk figures until they expire. Listed
 * by state (in the URL, with the exception a link selects), made, edited and revoked here,
 * exported as a file and imported from one, so that a team shares them.
 */
export function ExceptionsView({ slug }: { slug: string }) {
  const { search, changeSearch } = useUrlSearch();
  const state = exceptionStates.find((value) => value === search.get('state'));
  const selected = search.get('selected') ?? undefined;
  const exceptions = useQuery(exceptionsQuery(slug, state));
  const [creating, setCreating] = useState(false);
  const importing = useImportExceptions(slug);
  const stateId = useId();
  const [shownState, setShownState] = useChosenValue(state ?? '');
  const setState = (value: string) => {
    setShownState(value);
    changeSearch((next) => setOrRemove(next, 'state', value), { replace: true });
  };

  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Exceptions</h1>
      </header>
      <p className="hint">
        An active exception leaves the findings it covers out of the <Link to={paths.view(slug, 'coverage-gaps')}>coverage gaps</Link> and the risk
        figures until it expires; they are marked wherever they are listed. Accept one finding, or a CVE on some endpoints, from a finding&apos;s page.
      </p>
      <div className="toolbar">
        <div className="filter">
          <label htmlFor={stateId}>State</label>
          <select id={stateId} value={shownState} onChange={(event) => setState(event.target.value)}>
            <option value="">All</option>
            {exceptionStates.map((value) => (
              <option key={value} value={value}>
                {value[0]!.toUpperCase() + value.slice(1)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={() => setCreating(true)} disabled={creating}>
          New exception…
        </button>
        <FileExportButton label="Export…" path={exceptionsExportPath(slug)} suggestedName={`${slug}-exceptions.json`} filter={{ name: 'JSON', extensions: ['json'] }} />
        <FileImportButton label="Import…" accept=".json,application/json" importing={importing} describe={importSummary} />
      </div>
      <SaveViewControl slug={slug} />
      {creating ? <NewException slug={slug} onDone={() => setCreating(false)} /> : null}
      <QueryFrame query={exceptions} what="exceptions" empty={(data) => data.length === 0 && (state ? `No exception is ${state}.` : 'This organization has no exceptions yet.')}>
        {(data) => <ExceptionTable slug={slug} exceptions={data} selected={selected} />}
      </QueryFrame>
    </section>
  );
}

/** What an exception covers, in words, linked to those findings. */
function ScopeCell({ slug, exception }: { slug: string; exception: ConsoleException }) {
  const { scope } = exception;
  if (scope.kind === 'finding') return <FindingScope slug={slug} id={scope.finding_id} />;
  const findings = paths.list(slug, 'findings', scope.kind === 'cve_on_endpoints' && scope.endpoint_ids.length === 1 ? { cveId: scope.cve_id, endpointId: scope.endpoint_ids[0]! } : { cveId: scope.cve_id });
  return (
    <>
      <Link to={findings}>{scope.cve_id}</Link>{' '}
      {scope.kind === 'cve' ? (
        'everywhere'
      ) : (
        <span title={scope.endpoint_ids.join('\n')}>
          on {scope.endpoint_ids.length === 1 ? <Link to={paths.item(slug, 'endpoints', scope.endpoint_ids[0]!)}>one endpoint</Link> : `${formatCount(scope.endpoint_ids.length)} endpoints`}
        </span>
      )}
    </>
  );
}

/** An exception's one finding, named by its CVE and host once its detail is read: a few rows of them read in a moment. */
function FindingScope({ slug, id }: { slug: string; id: string }) {
  const finding = useQuery(itemQuery(slug, 'findings', id));
  const name = finding.data ? `${finding.data.cve_id} on ${finding.data.endpoint_hostname ?? 'an unknown endpoint'}` : undefined;
  return (
    <>
      <Link to={paths.item(slug, 'findings', id)}>{name ?? 'One finding'}</Link>
      {name ? ', one finding' : finding.isError ? ' (not in this replica now)' : null}
    </>
  );
}

function ExceptionTable({ slug, exceptions, selected }: { slug: string; exceptions: ConsoleException[]; selected: string | undefined }) {
  const selectedRow = useRef<HTMLTableRowElement>(null);
  // A link to one exception (from a finding's page) brings it into view. Braced: Chromium's
  // scrollIntoView answers a promise, which React would take for the effect's cleanup.
  useEffect(() => {
    void selectedRow.current?.scrollIntoView({ block: 'center' });
  }, [selected]);
  return (
    <table className="plain-table exceptions-table">
      <caption className="visually-hidden">Exceptions</caption>
      <TableHead columns={['Covers', 'Reason', 'State', 'Expires', 'Findings', 'Made']} actions />
      <tbody>
        {exceptions.map((exception) => (
          <ExceptionRow key={exception.id} slug={slug} exception={exception} selected={exception.id === selected} rowRef={exception.id === selected ? selectedRow : undefined} />
        ))}
      </tbody>
    </table>
  );
}

interface ExceptionRowProps {
  slug: string;
  exception: ConsoleException;
  selected: boolean;
  rowRef: Ref<HTMLTableRowElement> | undefined;
}

function ExceptionRow({ slug, exception, selected, rowRef }: ExceptionRowProps) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const update = useUpdateException(slug);
  const revoke = useRevokeException(slug);
  const changed = exception.revoked_at ?? exception.updated_at;
  return (
    <>
      <tr ref={rowRef} className={selected ? 'is-selected' : undefined} aria-current={selected ? 'true' : undefined}>
        <td>
          <ScopeCell slug={slug} exception={exception} />
          {exception.note ? <div className="exceptions-table__note">{exception.note}</div> : null}
        </td>
        <td>{exceptionReasonLabels[exception.reason]}</td>
        <td>
          <StatusBadge status={exception.state} />
        </td>
        <td>{formatDateTime(exception.expires_at)}</td>
        <td className="num">
          {formatCount(exception.findings)} <span className="exceptions-table__open">({formatCount(exception.open_findings)} open)</span>
        </td>
        <td>
          {exception.created_by}, {formatDateTime(exception.created_at)}
          {changed ? (
            <div className="exceptions-table__changed">
              {exception.revoked_at ? `Revoked by ${exception.revoked_by}` : `Edited by ${exception.updated_by}`}, {formatDateTime(changed)}
            </div>
          ) : null}
        </td>
        <td className="exceptions-table__actions">
          {exception.state === 'revoked' ? null : confirming ? (
            <>
              <button type="button" className="danger" onClick={() => revoke.mutate(exception.id, { onSettled: () => setConfirming(false) })}>
                Confirm revoke
              </button>{' '}
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </>
          ) : (
            <>
              <button type="button" onClick={() => setEditing(true)} disabled={editing}>
                Edit
              </button>{' '}
              <button type="button" onClick={() => setConfirming(true)}>
                Revoke
              </button>
            </>
          )}
          {revoke.isError ? <QueryError error={revoke.error} /> : null}
        </td>
      </tr>
      {editing ? (
        <tr>
          <td colSpan={7}>
            <ExceptionForm
              title="Edit the exception"
              initial={{ reason: exception.reason, note: exception.note, expiresOn: localDate(Date.parse(exception.expires_at)) }}
              submitLabel="Save"
              pending={update.isPending}
              error={update.error}
              onCancel={() => setEditing(false)}
              onSubmit={(fields) => {
                const expiresAt = startOfLocalDate(fields.expiresOn);
                const body = {
                  reason: fields.reason,
                  note: fields.note,
                  // An unchanged date keeps the expiry as it is, to the millisecond.
                  ...(localDate(Date.parse(exception.expires_at)) === fields.expiresOn ? {} : { expires_at: expiresAt }),
                };
                update.mutate({ id: exception.id, body }, { onSuccess: () => setEditing(false) });
              }}
            />
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** A new exception of a CVE, everywhere or on the endpoints chosen by name. */
function NewException({ slug, onDone }: { slug: string; onDone: () => void }) {
  const create = useCreateException(slug);
  const [cveId, setCveId] = useState('');
  const [endpoints, setEndpoints] = useState<{ id: string; hostname: string }[]>([]);
  const suggestions = useSuggestions(slug, 'endpoints');
  const id = useId();
  const errors = fieldMessages(create.error);
  return (
    <ExceptionForm
      title="New exception"
      initial={newExceptionFields()}
      submitLabel="Make the exception"
      pending={create.isPending}
      error={create.error}
      onCancel={onDone}
      onSubmit={(fields) =>
        create.mutate(
          {
            scope: endpoints.length ? { kind: 'cve_on_endpoints', cve_id: cveId, endpoint_ids: endpoints.map((endpoint) => endpoint.id) } : { kind: 'cve', cve_id: cveId },
            reason: fields.reason,
            note: fields.note,
            expires_at: startOfLocalDate(fields.expiresOn),
          },
          { onSuccess: onDone },
        )
      }
    >
      <div className="exception-form__field">
        <label htmlFor={`${id}-cve`}>CVE</label>
        <input
          id={`${id}-cve`}
          value={cveId}
          placeholder="CVE-2021-44228"
          spellCheck={false}
          onChange={(event) => setCveId(event.target.value)}
          aria-invalid={errors['scope.cve_id'] ? true : undefined}
          aria-describedby={errors['scope.cve_id'] ? `${id}-cve-error` : undefined}
        />
        {errors['scope.cve_id'] ? (
          <span className="field-error" id={`${id}-cve-error`}>
            {errors['scope.cve_id']}
          </span>
        ) : null}
      </div>
      <div className="exception-form__field">
        <Combobox
          label="On endpoints"
          name="endpoint"
          placeholder="Hostname or IP…"
          chosen=""
          options={suggestions.items.map((endpoint) => ({ id: endpoint.id, label: endpoint.hostname, detail: endpoint.ip ?? undefined }))}
          message={suggestions.message}
          onSearch={suggestions.onSearch}
          onChoose={(option) => setEndpoints((chosen) => (chosen.some((e) => e.id === option.id) ? chosen : [...chosen, { id: option.id, hostname: option.label }]))}
          onClear={() => setEndpoints([])}
        />
        {endpoints.length ? (
          <ul className="chosen-endpoints" aria-label="Chosen endpoints">
            {endpoints.map((endpoint) => (
              <li key={endpoint.id}>
                {endpoint.hostname}{' '}
                <button type="button" className="link-button" aria-label={`Remove ${endpoint.hostname}`} onClick={() => setEndpoints((chosen) => chosen.filter((e) => e.id !== endpoint.id))}>
                  ×
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <span className="hint">None chosen: everywhere.</span>
        )}
        {errors['scope.endpoint_ids'] ? <span className="field-error">{errors['scope.endpoint_ids']}</span> : null}
      </div>
    </ExceptionForm>
  );
}

/** The answer to an import: all of the file imported or, with the first problem said, none. */
const importSummary = ({ created, updated, skipped }: ExceptionImportResult) =>
  `Imported: ${formatCount(created)} created, ${formatCount(updated)} updated, ${formatCount(skipped)} skipped (held here, as recent or revoked).`;

