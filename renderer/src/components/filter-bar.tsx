import { useEffect, useId, useRef } from 'react';
import type { ChosenCollection } from '../api/console-queries';
import { useShortcut } from '../lib/keyboard';
import { anyValue } from '../lib/default-filters';
import { useChosenValue } from '../lib/use-chosen-value';
import { EndpointFilter } from './endpoint-filter';
import { SaveViewControl } from './save-view-control';
import { TagFilter } from './tag-filter';
import { TargetFilter } from './target-filter';

/**
 * The control of a list filter, by the kind of its query parameter: a choice among the
 * filter's values, yes or no, an item of `collection` chosen by name (the parameter is its id),
 * free text, a flag (a checkbox: `true` or absent), one of the organization's endpoint tags, or
 * a day (a calendar: `YYYY-MM-DD`).
 */
export type FilterControl =
  | { kind: 'choice'; label: string; values: readonly string[] }
  | { kind: 'boolean'; label: string; yes: string; no: string }
  | { kind: 'uuid'; label: string; collection: ChosenCollection }
  | { kind: 'text'; label: string; placeholder: string }
  | { kind: 'flag'; label: string }
  | { kind: 'tag'; label: string }
  | { kind: 'date'; label: string };

/** The controls of a filter bar, by query parameter, in the order the bar shows them. */
export type FilterControls = Readonly<Record<string, FilterControl>>;

interface FilterBarProps {
  /** The organization, whose items a chosen-by-name filter suggests. */
  slug: string;
  controls: FilterControls;
  values: Record<string, string>;
  /**
   * The view's defaults of choice or yes-or-no filters, shown while the URL names none: choosing
   * one removes the filter from the URL, and "Any" sets it to `any`, which lifts the default.
   */
  defaults?: Readonly<Record<string, string | undefined>>;
  /** Sets one filter; an empty value removes it. */
  onChange: (name: string, value: string) => void;
}

interface SelectOption {
  value: string;
  label: string;
}

/** The query parameter of a list's search box, which `/` focuses. */
const searchParameter = 'q';

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

/**
 * The filter controls of a list, labelled; text is applied when typing pauses or on Enter, and
 * an id filter is chosen by name. `/` focuses the search box, where the list has one. Beside
 * them, on a view whose filters can be saved, "Save view".
 */
export function FilterBar({ slug, controls, values, defaults = {}, onChange }: FilterBarProps) {
  return (
    <>
      <FilterControlsBar slug={slug} controls={controls} values={values} defaults={defaults} onChange={onChange} />
      <SaveViewControl slug={slug} />
    </>
  );
}

/** The filter controls of {@link FilterBar}. */
function FilterControlsBar({ slug, controls, values, defaults = {}, onChange }: FilterBarProps) {
  return (
    <div className="filter-bar" role="search">
      {Object.entries(controls).map(([name, control]) => {
        const value = values[name] ?? '';
        switch (control.kind) {
          case 'choice':
          case 'boolean':
            return (
              <SelectFilter
                key={name}
                name={name}
                label={control.label}
                options={selectOptions(control)}
                value={value || defaults[name] || ''}
                anyValue={defaults[name] ? anyValue : ''}
                onChange={(chosen) => onChange(name, chosen === defaults[name] ? '' : chosen)}
              />
            );
          case 'uuid':
            return control.collection === 'endpoints' ? (
              <EndpointFilter key={name} slug={slug} name={name} label={control.label} value={value} onChange={onChange} />
            ) : (
              // A target filter beside an endpoint filter suggests the chosen endpoint's targets.
              <TargetFilter key={name} slug={slug} name={name} label={control.label} value={value} onChange={onChange} endpointId={values.endpointId} />
            );
          case 'flag':
            return <FlagFilter key={name} name={name} label={control.label} value={value} onChange={onChange} />;
          case 'tag':
            return <TagFilter key={name} slug={slug} name={name} label={control.label} value={value} onChange={onChange} />;
          case 'date':
            return <DateFilter key={name} name={name} label={control.label} value={value} onChange={onChange} />;
          case 'text':
            return (
              <TextFilter
                key={name}
                name={name}
                label={control.label}
                placeholder={control.placeholder}
                value={value}
                onChange={onChange}
                focusShortcut={name === searchParameter ? '/' : undefined}
              />
            );
        }
      })}
    </div>
  );
}

/** A filter given as `true` (checked) or absent. */
function FlagFilter(props: { name: string; label: string; value: string; onChange: (name: string, value: string) => void }) {
  const id = useId();
  const [value, setValue] = useChosenValue(props.value);
  const choose = (checked: boolean) => {
    const chosen = checked ? 'true' : '';
    setValue(chosen);
    props.onChange(props.name, chosen);
  };
  return (
    <div className="filter filter--flag">
      <input id={id} name={props.name} type="checkbox" checked={value === 'true'} onChange={(event) => choose(event.target.checked)} />
      <label htmlFor={id}>{props.label}</label>
    </div>
  );
}

/** A choice among options, or "Any": `anyValue` (empty, or `any` where the view has a default to lift). */
function SelectFilter(props: { name: string; label: string; options: SelectOption[]; value: string; anyValue: string; onChange: (value: string) => void }) {
  const id = useId();
  const [value, setValue] = useChosenValue(props.value);
  const choose = (chosen: string) => {
    setValue(chosen);
    props.onChange(chosen);
  };
  return (
    <div className="filter">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} name={props.name} value={value} onChange={(event) => choose(event.target.value)}>
        <option value={props.anyValue}>Any</option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A day chosen on a calendar, applied once whole (the browser gives a partly typed date as empty); cleared, the filter is removed. */
function DateFilter(props: { name: string; label: string; value: string; onChange: (name: string, value: string) => void }) {
  const id = useId();
  const [value, setValue] = useChosenValue(props.value);
  const choose = (chosen: string) => {
    setValue(chosen);
    props.onChange(props.name, chosen);
  };
  return (
    <div className="filter filter--date">
      <label htmlFor={id}>{props.label}</label>
      <input id={id} name={props.name} type="date" value={value} onChange={(event) => choose(event.target.value)} />
    </div>
  );
}

interface TextFilterProps {
  name: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (name: string, value: string) => void;
  /** A key that focuses the field from anywhere on the page but another field. */
  focusShortcut?: string;
}

function TextFilter({ name, label, placeholder, value, onChange, focusShortcut }: TextFilterProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // The draft is what the user is typing; the URL keeps the applied filter.
  const [draft, setDraft] = useChosenValue(value);
  useShortcut(focusShortcut, () => {
    input.current?.focus();
    input.current?.select();
  });
  useEffect(() => {
    if (draft.trim() === value) return;
    const timer = setTimeout(() => onChange(name, draft.trim()), 400);
    return () => clearTimeout(timer);
  }, [draft, value, name, onChange]);
  return (
    <div className="filter filter--text">
      <label htmlFor={id}>{label}</label>
      <input
        ref={input}
        id={id}
        name={name}
        type="search"
        value={draft}
        placeholder={placeholder}
        aria-keyshortcuts={focusShortcut}
        title={focusShortcut ? `${label} (${focusShortcut})` : undefined}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onChange(name, draft.trim());
        }}
      />
    </div>
  );
}
