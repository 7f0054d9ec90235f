import { type FormEvent, useId, useState } from 'react';
import { type EndpointCriticality, endpointCriticalities } from '../../../contracts/enums';
import { errorMessage } from '../api/console-fetch';
import { useBulkUpdateEndpointContext } from '../api/endpoint-context-queries';
import type { ListFilters } from '../api/list-pages';
import { formatCount, formatCounted } from '../lib/format';
import { tagsHint, typedTags } from './endpoint-context-panel';
import { fieldMessages, invalidInput, messageOnList } from './form-save-outcome';

/**
 * Tags, untags or sets the criticality of every endpoint the endpoints list's filters select
 * (all pages, not only those shown), in one request; says how many matched and changed.
 */
export function BulkEndpointContext({ slug, filters, total }: { slug: string; filters: ListFilters; total: number | undefined }) {
  const bulk = useBulkUpdateEndpointContext(slug);
  const [open, setOpen] = useState(false);
  const [add, setAdd] = useState('');
  const [remove, setRemove] = useState('');
  const [criticality, setCriticality] = useState<EndpointCriticality | ''>('');
  const id = useId();
  // The list's filters and q, as the list's URL gives them; its order does not change what is selected.
  const { sort: _sort, ...selection } = filters;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    bulk.mutate({
      filter: new URLSearchParams(selection).toString(),
      add_tags: typedTags(add),
      remove_tags: typedTags(remove),
      ...(criticality ? { criticality } : {}),
    });
  };
  const count = total === undefined ? 'these' : `these ${formatCount(total)}`;
  const errors = fieldMessages(bulk.error);
  const marked = {
    add: messageOnList(errors, 'add_tags', bulk.variables?.add_tags),
    remove: messageOnList(errors, 'remove_tags', bulk.variables?.remove_tags),
    criticality: errors.criticality,
  };
  const fieldError = (field: keyof typeof marked) =>
    marked[field] ? (
      <span className="field-error" id={`${id}-${field}-error`}>
        {marked[field]}
      </span>
    ) : null;
  return (
    <div className="bulk-context">
      <button type="button" onClick={() => setOpen(!open)} aria-expanded={open} aria-controls={id}>
        Tag {count} endpoints…
      </button>
      {open ? (
        <form id={id} className="bulk-context__form" onSubmit={submit} aria-label="Tag the endpoints the filters select">
          <label htmlFor={`${id}-add`}>Add tags</label>
          <input
            id={`${id}-add`}
            value={add}
            onChange={(event) => setAdd(event.target.value)}
            placeholder="finance, laptop"
            title={tagsHint}
            {...invalidInput(marked.add, `${id}-add-error`)}
          />
          {fieldError('add')}
          <label htmlFor={`${id}-remove`}>Remove tags</label>
          <input id={`${id}-remove`} value={remove} onChange={(event) => setRemove(event.target.value)} title={tagsHint} {...invalidInput(marked.remove, `${id}-remove-error`)} />
          {fieldError('remove')}
          <label htmlFor={`${id}-criticality`}>Criticality</label>
          <select
            id={`${id}-criticality`}
            value={criticality}
            onChange={(event) => setCriticality(event.target.value as EndpointCriticality | '')}
            {...invalidInput(marked.criticality, `${id}-criticality-error`)}
          >
            <option value="">Unchanged</option>
            {endpointCriticalities.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
          {fieldError('criticality')}
          <button type="submit" disabled={bulk.isPending || (!add.trim() && !remove.trim() && !criticality)}>
            Apply to {count} endpoints
          </button>
          {bulk.data ? (
            <span role="status">
              {formatCounted(bulk.data.matched, 'endpoint')} selected, {formatCount(bulk.data.changed)} changed.
            </span>
          ) : null}
          {bulk.isError ? (
            <span role="alert" className="field-error">
              Nothing changed: {Object.values(marked).some(Boolean) ? 'correct the fields marked.' : errorMessage(bulk.error, 'the server could not be reached.')}
            </span>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
