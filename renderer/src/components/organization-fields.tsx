import { ApiError, errorMessage } from '../api/console-fetch';
import { fieldMessages } from './form-save-outcome';

/** A text field of the organization forms: its body field's name, label and input hints. */
export interface OrganizationField<Name extends string> {
  name: Name;
  label: string;
  type: 'text' | 'password';
  placeholder: string;
  autoComplete: string;
  /** Said under the field (and read with it): why it is asked for. */
  hint?: string;
  /** Marked as required for assistive technology; the server still decides. */
  required?: boolean;
}

/** The server's word on each field: its zod issues (422), and what `byStatus` puts beside a field for other statuses. */
export function organizationFieldErrors(error: Error | null, byStatus: Partial<Record<number, string>> = {}): Partial<Record<string, string>> {
  if (!(error instanceof ApiError)) return {};
  const field = byStatus[error.status];
  if (field) return { [field]: error.message };
  return fieldMessages(error);
}

/**
 * The inputs of an organization form, each with the server's message beside it (described by
 * it, for assistive technology); the browser's own validation stays off in the form, so that
 * the server's rules are the only ones.
 */
export function OrganizationFields<Name extends string>({
  id,
  fields,
  values,
  errors,
  onChange,
}: {
  id: string;
  fields: readonly OrganizationField<Name>[];
  values: Record<Name, string>;
  errors: Partial<Record<string, string>>;
  onChange: (name: Name, value: string) => void;
}) {
  return (
    <div className="connect-form__fields">
      {fields.map((field) => {
        const error = errors[field.name];
        const describedBy = [field.hint && `${id}-${field.name}-hint`, error && `${id}-${field.name}-error`].filter(Boolean).join(' ');
        return (
          <div className="form-card__field" key={field.name}>
            <label htmlFor={`${id}-${field.name}`}>{field.label}</label>
            <input
              id={`${id}-${field.name}`}
              name={field.name}
              type={field.type}
              value={values[field.name]}
              placeholder={field.placeholder}
              autoComplete={field.autoComplete}
              spellCheck={false}
              aria-invalid={error ? true : undefined}
              aria-required={field.required ? true : undefined}
              aria-describedby={describedBy || undefined}
              onChange={(event) => onChange(field.name, event.target.value)}
            />
            {field.hint ? (
              <span className="hint organization-field__hint" id={`${id}-${field.name}-hint`}>
                {field.hint}
              </span>
            ) : null}
            {error ? (
              <span className="field-error" id={`${id}-${field.name}-error`}>
                {error}
              </span>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

/** The form's own error (one on no field), or a pointer to the fields marked. */
export function OrganizationFormError({ error, fieldNames, errors, fallback }: { error: Error | null; fieldNames: readonly string[]; errors: Partial<Record<string, string>>; fallback: string }) {
  if (!error) return null;
  if (!Object.keys(errors).some((field) => fieldNames.includes(field))) {
    return (
      <p className="state state--error" role="alert">
        {errorMessage(error, fallback)}
      </p>
    );
  }
  return (
    <p className="field-summary" role="alert">
      Correct the fields marked above.
    </p>
  );
}
