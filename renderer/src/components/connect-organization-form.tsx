import { type FormEvent, useId, useState } from 'react';
import type { ConnectOrganizationBody } from '../../../contracts/console/organizations';
import type { useConnectOrganization } from '../api/organization-mutations';
import { type OrganizationField, OrganizationFields, OrganizationFormError, organizationFieldErrors } from './organization-fields';
import { SecretStorageNote } from './secret-storage-note';

type FieldName = 'remoteUrl' | 'apiKey' | 'slug' | 'name';
const fields: readonly OrganizationField<FieldName>[] = [
  { name: 'remoteUrl', label: 'Remote URL', type: 'text', placeholder: 'https://tenant.example.com', autoComplete: 'url' },
  { name: 'apiKey', label: 'Remote API key', type: 'password', placeholder: '', autoComplete: 'off' },
  { name: 'slug', label: 'Slug', type: 'text', placeholder: 'acme', autoComplete: 'off' },
  { name: 'name', label: 'Name (optional)', type: 'text', placeholder: 'Acme Corp', autoComplete: 'organization' },
];
const fieldNames = fields.map((field) => field.name);
const empty: Record<FieldName, string> = { remoteUrl: '', apiKey: '', slug: '', name: '' };

/**
 * Connects a remote tenant as a replica: the server checks that the remote answers with the key
 * before saving anything, then starts the first sync. The browser's own validation is off so
 * that the server's messages, the single source of the rules, show beside each field (a taken
 * slug, 409, beside the slug). The view holds the mutation, whose answer tells it what was connected.
 */
export function ConnectOrganizationForm({ connect }: { connect: ReturnType<typeof useConnectOrganization> }) {
  const [values, setValues] = useState(empty);
  const id = useId();
  const errors = organizationFieldErrors(connect.error, { 409: 'slug' });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: ConnectOrganizationBody = { slug: values.slug, remoteUrl: values.remoteUrl, apiKey: values.apiKey, name: values.name || undefined };
    connect.mutate(body, { onSuccess: () => setValues(empty) });
  };

  return (
    <form className="form-card connect-form" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Connect a remote tenant</h2>
      <SecretStorageNote />
      <p className="hint">The remote URL is its API&apos;s base URL, with or without <code>/v1</code>, e.g. the address another console shows.</p>
      <OrganizationFields id={id} fields={fields} values={values} errors={errors} onChange={(name, value) => setValues({ ...values, [name]: value })} />
      <OrganizationFormError error={connect.error} fieldNames={fieldNames} errors={errors} fallback="The connection could not be made." />
      <button type="submit" disabled={connect.isPending}>
        {connect.isPending ? 'Checking the remote…' : 'Connect'}
      </button>
    </form>
  );
}
