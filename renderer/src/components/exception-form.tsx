import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { type ExceptionReason, exceptionLimits, exceptionReasonLabels, exceptionReasons, latestExceptionExpiry } from '../../../contracts/console/exception-basics';
import { errorMessage } from '../api/console-fetch';
import { fieldMessages } from './form-save-outcome';

const day = 86_400_000;

/** A moment as a date field holds it: the local date, `yyyy-mm-dd`. */
export function localDate(ms: number): string {
  const date = new Date(ms);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** The start of a local date (`yyyy-mm-dd`) as an ISO instant: an exception expires as that day begins. */
export function startOfLocalDate(date: string): string {
  return new Date(`${date}T00:00:00`).toISOString();
}

/** What the form edits of an exception. */
export interface ExceptionFields {
  reason: ExceptionReason;
  note: string;
  /** The local date it expires at the start of. */
  expiresOn: string;
}

/** A new exception's fields: risk accepted, for 90 days. */
export const newExceptionFields = (): ExceptionFields => ({ reason: 'risk_accepted', note: '', expiresOn: localDate(Date.now() + 90 * day) });

interface ExceptionFormProps {
  /** The form's heading. */
  title: string;
  initial: ExceptionFields;
  submitLabel: string;
  pending: boolean;
  error: Error | null;
  onSubmit: (fields: ExceptionFields) => void;
  onCancel: () => void;
  /** Fields of the scope, shown before the reason (a CVE and endpoints). */
  children?: ReactNode;
}

/**
 * An exception's reason, note and expiry date, made or edited: the date is between tomorrow and
 * a year from now (the server checks it again and says why it refuses, beside the field).
 */
export function ExceptionForm({ title, initial, submitLabel, pending, error, onSubmit, onCancel, children }: ExceptionFormProps) {
  const [fields, setFields] = useState(initial);
  // The date's bounds are of the moment the form opened.
  const [opened] = useState(Date.now);
  const id = useId();
  const errors = fieldMessages(error);
  const shown = new Set(['reason', 'note', 'expires_at', 'scope.cve_id', 'scope.endpoint_ids']);
  const formError = error && !Object.keys(errors).some((field) => shown.has(field)) ? error : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(fields);
  };
  const fieldError = (field: string) =>
    errors[field] ? (
      <span className="field-error" id={`${id}-${field}-error`}>
        {errors[field]}
      </span>
    ) : null;
  const described = (field: string) => (errors[field] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}-error` } : {});
  return (
    <form className="exception-form" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <div className="exception-form__fields">
        {children}
        <div className="exception-form__field">
          <label htmlFor={`${id}-reason`}>Reason</label>
          <select id={`${id}-reason`} value={fields.reason} onChange={(event) => setFields({ ...fields, reason: event.target.value as ExceptionReason })} {...described('reason')}>
            {exceptionReasons.map((reason) => (
              <option key={reason} value={reason}>
                {exceptionReasonLabels[reason]}
              </option>
            ))}
          </select>
          {fieldError('reason')}
        </div>
        <div className="exception-form__field">
          <label htmlFor={`${id}-expires`}>Expires on</label>
          <input
            id={`${id}-expires`}
            type="date"
            value={fields.expiresOn}
            min={localDate(opened + day)}
            max={localDate(latestExceptionExpiry(opened))}
            onChange={(event) => setFields({ ...fields, expiresOn: event.target.value })}
            {...described('expires_at')}
          />
          {fieldError('expires_at') ?? <span className="hint">At the start of that day; at most a year ahead.</span>}
        </div>
        <div className="exception-form__field exception-form__field--wide">
          <label htmlFor={`${id}-note`}>Note</label>
          <textarea
            id={`${id}-note`}
            rows={2}
            maxLength={exceptionLimits.noteLength}
            value={fields.note}
            placeholder="The control in place, the ticket, who agreed…"
            onChange={(event) => setFields({ ...fields, note: event.target.value })}
            {...described('note')}
          />
          {fieldError('note')}
        </div>
      </div>
      {formError ? (
        <p className="state state--error" role="alert">
          {errorMessage(formError, 'The exception could not be saved.')}
        </p>
      ) : null}
      <div className="exception-form__actions">
        <button type="submit" disabled={pending}>
          {submitLabel}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
