import { type FormEvent, useId, useState } from 'react';
import type { ConnectOrganizationBody } from '../../../contracts/console/organizations';
import { ApiError } from '../api/console-fetch';
import type { useConnectOrganization } from '../api/organization-mutations';
import { fieldMessages } from './form-save-outcome';
import { SecretStorageNote } from './secret-storage-note';

const fields = [
  { name: 'remoteUrl', label: 'Remote URL', type: 'text', placeholder: 'https://tenant.example.com', autoComplete: 'url' },
  { name: 'apiKey', label: 'Remote API key', type: 'password', placeholder: '', autoComplete: 'off' },
  { name: 'slug', label: 'Slug', type: 'text', placeholder: 'acme', autoComplete: 'off' },
  { name: 'name', label: 'Name (optional)', type: 'text', placeholder: 'Acme Corp', autoComplete: 'organization' },
] as const;

type FieldName = (typeof fields)[number]['name'];
const empty: Record<FieldName, string> = { remoteUrl: '', apiKey: '', slug: '', name: '' };

/** The server's word on each field: its zod issues, and a taken slug (409) beside the slug. */
function fieldErrors(error: Error | null): Partial<Record<string, string>> {
  if (!(error instanceof ApiError)) return {};
  if (error.status === 409) return { slug: error.message };
  return fieldMessages(error);
}

/**
 * Connects a remote tenant as a replica: the server checks that the remote answers with the key
 * before saving anything, then starts the first sync. The browser's own validation is off so
 * that the server's messages, the single source of the rules, show beside each field. The view
 * holds the mutation, whose answer tells it what was connected.
 */
export function ConnectOrganizationForm({ connect }: { connect: ReturnType<typeof useConnectOrganization> }) {
  const [values, setValues] = useState(empty);
  const id = useId();
  const errors = fieldErrors(connect.error);
  const formError = connect.error && !Object.keys(errors).some((field) => fields.some((f) => f.name === field)) ? connect.error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: ConnectOrganizationBody = { slug: values.slug, remoteUrl: values.remoteUrl, apiKey: values.apiKey, name: values.name || undefined };
    connect.mutate(body, { onSuccess: () => setValues(empty) });
  };

  return (
    <form className="form-card connect-form" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Connect a remote tenant</h2>
      <SecretStorageNote />
      <div className="connect-form__fields">
        {fields.map((field) => {
          const error = errors[field.name];
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
                aria-describedby={error ? `${id}-${field.name}-error` : undefined}
                onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
              />
              {error ? (
                <span className="field-error" id={`${id}-${field.name}-error`}>
                  {error}
                </span>
              ) : null}
            </div>
          );
        })}
      </div>
      {formError ? (
        <p className="state state--error" role="alert">
          {formError instanceof ApiError ? formError.message : 'The connection could not be made.'}
        </p>
      ) : connect.isError ? (
        <p className="field-summary" role="alert">
          Correct the fields marked above.
        </p>
      ) : null}
      <button type="submit" disabled={connect.isPending}>
        {connect.isPending ? 'Checking the remote…' : 'Connect'}
      </button>
    </form>
  );
}
