import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { endpointTagsQuery } from '../api/endpoint-context-queries';
import { useChosenValue } from '../lib/use-chosen-value';

interface TagFilterProps {
  slug: string;
  /** The query parameter: `tag`. */
  name: string;
  label: string;
  /** The tag from the URL; empty when none is chosen. */
  value: string;
  /** Sets the filter to a tag; an empty one removes it. */
  onChange: (name: string, value: string) => void;
}

/**
 * A filter by one of the organization's endpoint tags (set on endpoints or given by a tag rule),
 * each with its endpoints. A tag the URL names that the organization no longer has stays
 * chosen, so that the view says what it filters by.
 */
export function TagFilter({ slug, name, label, value, onChange }: TagFilterProps) {
  const id = useId();
  const tags = useQuery(endpointTagsQuery(slug));
  const [chosen, setChosen] = useChosenValue(value);
  const known = tags.data?.data ?? [];
  const listed = known.some((tag) => tag.tag.toLowerCase() === chosen.toLowerCase());
  return (
    <div className="filter">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        value={listed ? known.find((tag) => tag.tag.toLowerCase() === chosen.toLowerCase())!.tag : chosen}
        onChange={(event) => {
          setChosen(event.target.value);
          onChange(name, event.target.value);
        }}
      >
        <option value="">{tags.data && !tags.data.has_tags ? 'Any (no tags yet)' : 'Any'}</option>
        {chosen && !listed ? <option value={chosen}>{chosen}</option> : null}
        {known.map((tag) => (
          <option key={tag.tag} value={tag.tag}>
            {`${tag.tag} (${tag.endpoints})`}
          </option>
        ))}
      </select>
    </div>
  );
}
