import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { SlaPolicyAnswer } from '../../../contracts/console/deadlines';
import { type SlaPolicy, defaultSlaPolicy, slaDaysBounds, slaPolicyKeys } from '../../../contracts/remediation-deadlines';
import { slaPolicyQuery, useUpdateSlaPolicy } from '../api/deadline-queries';
import { formatDateTime } from '../lib/format';
import { FormSaveOutcome, fieldMessages } from './form-save-outcome';
import { QueryFrame } from './query-state';

type PolicyKey = (typeof slaPolicyKeys)[number];
/** What the user types in each field: days, or nothing for no deadline. */
type Draft = Record<PolicyKey, string>;

const labels: Record<PolicyKey, string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low', info: 'Info', kev: 'KEV (when sooner)' };

const draftOf = (policy: SlaPolicy): Draft => Object.fromEntries(slaPolicyKeys.map((key) => [key, policy[key] === null ? '' : String(policy[key])])) as Draft;

/**
 * A field as the server reads it: empty is no deadline, a number is days; anything else is
 * sent as typed, for the server (the one place of the rules) to refuse with its message.
 */
function valueOf(text: string): number | string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * The server's word on each field, in the form's own terms: the API says "null" for no
 * deadline, where the form has an empty field.
 */
function fieldErrors(error: Error | null): Partial<Record<string, string>> {
  const rule = `Type a whole number of days from ${slaDaysBounds.min} to ${slaDaysBounds.max}, or leave it empty for no deadline.`;
  return Object.fromEntries(
    Object.entries(fieldMessages(error)).map(([field, message]) => [field, (slaPolicyKeys as readonly string[]).includes(field) ? rule : message]),
  );
}

/** The organization's deadlines as a form, once they are loaded. */
export function SlaPolicyForm({ slug }: { slug: string }) {
  const policy = useQuery(slaPolicyQuery(slug));
  // Held here, so that what the last save said outlives the fields' fresh start after it.
  const update = useUpdateSlaPolicy(slug);
  return (
    <QueryFrame query={policy} what="the deadlines">
      {/* Keyed by what is saved: a save starts the draft afresh from it. */}
      {(saved) => <PolicyFields key={JSON.stringify(saved)} saved={saved} update={update} />}
    </QueryFrame>
  );
}

/**
 * Days to remediate per severity and for KEV findings, saved for the organization. The
 * browser's own validation is off: the server's messages show beside each field, and nothing is
 * saved until every field is right. Reset saves the defaults.
 */
function PolicyFields({ saved, update }: { saved: SlaPolicyAnswer; update: ReturnType<typeof useUpdateSlaPolicy> }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const id = useId();
  const errors = fieldErrors(update.error);
  const save = (policy: Record<PolicyKey, unknown>) => update.mutate(policy as SlaPolicy);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save(Object.fromEntries(slaPolicyKeys.map((key) => [key, valueOf(draft[key])])) as Record<PolicyKey, unknown>);
  };
  const reset = () => {
    setDraft(draftOf(defaultSlaPolicy));
    save(defaultSlaPolicy);
  };
  const isDefault = slaPolicyKeys.every((key) => saved[key] === defaultSlaPolicy[key]);

  return (
    <form className="form-card sla-form" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Deadlines</h2>
      <p className="hint">
        Days to remediate a finding, counted from its first detection; empty for no deadline.{' '}
        {saved.updated_at ? `Saved ${formatDateTime(saved.updated_at)}.` : 'These are the default deadlines: none have been saved for this organization yet.'}
      </p>
      <div className="sla-form__fields">
        {slaPolicyKeys.map((key) => {
          const error = errors[key];
          return (
            <div className="form-card__field" key={key}>
              <label htmlFor={`${id}-${key}`}>{labels[key]}</label>
              <span className="sla-form__input">
                <input
                  id={`${id}-${key}`}
                  name={key}
                  type="text"
                  inputMode="numeric"
                  value={draft[key]}
                  placeholder="none"
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-${key}-error` : undefined}
                  onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
                />
                <span aria-hidden="true">days</span>
              </span>
              {error ? (
                <span className="field-error" id={`${id}-${key}-error`}>
                  {error}
                </span>
              ) : null}
            </div>
          );
        })}
      </div>
      <FormSaveOutcome save={update} fields={slaPolicyKeys} savedClassName="sla-form__saved" saved="Saved: the figures and due dates follow the new deadlines." />
      <div className="sla-form__actions">
        <button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save deadlines'}
        </button>
        <button type="button" onClick={reset} disabled={update.isPending || isDefault}>
          Reset to defaults
        </button>
      </div>
    </form>
  );
}
