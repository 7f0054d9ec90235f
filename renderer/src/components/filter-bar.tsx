import { useEffect, useId, useState } from 'react';
import type { FilterControl } from '../views/list-definitions';

interface FilterBarProps {
  controls: FilterControl[];
  values: Record<string, string>;
  /** Sets one filter; an empty value removes it. */
  onChange: (name: string, value: string) => void;
}

/** The filter controls of a list, labelled; text is applied when typing pauses or on Enter. */
export function FilterBar({ controls, values, onChange }: FilterBarProps) {
  return (
    <div className="filter-bar" role="search">
      {controls.map((control) =>
        control.kind === 'select' ? (
          <SelectFilter key={control.name} control={control} value={values[control.name] ?? ''} onChange={onChange} />
        ) : (
          <TextFilter key={control.name} control={control} value={values[control.name] ?? ''} onChange={onChange} />
        ),
      )}
    </div>
  );
}

function SelectFilter(props: {
  control: Extract<FilterControl, { kind: 'select' }>;
  value: string;
  onChange: (name: string, value: string) => void;
}) {
  const id = useId();
  return (
    <div className="filter">
      <label htmlFor={id}>{props.control.label}</label>
      <select id={id} name={props.control.name} value={props.value} onChange={(event) => props.onChange(props.control.name, event.target.value)}>
        <option value="">Any</option>
        {props.control.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function TextFilter(props: { control: Extract<FilterControl, { kind: 'text' }>; value: string; onChange: (name: string, value: string) => void }) {
  const id = useId();
  // The draft is what the user is typing; the URL keeps the applied filter.
  const [draft, setDraft] = useState(props.value);
  const { control, value, onChange } = props;
  // A filter changed elsewhere (back button, a link) replaces the draft.
  const [applied, setApplied] = useState(value);
  if (applied !== value) {
    setApplied(value);
    setDraft(value);
  }
  const valid = !control.pattern || draft === '' || new RegExp(`^${control.pattern}$`).test(draft.trim());
  useEffect(() => {
    if (draft.trim() === value || !valid) return;
    const timer = setTimeout(() => onChange(control.name, draft.trim()), 400);
    return () => clearTimeout(timer);
  }, [draft, value, valid, control.name, onChange]);
  return (
    <div className="filter filter--text">
      <label htmlFor={id}>{control.label}</label>
      <input
        id={id}
        name={control.name}
        type="search"
        value={draft}
        placeholder={control.placeholder}
        aria-invalid={!valid}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && valid) onChange(control.name, draft.trim());
        }}
      />
    </div>
  );
}
