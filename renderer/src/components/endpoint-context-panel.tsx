import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import type { EndpointContext, EndpointTag } from '../../../contracts/console/endpoint-context';
import { type EndpointCriticality, endpointCriticalities } from '../../../contracts/enums';
import { errorMessage } from '../api/console-fetch';
import { endpointContextQuery, tagRulesQuery, useUpdateEndpointContext } from '../api/endpoint-context-queries';
import { paths } from '../lib/paths';
import { fieldMessages, invalidInput, messageOnList } from './form-save-outcome';
import { QueryFrame } from './query-state';

/** Tags as a person types them: separated by commas or semicolons (neither may be in a tag), as {@link tagsHint} says. */
export function typedTags(text: string): string[] {
  return text
    .split(/[;,]/)
    .map((tag) => tag.trim())
    .filter(Boolean);
}

/** What a field of tags says of how they are typed. */
export const tagsHint = 'Separated by commas or semicolons';

/** A criticality as a badge; `normal` shown plainly. */
export function CriticalityBadge({ criticality }: { criticality: EndpointCriticality }) {
  return <span className={`badge badge--criticality-${criticality}`}>{criticality}</span>;
}

/**
 * An endpoint's context on its page: its criticality and tags, each tag saying whether it is set
 * on the endpoint or which rule gives it (linked to the rule), and a form to set them.
 */
export function EndpointContextPanel({ slug, endpointId }: { slug: string; endpointId: string }) {
  const context = useQuery(endpointContextQuery(slug, endpointId));
  const [editing, setEditing] = useState(false);
  return (
    <section className="endpoint-context" aria-labelledby={`context-${endpointId}`}>
      <h2 id={`context-${endpointId}`}>Tags and criticality</h2>
      <QueryFrame query={context} what="tags">
        {(data) =>
          editing ? (
            <EndpointContextForm slug={slug} context={data} onDone={() => setEditing(false)} />
          ) : (
            <>
              <p>
                Criticality: <CriticalityBadge criticality={data.criticality} />
              </p>
              <TagSources slug={slug} tags={data.tags} />
              <button type="button" onClick={() => setEditing(true)}>
                Edit tags and criticality…
              </button>
            </>
          )
        }
      </QueryFrame>
    </section>
  );
}

/** Each tag of an endpoint with where it comes from. */
function TagSources({ slug, tags }: { slug: string; tags: EndpointTag[] }) {
  const rules = useQuery(tagRulesQuery(slug));
  if (tags.length === 0) return <p className="state">No tags: set some here, or make a rule in <Link to={paths.tags(slug)}>Tags and rules</Link>.</p>;
  const ruleName = (id: string) => {
    const rule = rules.data?.find((each) => each.id === id);
    return rule ? `rule “${rule.tag}”${rule.note ? ` (${rule.note})` : ''}` : 'a rule';
  };
  return (
    <ul className="tag-list" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag.tag}>
          <Link className="tag" to={paths.list(slug, 'endpoints', { tag: tag.tag })}>
            {tag.tag}
          </Link>{' '}
          <span className="tag-list__source">
            {tag.sources.map((source, index) => (
              <span key={source.kind === 'rule' ? source.rule_id : 'explicit'}>
                {index > 0 ? ', ' : ''}
                {source.kind === 'explicit' ? 'set here' : <Link to={paths.tags(slug, { rule: source.rule_id })}>from {ruleName(source.rule_id)}</Link>}
              </span>
            ))}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Sets the tags set on an endpoint (rule tags stay whatever this says) and its criticality. */
function EndpointContextForm({ slug, context, onDone }: { slug: string; context: EndpointContext; onDone: () => void }) {
  const update = useUpdateEndpointContext(slug, context.endpoint_id);
  const [tags, setTags] = useState(context.explicit_tags.join(', '));
  const [criticality, setCriticality] = useState<EndpointCriticality>(context.criticality);
  const tagsId = useId();
  const criticalityId = useId();
  const errors = fieldMessages(update.error);
  const tagsError = messageOnList(errors, 'tags', update.variables?.tags);
  const criticalityError = errors.criticality;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ tags: typedTags(tags), criticality }, { onSuccess: onDone });
  };
  return (
    <form className="endpoint-context__form" onSubmit={submit}>
      <label htmlFor={tagsId}>Tags set on this endpoint</label>
      <input
        id={tagsId}
        value={tags}
        onChange={(event) => setTags(event.target.value)}
        placeholder="finance, internet-facing"
        {...invalidInput(tagsError, `${tagsId}-error`, `${tagsId}-hint`)}
      />
      <p id={`${tagsId}-hint`} className="hint">
        {tagsHint}; at most 32, of up to 64 characters each. Tags from rules stay whatever this says.
      </p>
      {tagsError ? (
        <span className="field-error" id={`${tagsId}-error`}>
          {tagsError}
        </span>
      ) : null}
      <label htmlFor={criticalityId}>Criticality</label>
      <select
        id={criticalityId}
        value={criticality}
        onChange={(event) => setCriticality(event.target.value as EndpointCriticality)}
        {...invalidInput(criticalityError, `${criticalityId}-error`)}
      >
        {endpointCriticalities.map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </select>
      {criticalityError ? (
        <span className="field-error" id={`${criticalityId}-error`}>
          {criticalityError}
        </span>
      ) : null}
      <div className="form-actions">
        <button type="submit" disabled={update.isPending}>
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      {update.isError ? (
        <p role="alert" className="field-error">
          Not saved: {tagsError || criticalityError ? 'correct the fields marked above.' : errorMessage(update.error, 'the server could not be reached.')}
        </p>
      ) : null}
    </form>
  );
}
