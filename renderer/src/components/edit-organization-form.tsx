import { type FormEvent, useId, useState } from 'react';
import type { ConsoleOrganization, UpdateOrganizationBody } from '../../../contracts/console/organizations';
import { parseRemoteUrl } from '../../../contracts/remote-url';
import { useUpdateOrganization } from '../api/organization-mutations';
import { type OrganizationField, OrganizationFields, OrganizationFormError, organizationFieldErrors } from './organization-fields';

type FieldName = 'remoteUrl' | 'apiKey' | 'name';
const urlField: OrganizationField<FieldName> = { name: 'remoteUrl', label: 'Remote URL', type: 'text', placeholder: 'https://tenant.example.com', autoComplete: 'url' };
// Never filled: the stored key is never shown; a new one replaces it.
const keyField: OrganizationField<FieldName> = { name: 'apiKey', label: 'New remote API key (optional)', type: 'password', placeholder: 'unchanged', autoComplete: 'off' };
const keyForNewAddress: OrganizationField<FieldName> = {
  ...keyField,
  label: 'New remote API key (required)',
  placeholder: '',
  hint: 'A new address needs its key: the stored key is never sent to another address.',
  required: true,
};
const nameField: OrganizationField<FieldName> = { name: 'name', label: 'Name', type: 'text', placeholder: '', autoComplete: 'organization' };

/** Whether the URL typed names another address than the stored one: as the server compares them, after its normalization (a trailing slash or `/v1` is the same address). */
function isNewAddress(typed: string, stored: string | null): boolean {
  const trimmed = typed.trim();
  return (parseRemoteUrl(trimmed) ?? trimmed) !== (stored === null ? '' : (parseRemoteUrl(stored) ?? stored));
}

/**
 * Edits an organization in place: a replica's remote URL, key and name (when its remote moved
 * or its key was rotated), a local one's name. Only what changed is sent; the server checks a
 * new address or key against the remote before it saves anything, and its messages show beside
 * each field. The replica's data, exceptions and history stay. `onDone` closes the form, with
 * the organization as saved when it was.
 */
export function EditOrganizationForm({ organization, onDone }: { organization: ConsoleOrganization; onDone: (saved?: ConsoleOrganization) => void }) {
  const update = useUpdateOrganization();
  const id = useId();
  const replica = organization.kind === 'replica';
  const [values, setValues] = useState<Record<FieldName, string>>({ remoteUrl: organization.remoteUrl ?? '', apiKey: '', name: organization.name });
  const fields = replica ? [urlField, isNewAddress(values.remoteUrl, organization.remoteUrl) ? keyForNewAddress : keyField, nameField] : [nameField];
  const errors = organizationFieldErrors(update.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: UpdateOrganizationBody = {};
    if (values.name !== organization.name) body.name = values.name;
    if (replica && values.remoteUrl !== (organization.remoteUrl ?? '')) body.remoteUrl = values.remoteUrl;
    if (replica && values.apiKey !== '') body.apiKey = values.apiKey;
    if (Object.keys(body).length === 0) return onDone();
    update.mutate({ slug: organization.slug, body }, { onSuccess: (saved) => onDone(saved) });
  };

  return (
    <form className="form-card connect-form" noValidate onSubmit={submit} aria-labelledby={`${id}-title`} data-testid={`edit-${organization.slug}`}>
      <h2 id={`${id}-title`}>
        Edit {organization.name} <code>{organization.slug}</code>
      </h2>
      {replica ? (
        <p className="hint">
          When the remote tenant has moved or its key was rotated: the new address and key are checked before anything is saved, and the
          replica keeps its data, exceptions, deadlines and change history. Leave the key empty to keep the one stored, at the same address.
        </p>
      ) : null}
      <OrganizationFields id={id} fields={fields} values={values} errors={errors} onChange={(name, value) => setValues({ ...values, [name]: value })} />
      <OrganizationFormError error={update.error} fieldNames={fields.map((field) => field.name)} errors={errors} fallback="The changes could not be saved." />
      <button type="submit" disabled={update.isPending}>
        {update.isPending ? 'Checking the remote…' : 'Save'}
      </button>{' '}
      <button type="button" onClick={() => onDone()} disabled={update.isPending}>
        Cancel
      </button>
    </form>
  );
}
