import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { savedViewLimits, savedViewSection } from '../../../contracts/console/saved-view-basics';
import { consoleViews } from '../../../contracts/console/views';
import type { SavedView, SavedViewImportResult } from '../../../contracts/saved-views';
import { savedViewsExportPath, savedViewsQuery, useDeleteSavedView, useImportSavedViews, useUpdateSavedView } from '../api/saved-view-queries';
import { ConfirmedAction } from '../components/confirmed-action';
import { FileExportButton } from '../components/file-export-button';
import { FileImportButton } from '../components/file-import-button';
import { fieldMessages } from '../components/form-save-outcome';
import { QueryError, QueryFrame } from '../components/query-state';
import { TableHead } from '../components/table-head';
import { formatCounted, formatDateTime } from '../lib/format';
import { paths } from '../lib/paths';

const jsonFile = { name: 'JSON', extensions: ['json'] };

/** The sidebar's name of a saved view's console view. */
function viewLabel(view: SavedView): string {
  const section = savedViewSection(view.view);
  return consoleViews.find((each) => each.section === section)?.label ?? view.view;
}

/** A view's filters as a reader takes them in: `criticality: critical · status: open`, or "none". */
function filterText(query: string): string {
  const filters = [...new URLSearchParams(query)].map(([name, value]) => `${name}: ${value}`);
  return filters.length > 0 ? filters.join(' · ') : 'none';
}

/**
 * The organization's saved views (a view's filters under a name, saved with "Save view" above
 * each list, the dashboard and the plan): opened, renamed, deleted, downloaded as a small file
 * (one or all), and a file imported, all or nothing.
 */
export function SavedViewsView({ slug }: { slug: string }) {
  const views = useQuery(savedViewsQuery(slug));
  const remove = useDeleteSavedView(slug);
  const importing = useImportSavedViews(slug);
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  const [renaming, setRenaming] = useState<string | undefined>(undefined);
  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Saved views</h1>
      </header>
      <p className="hint">
        A view&rsquo;s filters under a name: save one with &ldquo;Save view&rdquo; beside the filters of a list, the dashboard or the plan. A
        file of them opens the same views in another organization or installation.
      </p>
      <div className="inline-form">
        <FileExportButton label="Download all" path={savedViewsExportPath(slug)} suggestedName={`${slug}-saved-views.json`} filter={jsonFile} />
        <FileImportButton label="Import views" accept=".json,application/json" importing={importing} describe={(result: SavedViewImportResult) => `Imported ${formatCounted(result.created, 'view')}.`} />
      </div>
      <QueryFrame query={views} what="saved views" empty={(data) => data.length === 0 && 'This organization has no saved views yet.'}>
        {(data) => (
          <table className="plain-table">
            <caption className="visually-hidden">Saved views</caption>
            <TableHead columns={['Name', 'View', 'Filters', 'Saved']} actions />
            <tbody>
              {data.map((view) => (
                <tr key={view.id}>
                  <td>{renaming === view.id ? <RenameForm slug={slug} view={view} onDone={() => setRenaming(undefined)} /> : <Link to={paths.savedView(slug, view)}>{view.name}</Link>}</td>
                  <td>{viewLabel(view)}</td>
                  <td>{filterText(view.query)}</td>
                  <td>{formatDateTime(view.updated_at)}</td>
                  <td>
                    <button type="button" onClick={() => setRenaming(view.id)}>
                      Rename<span className="visually-hidden"> {view.name}</span>
                    </button>{' '}
                    <FileExportButton label="Download" path={savedViewsExportPath(slug, view.id)} suggestedName={`${slug}-saved-views.json`} filter={jsonFile} />{' '}
                    <ConfirmedAction
                      confirming={confirming === view.id}
                      label="Delete"
                      hiddenName={view.name}
                      confirmLabel={`Confirm delete ${view.name}`}
                      onAsk={() => setConfirming(view.id)}
                      onCancel={() => setConfirming(undefined)}
                      onConfirm={() => remove.mutate(view.id, { onSettled: () => setConfirming(undefined) })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryFrame>
      {remove.isError ? <QueryError error={remove.error} /> : null}
    </section>
  );
}

/** A view's new name, in its row; a name taken or refused is said beside it. */
function RenameForm({ slug, view, onDone }: { slug: string; view: SavedView; onDone: () => void }) {
  const update = useUpdateSavedView(slug);
  const [name, setName] = useState(view.name);
  const nameId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ id: view.id, body: { name } }, { onSuccess: onDone });
  };
  const refusal = update.error ? (fieldMessages(update.error).name ?? update.error.message) : undefined;
  return (
    <form className="inline-form" aria-label={`Rename ${view.name}`} onSubmit={submit}>
      <label htmlFor={nameId} className="visually-hidden">
        New name of {view.name}
      </label>
      <input id={nameId} value={name} maxLength={savedViewLimits.name} required autoFocus onChange={(event) => setName(event.target.value)} />
      <button type="submit" disabled={update.isPending}>
        Save name
      </button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
      {refusal ? (
        <span role="alert" className="field-error">
          {refusal}
        </span>
      ) : null}
    </form>
  );
}
