import { useEffect, useId, useState } from 'react';

/**
 * The control of a list filter, by the kind of its query parameter: a choice among the
 * filter's values, yes or no, an id, or free text.
 */
export type FilterControl =
  | { kind: 'choice'; label: string; values: readonly string[] }
  | { kind: 'boolean'; label: string; yes: string; no: string }
  | { kind: 'uuid'; label: string }
  | { kind: 'text'; label: string; placeholder: string };

/** The controls of a filter bar, by query parameter, in the order the bar shows them. */
export type FilterControls = Readonly<Record<string, FilterControl>>;

interface FilterBarProps {
  controls: FilterControls;
  values: Record<string, string>;
  /** Sets one filter; an empty value removes it. */
  onChange: (name: string, value: string) => void;
}

interface SelectOption {
  value: string;
  label: string;
}

const uuidPattern = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** The options of a choice or yes-or-no control; a value reads as words (`os_patch` as "os patch"). */
function selectOptions(control: Extract<FilterControl, { kind: 'choice' | 'boolean' }>): SelectOption[] {
  if (control.kind === 'boolean') {
    return [
      { value: 'true', label: control.yes },
      { value: 'false', label: control.no },
    ];
  }
  return control.values.map((value) => ({ value, label: value.replace('_', ' ') }));
}

/** The filter controls of a list, labelled; text is applied when typing pauses or on Enter. */
export function FilterBar({ controls, values, onChange }: FilterBarProps) {
  return (
    <div className="filter-bar" role="search">
      {Object.entries(controls).map(([name, control]) =>
        control.kind === 'choice' || control.kind === 'boolean' ? (
          <SelectFilter key={name} name={name} label={control.label} options={selectOptions(control)} value={values[name] ?? ''} onChange={onChange} />
        ) : (
          <TextFilter
            key={name}
            name={name}
            label={control.label}
            {...(control.kind === 'uuid' ? { placeholder: 'uuid', pattern: uuidPattern } : { placeholder: control.placeholder })}
            value={values[name] ?? ''}
            onChange={onChange}
          />
        ),
      )}
    </div>
  );
}

function SelectFilter(props: { name: string; label: string; options: SelectOption[]; value: string; onChange: (name: string, value: string) => void }) {
  const id = useId();
  return (
    <div className="filter">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} name={props.name} value={props.value} onChange={(event) => props.onChange(props.name, event.target.value)}>
        <option value="">Any</option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

interface TextFilterProps {
  name: string;
  label: string;
  placeholder: string;
  /** What a value must match whole, e.g. a UUID; a value that does not is not applied. */
  pattern?: string;
  value: string;
  onChange: (name: string, value: string) => void;
}

function TextFilter({ name, label, placeholder, pattern, value, onChange }: TextFilterProps) {
  const id = useId();
  // The draft is what the user is typing; the URL keeps the applied filter.
  const [draft, setDraft] = useState(value);
  // A filter changed elsewhere (back button, a link) replaces the draft.
  const [applied, setApplied] = useState(value);
  if (applied !== value) {
    setApplied(value);
    setDraft(value);
  }
  const valid = !pattern || draft === '' || new RegExp(`^${pattern}$`).test(draft.trim());
  useEffect(() => {
    if (draft.trim() === value || !valid) return;
    const timer = setTimeout(() => onChange(name, draft.trim()), 400);
    return () => clearTimeout(timer);
  }, [draft, value, valid, name, onChange]);
  return (
    <div className="filter filter--text">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="search"
        value={draft}
        placeholder={placeholder}
        aria-invalid={!valid}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && valid) onChange(name, draft.trim());
        }}
      />
    </div>
  );
}
