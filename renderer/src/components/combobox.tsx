import { type KeyboardEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { formatCounted } from '../lib/format';

/** One suggestion of a {@link Combobox}. */
export interface ComboboxOption {
  id: string;
  /** What it is called: a hostname, a product and version. */
  label: string;
  /** What tells it apart from others of the same name, in smaller print. */
  detail?: ReactNode;
}

interface ComboboxProps {
  label: string;
  name: string;
  placeholder: string;
  /** The name of the chosen item, shown while the user is not typing; empty when none is chosen. */
  chosen: string;
  /** The suggestions for the text typed (or, before any, the first ones). */
  options: readonly ComboboxOption[];
  /** Said under the suggestions and to screen readers: "Searching…", "No endpoint matches". */
  message: string;
  /** Told what to suggest for: the text typed, or null once the suggestions are closed. */
  onSearch: (text: string | null) => void;
  onChoose: (option: ComboboxOption) => void;
  onClear: () => void;
  /** A wider field, for names that run long ("product version — hostname"). */
  wide?: boolean;
}

/**
 * A text field that suggests items as one types and chooses one of them, after the WAI-ARIA
 * combobox pattern (a list autocomplete): ↓ and ↑ move through the suggestions (↓ opens them),
 * Enter chooses, Escape closes them and then gives up the typed text, and leaving the field does
 * too. The field shows the chosen item's name; the clear button removes the choice. What the
 * choice means (an id in the URL) is the caller's.
 */
export function Combobox(props: ComboboxProps) {
  const { label, options, message, onSearch } = props;
  const id = useId();
  const listboxId = `${id}-listbox`;
  const optionId = (index: number) => `${id}-option-${index}`;
  // The text being typed; null while the field shows the chosen item's name.
  const [draft, setDraft] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const expanded = open && (options.length > 0 || message !== '');
  const activeIndex = open && active < options.length ? active : -1;
  const activeId = activeIndex >= 0 ? optionId(activeIndex) : undefined;
  // The active suggestion stays in sight when the arrows move it past the list's edge.
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  const show = (text: string | null) => {
    setOpen(true);
    setActive(-1);
    onSearch(text ?? '');
  };
  const close = () => {
    setOpen(false);
    setActive(-1);
    onSearch(null);
  };
  const choose = (option: ComboboxOption) => {
    setDraft(null);
    close();
    props.onChoose(option);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) show(draft);
      else if (options.length > 0) {
        // Round the options and the field itself (-1), as the pattern does.
        const places = options.length + 1;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((((activeIndex + 1 + step) % places) + places) % places - 1);
      }
    } else if (event.key === 'Enter') {
      const option = options[activeIndex];
      if (option) {
        event.preventDefault();
        choose(option);
      } else if (draft !== null && draft.trim() === '' && props.chosen) {
        // An emptied field and Enter: no choice any more.
        setDraft(null);
        close();
        props.onClear();
      }
    } else if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        close();
      } else if (draft !== null) {
        event.preventDefault();
        setDraft(null);
      }
    }
  };

  return (
    <div className={`filter combobox${props.wide ? ' combobox--wide' : ''}`}>
      <label htmlFor={`${id}-input`}>{label}</label>
      <div className="combobox__field">
        <input
          id={`${id}-input`}
          name={props.name}
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listboxId}
          aria-activedescendant={activeId}
          placeholder={props.placeholder}
          value={draft ?? props.chosen}
          // The whole name, when the field cuts it short.
          title={draft === null && props.chosen ? props.chosen : undefined}
          onFocus={(event) => event.currentTarget.select()}
          onClick={() => {
            if (!open) show(draft);
          }}
          onChange={(event) => {
            setDraft(event.target.value);
            show(event.target.value);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            setDraft(null);
            close();
          }}
        />
        {props.chosen ? (
          <button type="button" className="combobox__clear" aria-label={`Clear ${label.toLowerCase()}`} title="Clear" onClick={props.onClear}>
            ×
          </button>
        ) : null}
      </div>
      <div className="combobox__popup" hidden={!expanded}>
        {/* Hidden while empty: a listbox must hold options. */}
        <ul role="listbox" id={listboxId} aria-label={`${label} suggestions`} hidden={options.length === 0}>
          {options.map((option, index) => (
            <li
              key={option.id}
              id={optionId(index)}
              role="option"
              aria-selected={index === activeIndex}
              className={`combobox__option${index === activeIndex ? ' is-active' : ''}`}
              // Keep the focus in the field: a blur would close the suggestions before the click.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(option)}
            >
              <span className="combobox__label">{option.label}</span>
              {option.detail ? <span className="combobox__detail">{option.detail}</span> : null}
            </li>
          ))}
        </ul>
        {message ? <p className="combobox__message">{message}</p> : null}
      </div>
      <div role="status" className="visually-hidden">
        {expanded ? message || formatCounted(options.length, 'suggestion') : ''}
      </div>
    </div>
  );
}
