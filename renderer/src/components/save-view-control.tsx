import { type FormEvent, useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { savedViewKindOf, savedViewLimits } from '../../../contracts/console/saved-view-basics';
import { useCreateSavedView } from '../api/saved-view-queries';
import { paths } from '../lib/paths';
import { fieldMessages, invalidInput } from './form-save-outcome';

/** The section of the organization's view a console path shows (`vulnerability-findings`; the dashboard's is empty). */
function sectionOf(pathname: string, slug: string): string {
  const root = paths.dashboard(slug);
  return pathname.startsWith(root) ? pathname.slice(root.length).replace(/^\/|\/$/g, '') : pathname;
}

/**
 * "Save view": the filters of the view shown (its URL's query; the server leaves out the table's
 * position) saved under a name of the organization. Every filter bar shows it, and the
 * exceptions' toolbar; it shows only on the views whose filters can be saved
 * (saved-view-basics.ts), not on another page with a filter bar (a scope's coverage).
 */
export function SaveViewControl({ slug }: { slug: string }) {
  const { pathname, search } = useLocation();
  const kind = savedViewKindOf(sectionOf(pathname, slug));
  const create = useCreateSavedView(slug);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const nameId = useId();
  const errorId = useId();
  if (!kind) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, view: kind, query: search },
      {
        onSuccess: () => {
          setNaming(false);
          setName('');
        },
      },
    );
  };
  const refusal = create.error ? (fieldMessages(create.error).name ?? fieldMessages(create.error).query ?? create.error.message) : undefined;
  if (!naming) {
    return (
      <div className="save-view">
        <button
          type="button"
          onClick={() => {
            create.reset();
            setNaming(true);
          }}
        >
          Save view
        </button>
        {create.data ? (
          <span role="status">
            Saved as “{create.data.name}”. <Link to={paths.savedViews(slug)}>Saved views</Link>
          </span>
        ) : null}
      </div>
    );
  }
  return (
    <form className="save-view inline-form" aria-label="Save view" onSubmit={submit}>
      <label htmlFor={nameId}>View name</label>
      <input
        id={nameId}
        value={name}
        maxLength={savedViewLimits.name}
        required
        autoFocus
        onChange={(event) => setName(event.target.value)}
        {...invalidInput(refusal, errorId)}
      />
      <button type="submit" disabled={create.isPending}>
        Save
      </button>
      <button type="button" onClick={() => setNaming(false)}>
        Cancel
      </button>
      {refusal ? (
        <span id={errorId} role="alert" className="field-error">
          {refusal}
        </span>
      ) : null}
    </form>
  );
}
